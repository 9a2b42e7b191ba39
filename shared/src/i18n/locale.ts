export const locales = ['en', 'id'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';
export const localeCookieName = 'locale';
export const localeCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

/** Indonesian pages live under /id; everything else is English. */
export function localeFromPath(pathname: string): Locale {
  return pathname === '/id' || pathname.startsWith('/id/') ? 'id' : 'en';
}

/** The path without its /id prefix, always starting with a slash. */
export function stripLocale(pathname: string): string {
  if (pathname === '/id') return '/';
  return pathname.startsWith('/id/') ? pathname.slice(3) : pathname;
}

/** The same page in the given language. */
export function localizePath(pathname: string, locale: Locale): string {
  const base = stripLocale(pathname);
  if (locale === 'en') return base;
  return base === '/' ? '/id/' : `/id${base}`;
}

export function writeLocaleCookie(locale: Locale): void {
  document.cookie = `${localeCookieName}=${locale}; path=/; max-age=${localeCookieMaxAgeSeconds}; samesite=lax`;
}
