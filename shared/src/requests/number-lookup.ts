import { apiGet } from '@kabari/shared/api/api-client';
import type { Locale } from '../i18n/locale';
import type { NumberLookup } from '@kabari/shared/requests/location-request';

/** GET /api/v1/numbers/lookup with an E.164 number: the numbering-plan facts the server knows, named in the locale. */
export function lookUpNumber(e164: string, locale: Locale): Promise<NumberLookup> {
  return apiGet('/api/v1/numbers/lookup', { params: { number: e164, locale } });
}
