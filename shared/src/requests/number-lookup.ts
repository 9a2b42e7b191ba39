import { apiGet } from '../api/api-client';
import type { NumberLookup } from './location-request';

/** GET /api/v1/numbers/lookup with an E.164 number: the numbering-plan facts the server knows. */
export function lookUpNumber(e164: string): Promise<NumberLookup> {
  return apiGet<NumberLookup>('/api/v1/numbers/lookup', { params: { number: e164 } });
}
