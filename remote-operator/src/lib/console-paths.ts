import { localeFromPath, localizePath, type Locale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';
import { useLocation } from '@kabari/shared/routing/router';

/** The console's pages below /operator (and /id/operator), as its own routes name them. */
export const consolePages = {
  reports: '',
  report: (id: string) => `/reports/${encodeURIComponent(id)}`,
  signIn: '/sign-in',
  enrol: '/enrol',
  refunds: '/refunds',
  contactMessages: '/contact-messages',
  failedMessages: '/failed-messages',
  smsSpend: '/sms-spend',
  auditLog: '/audit-log',
} as const;

/** A console page's address in a language: `/reports/7` → `/id/operator/reports/7`. */
export function consolePath(page: string, locale: Locale): string {
  return localizePath(`${routePaths.operator}${page}`, locale);
}

/** The language of the page shown, and the address of a console page in it. */
export function useConsoleLocale(): { locale: Locale; pathTo: (page: string) => string } {
  const locale = localeFromPath(useLocation().pathname);
  return { locale, pathTo: (page) => consolePath(page, locale) };
}
