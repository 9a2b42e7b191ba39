import { apiGet } from '@kabari/shared/api/api-client';
import { isApiError } from '@kabari/shared/api/api-error';
import type { ApiData, ApiQuery } from '@kabari/shared/api/api-types';
import type { LocationRequest } from '@kabari/shared/requests/location-request';

// Messages and links share the server's sending limits, so both features read them here.

/**
 * When the next message to a target (or the next link) is allowed; `refusal` when a send would be refused today
 * for another reason than the 3-hour limit (the number's country, a daily limit), in the server's words.
 */
export type SendLimit = ApiData<'/api/v1/requests/limit', 'get'>;
export type LimitQuery = ApiQuery<'/api/v1/requests/limit', 'get'>;

/** GET /api/v1/requests/limit: when the next message to this target (or the next link) is allowed. */
export function fetchLimit(query: LimitQuery): Promise<SendLimit> {
  return apiGet('/api/v1/requests/limit', { params: query });
}

/** A next-allowed time still ahead (a past one means: may send now). */
export function stillAhead(iso: string | null | undefined, now = Date.now()): iso is string {
  return typeof iso === 'string' && new Date(iso).getTime() > now;
}

export type SendOutcome =
  | { outcome: 'sent'; request: LocationRequest }
  | { outcome: 'limited'; nextAllowedAt: string | null }
  | { outcome: 'refused'; message: string }
  | { outcome: 'optedOut' }
  | { outcome: 'failed'; message: string | null };

/**
 * The refusals this app explains itself (429: the 3-hour limit, 409: opted out); a daily limit (429 with its rule)
 * is told in the server's words; anything else, the server's message.
 */
export function sendOutcomeOf(error: unknown): Exclude<SendOutcome, { outcome: 'sent' }> {
  if (isApiError(error) && error.status === 429) {
    const data = (error.data as { data?: { nextAllowedAt?: unknown; rule?: unknown } } | null)?.data;
    if ((data?.rule === 'account-day' || data?.rule === 'sms-budget') && error.message) {
      return { outcome: 'refused', message: error.message };
    }
    const next = data?.nextAllowedAt;
    return { outcome: 'limited', nextAllowedAt: typeof next === 'string' ? next : null };
  }
  if (isApiError(error) && error.status === 409) return { outcome: 'optedOut' };
  return { outcome: 'failed', message: isApiError(error) && error.status ? error.message : null };
}
