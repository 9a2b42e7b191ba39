// The pages of remote-share prerendered to HTML at build time (scripts/prerender.mjs): the page a
// relative opens from an SMS must paint before any script arrives.
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { definePrerender } from '@kabari/shared/prerender/define-prerender';
import EnterLinkPage from './features/consent/enter-link-page';
import LocationFailedPage from './features/location-failed/location-failed-page';
import MyRequestsPage from './features/my-requests/my-requests-page';
import SharePage from './features/share/share-page';
import type { LinkLoad, RecipientFailure, RecipientPageProps } from './lib/use-link';

const pages: Record<string, ComponentType<RecipientPageProps>> = {
  '/enter-link': EnterLinkPage,
  '/share': SharePage,
  '/location-failed': LocationFailedPage,
  '/my-requests': MyRequestsPage,
};

// Each page is given its address (these pages use no router); the query string is not known at build time.
export default definePrerender(Object.keys(pages), (path) => {
  const Page = pages[path.replace(/^\/id\//, '/')];
  if (!Page) throw new Error(`No page to prerender at ${path}`);
  return <Page location={{ pathname: path, search: '' }} />;
});

/**
 * Run by the server at request time (server/src/web/recipient-pages.ts, from dist/prerender/server-render.cjs): a
 * page rendered for its very address and its link (or, for the consent overview, the step this browser is at), so
 * it arrives complete (who asks, the link's state) and works before its script has run. Null for a path that is not
 * one of these pages.
 */
export function renderRecipientPage(
  pathname: string,
  search: string,
  link: LinkLoad,
  failure?: RecipientFailure,
  shared?: RecipientPageProps['shared'],
  overview?: RecipientPageProps['overview'],
): string | null {
  const Page = pages[pathname.replace(/^\/id\//, '/').replace(/(.)\/+$/, '$1')];
  if (!Page) return null;
  return renderToString(
    <Page location={{ pathname, search }} link={link} failure={failure} shared={shared} overview={overview} />,
  );
}
