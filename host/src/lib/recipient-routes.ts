import { stripLocale } from '@kabari/shared/i18n/locale';
import { routePaths } from '@kabari/shared/routing/route-paths';

/**
 * The recipient's pages (either language) and the module of remote-share each shows. They are served with a light
 * entry of their own (recipient.html): the page alone is hydrated, the layout around it stays plain HTML.
 */
export const recipientRoutes: Record<string, string> = {
  [routePaths.enterLink]: 'enter-link-page',
  [routePaths.locationFailed]: 'location-failed-page',
  [routePaths.share]: 'share-page',
  [routePaths.myRequests]: 'my-requests-page',
};

/** The exposed module of remote-share for a path, or null when the path is not a recipient's page. */
export function recipientPageOf(pathname: string): string | null {
  return recipientRoutes[stripLocale(pathname).replace(/(.)\/+$/, '$1')] ?? null;
}
