import { localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { findAppRoute } from './route-table';
import { homePath } from './route-targets';

/** The home page's query parameter that names where a visitor sent to sign in was going. */
const returnToParam = 'next';

/** Any origin will do: it only tells a path of this app from an address elsewhere. */
const ownOrigin = 'https://kabari.invalid';

/**
 * The page to go to after signing in, when `raw` is one of this app's protected pages (with its query), or null.
 * Anything else is refused, since the value comes from the address and anyone can write an address: another site
 * (`//host`, `https:`, a backslash a browser reads as a slash), a page that is not in the route table, a public page.
 * Returned as path and query only: no origin, no fragment.
 */
export function safeReturnTo(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length > 2000) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, ownOrigin);
  } catch {
    return null;
  }
  if (url.origin !== ownOrigin || url.pathname.startsWith('//')) return null;
  if (findAppRoute(url.pathname)?.access !== 'protected') return null;
  return `${url.pathname}${url.search}`;
}

/** Where to go after signing in, from the page's query string; null when it names no page of ours to go to. */
export function returnToOf(search: string): string | null {
  return safeReturnTo(new URLSearchParams(search).get(returnToParam));
}

/**
 * Where a signed-out visitor is sent to sign in: the home page in `locale`, naming the protected page they were
 * going to (the dashboard alone needs no naming: signing in leads there).
 */
export function signInPath(locale: Locale, returnTo: string | null): string {
  const home = homePath(locale);
  const dashboard = localizePath(routePaths.dashboard, locale);
  if (!returnTo || returnTo.replace(/\/+$/, '') === dashboard) return home;
  return `${home}?${new URLSearchParams({ [returnToParam]: returnTo }).toString()}`;
}
