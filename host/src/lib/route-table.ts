import type { RemoteName } from '@kabari/shared/config/runtime-config';
import { matchPath } from '@kabari/shared/routing/router';
import { routePaths, type RouteName } from '@kabari/shared/routing/route-paths';
import type { RouteDialogName } from './route-dialogs';

/**
 * Public routes are for visitors (a signed-in user is sent to the dashboard); protected ones need a
 * token. 'anyone': the recipient's pages, where a consent link must work for whoever received it, signed in or
 * not (see docs/product-decisions.md). 'console': the operator's console, whose own sign-in (a separate account
 * and cookie) its remote checks; a subscriber's session neither opens nor closes it.
 */
export type RouteAccess = 'public' | 'protected' | 'anyone' | 'console';

export interface RouteLocation {
  pathname: string;
  search: string;
}

export interface RouteSpec {
  access: RouteAccess;
  /** The remote page shown here. None yet: the error page, until the issue that builds the page. */
  page?: { remote: RemoteName; exposed: string };
  /** Modal routes: the dialog opened over the page. */
  dialog?: RouteDialogName;
  /** A validity check: when it fails, the error page says 'Page Not Found: {path}'. */
  isValid?: (location: RouteLocation) => boolean;
  /** Keep the scroll position when arriving here (instead of scrolling to the top). */
  keepScroll?: boolean;
  /**
   * A page that works as its prerendered HTML until used: arriving on it, the app starts on the visitor's first
   * touch, key, focus, mouse move or wheel, not on load (webpack/start-after-first-paint.browser.js).
   */
  startsOnFirstUse?: boolean;
  /** The page routes the paths below its own itself (the console's `/operator/reports/:id`). */
  subpaths?: boolean;
  /** The page brings its own layout: no site header, footer or Log in around it. */
  ownLayout?: boolean;
}

export interface AppRoute extends RouteSpec {
  name: RouteName;
  /** The English path; its Indonesian twin is the same under /id. */
  path: string;
}

const dashboardPage = { remote: 'dashboard', exposed: 'dashboard-page' } as const;

/** A public page of the search remote: prerendered, and its app started on the visitor's first use. */
const publicPage = (exposed: string): RouteSpec => ({
  access: 'public',
  page: { remote: 'search', exposed },
  startsOnFirstUse: true,
});

/** The dashboard stays where it is while one of its dialogs opens over it. */
const dashboardDialog = (dialog: RouteDialogName): RouteSpec => ({
  access: 'protected',
  page: dashboardPage,
  dialog,
  keepScroll: true,
});

/**
 * Every route (a Record, so a route added to route-paths.ts must be given its place here).
 * The host never imports a remote's source: only these names.
 */
const routeTable: Record<RouteName, RouteSpec> = {
  // The public pages are read first, often by a visitor from a search result on a slow phone: the app's start-up
  // would hold the page for seconds. Their forms wait for the app (their buttons stay disabled) and keep what was
  // typed meanwhile.
  home: publicPage('home-page'),
  ok: publicPage('ok-page'),
  notFound: publicPage('not-found-page'),
  aboutUs: publicPage('about-us-page'),
  contactUs: publicPage('contact-us-page'),
  privacyPolicy: publicPage('privacy-policy-page'),
  termsOfUse: publicPage('terms-of-use-page'),
  faqs: publicPage('faqs-page'),
  trackingPhoneNumber: publicPage('tracking-phone-number-page'),
  unsubscribeAndRefund: publicPage('unsubscribe-and-refund-page'),
  cookiesPolicy: publicPage('cookies-policy-page'),
  intellectualProperty: publicPage('intellectual-property-page'),
  register: { access: 'public', page: { remote: 'billing', exposed: 'register-result-page' } },
  enterLink: { access: 'anyone', page: { remote: 'share', exposed: 'enter-link-page' } },
  locationFailed: { access: 'anyone', page: { remote: 'share', exposed: 'location-failed-page' } },
  share: { access: 'anyone', page: { remote: 'share', exposed: 'share-page' } },
  myRequests: { access: 'anyone', page: { remote: 'share', exposed: 'my-requests-page' } },
  dashboard: { access: 'protected', page: dashboardPage },
  successModal: dashboardDialog('successModal'),
  mySubscription: dashboardDialog('mySubscription'),
  subscriptionExpiredModal: dashboardDialog('subscriptionExpiredModal'),
  cancelMySubscriptionModal: dashboardDialog('cancelMySubscriptionModal'),
  // Loaded only here: no other route fetches anything of the operator's remote.
  operator: {
    access: 'console',
    page: { remote: 'operator', exposed: 'operator-console' },
    subpaths: true,
    ownLayout: true,
  },
};

export const appRoutes: AppRoute[] = (Object.keys(routeTable) as RouteName[]).map((name) => ({
  name,
  path: routePaths[name],
  ...routeTable[name],
}));

/** A path and its /id twin. React Router matches either with or without a trailing slash. */
export function twinPaths(path: string): [string, string] {
  return [path, path === '/' ? '/id' : `/id${path}`];
}

/** The patterns a route answers: its path and /id twin, each with every path below it when the page routes those. */
export function routePatterns(route: AppRoute): string[] {
  return twinPaths(route.path).map((path) => (route.subpaths ? `${path}/*` : path));
}

/** The route a URL path shows, if any (the catch-all otherwise). */
export function findAppRoute(pathname: string): AppRoute | undefined {
  return appRoutes.find((route) => routePatterns(route).some((path) => matchPath({ path, end: true }, pathname)));
}
