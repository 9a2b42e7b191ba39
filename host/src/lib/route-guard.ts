import { localeFromPath } from '@kabari/shared/i18n/locale';
import type { RouteAccess } from './route-table';
import { returnToOf, safeReturnTo, signInPath } from './return-to';
import { dashboardPath } from './route-targets';

/**
 * A signed-in user (a token is present) on a public route goes to the dashboard, or to the page the address names
 * to return to (the home page a signed-out visitor was sent to, signed in meanwhile); an anonymous visitor on a
 * protected route goes to the home page to sign in, the address remembering that page, both in the language of the
 * URL. The recipient's pages ('anyone') and the operator's console ('console', which checks its own sign-in) let
 * everyone through.
 */
export function guardRedirect(access: RouteAccess, signedIn: boolean, pathname: string, search = ''): string | null {
  const locale = localeFromPath(pathname);
  if (access === 'public' && signedIn) return returnToOf(search) ?? dashboardPath(locale);
  if (access === 'protected' && !signedIn) return signInPath(locale, safeReturnTo(`${pathname}${search}`));
  return null;
}
