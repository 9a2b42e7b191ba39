import type { ComponentType, ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from '../routing/router';
import { initI18n } from '../i18n/create-i18n';
import { localeFromPath } from '../i18n/locale';
import { pageHeadHtml, type PageHead } from '../seo/page-head';
import { PageHeadCollector } from '../seo/use-page-head';

export interface PrerenderedPage {
  html: string;
  /** The page's own <head> elements (title, description, alternates): empty when it sets none (usePageHead). */
  head: string;
  /** Whether the page belongs in the sitemap: it has a head of its own and is indexable. */
  sitemap: boolean;
}

export interface Prerender {
  /** Every path to prerender, English and /id twins. */
  paths: string[];
  /** The HTML of one path, as the client's first render will produce it, and its head. */
  render: (path: string) => Promise<PrerenderedPage>;
}

async function renderToString(element: ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(element);
  let html = '';
  for await (const chunk of prelude) html += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return html;
}

function twins(path: string): string[] {
  return [path, path === '/' ? '/id' : `/id${path}`];
}

/**
 * Runs at build time in Node: renders the given element for each path, in each language, under
 * a static router. A remote uses it for its pages; the host for its layout around the page slot.
 * A page that calls usePageHead gets its title, description and alternates in `head`.
 */
export function definePrerender(paths: string[], element: (path: string) => ReactNode): Prerender {
  return {
    paths: paths.flatMap(twins),
    render: async (path) => {
      await initI18n(localeFromPath(path));
      let head: PageHead | undefined;
      const html = await renderToString(
        <PageHeadCollector.Provider value={(pageHead) => (head = pageHead)}>
          <StaticRouter location={path}>{element(path)}</StaticRouter>
        </PageHeadCollector.Provider>,
      );
      return { html, head: head ? pageHeadHtml(path, head) : '', sitemap: Boolean(head && head.indexable !== false) };
    },
  };
}

/** A remote's prerendered pages: path (English form) → page component. */
export function definePrerenderPages(pages: Record<string, ComponentType>): Prerender {
  return definePrerender(Object.keys(pages), (path) => {
    const english = path === '/id' ? '/' : path.replace(/^\/id\//, '/');
    const Page = pages[english];
    if (!Page) throw new Error(`No page to prerender at ${path}`);
    return <Page />;
  });
}
