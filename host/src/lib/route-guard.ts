import { localeFromPath } from '@kabari/shared/i18n/locale';
import type { RouteAccess } from './route-table';
import { dashboardPath, homePath } from './route-targets';

/**
 * A signed-in user (a token is present) on a public route goes to the dashboard, an
 * anonymous visitor on a protected route to the home page, both in the language of the URL. The
 * recipient's pages ('anyone') and the operator's console ('console', which checks its own sign-in) let everyone
 * through.
 */
export function guardRedirect(access: RouteAccess, signedIn: boolean, pathname: string): string | null {
  const locale = localeFromPath(pathname);
  if (access === 'public' && signedIn) return dashboardPath(locale);
  if (access === 'protected' && !signedIn) return homePath(locale);
  return null;
}
