// The host's layout around the page slot, prerendered per route and language at build time
// (scripts/prerender.mjs). The server puts a remote's prerendered page into the slot.
import { Suspense } from 'react';
import { definePrerender } from '@kabari/shared/prerender/define-prerender';
import './i18n/host-namespace';
import { SiteLayout } from './app/site-layout';
import { rulePath, type RouteRules } from './features/route-rules/route-rules';
import { guardRedirect } from './lib/route-guard';
import { appRoutes, findAppRoute, twinPaths } from './lib/route-table';
import { recipientPageOf } from './lib/recipient-routes';

/** Replaced by the <!--kabari-page--> marker: React cannot print a comment itself. */
export const pageSlotText = 'KABARI_PAGE_SLOT';

// A shell for every public (and recipient's) page a remote provides; the server uses it where the remote prerenders the page.
// Not the operator's console: it is no public page, and its layout is its own.
// Mirrors RemotePage: the page sits in a Suspense boundary, so the client can hydrate the layout
// at once and the page when its remote has loaded.
export default definePrerender(
  appRoutes
    .filter(
      (route) => (route.access === 'public' || route.access === 'anyone') && route.page && !recipientPageOf(route.path),
    )
    .map((route) => route.path),
  () => (
    <SiteLayout>
      <Suspense fallback={null}>{pageSlotText}</Suspense>
    </SiteLayout>
  ),
);

/**
 * The recipient's pages: the same layout, served with the light recipient entry (recipient.html), which hydrates
 * only the page, inside this element. The layout stays the server's HTML: its links and its language switch work
 * without script, and nothing in it needs the app's router or stores.
 */
export const recipientShells = definePrerender(
  appRoutes.filter((route) => recipientPageOf(route.path)).map((route) => route.path),
  () => (
    <SiteLayout staticHeader>
      <div id="recipient-page">{pageSlotText}</div>
    </SiteLayout>
  ),
);

/**
 * Where the guard sends a signed-in user from each visitor-only page, in both languages (page path → target). The
 * server answers such a page with this redirect when the request carries the session cookie, so a signed-in user
 * is not shown the public page for a moment before the client's guard moves them on.
 */
export const signedInRedirects: Record<string, string> = Object.fromEntries(
  appRoutes
    .filter((route) => route.access === 'public')
    .flatMap((route) => twinPaths(route.path))
    .flatMap((path) => {
      const target = guardRedirect('public', true, path);
      return target ? [[path, target]] : [];
    }),
);

/**
 * Whether the shell of this page path starts the app on the visitor's first use rather than on load. Not a page
 * the build's route rules send elsewhere: the app applies them, and it must do so as the page opens.
 */
export function startsOnFirstUse(pagePath: string, rules: RouteRules = {}): boolean {
  return findAppRoute(pagePath)?.startsOnFirstUse === true && !Object.hasOwn(rules, rulePath(pagePath));
}
