import { localeFromPath, localizePath, stripLocale, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';

/** Where a signed-in user lands, in the given language: /dashboard/ or /id/dashboard/. */
export function dashboardPath(locale: Locale): string {
  return localizePath(`${routePaths.dashboard}/`, locale);
}

/** The home page in the given language: / or /id/. */
export function homePath(locale: Locale): string {
  return localizePath(routePaths.home, locale);
}

/** The expired-subscription state: /dashboard/?s=-1&at=10 (or under /id). */
export function expiredStatePath(locale: Locale): string {
  return `${dashboardPath(locale)}?s=-1&at=10`;
}

/** True on the expired-subscription state, with or without a trailing slash, in either language. */
export function isExpiredState(pathname: string, search: string): boolean {
  const path = stripLocale(pathname).replace(/\/+$/, '');
  const params = new URLSearchParams(search);
  return path === routePaths.dashboard && params.get('s') === '-1' && params.get('at') === '10';
}

/** The language of the page the browser shows now. */
export function currentLocale(): Locale {
  return localeFromPath(window.location.pathname);
}
