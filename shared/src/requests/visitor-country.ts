import type { Locale } from '../i18n/locale';
import { fallbackCountry, indonesianPagesCountry, isKnownCountry } from '@kabari/shared/requests/country-options';

let ipCountry: Promise<string | null> | null = null;

/**
 * GET /api/v1/locate/country: the country of the caller's IP address, asked once per page load. The API
 * client (axios) loads only now; a failure is quiet, and the selector keeps its default.
 */
export function fetchIpCountry(): Promise<string | null> {
  ipCountry ??= import('@kabari/shared/api/api-client')
    .then(({ apiGet }) =>
      apiGet('/api/v1/locate/country', {
        toastErrors: false,
        handledStatuses: [429],
      }),
    )
    .then((data) => (isKnownCountry(data?.countryCode) ? data.countryCode : null))
    .catch(() => null);
  return ipCountry;
}

/** The default before the IP is known: Indonesia under /id, otherwise the United States. */
export function initialCountry(locale: Locale): string {
  return locale === 'id' ? indonesianPagesCountry : fallbackCountry;
}

/** Whether the IP's country should replace the initial one: never under /id (Indonesia stays). */
export function usesIpCountry(locale: Locale): boolean {
  return locale !== 'id';
}

/** For tests: forget the cached answer. */
export function forgetIpCountry(): void {
  ipCountry = null;
}
