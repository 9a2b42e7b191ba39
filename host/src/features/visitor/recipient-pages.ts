import { stripLocale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';

const recipientPages: string[] = [routePaths.enterLink, routePaths.locationFailed, routePaths.share];

/**
 * A page a location request's recipient opens from the link (either language, with or without a trailing slash).
 * Nothing about the visitor is recorded there before they consent: no visitor id, no device report.
 */
export function isRecipientPage(pathname: string): boolean {
  return recipientPages.includes(stripLocale(pathname).replace(/\/+$/, ''));
}
