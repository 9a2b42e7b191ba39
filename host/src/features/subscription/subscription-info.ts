import { isApiError } from '@kabari/shared/api/api-error';
import { apiGet } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';

export const subscriptionInfoPath = '/api/v1/personnal/subscribe/info';

/** What the host reads of the subscriber's subscription: expiredStatus (1: expired). */
export type SubscriptionInfo = Pick<ApiData<typeof subscriptionInfoPath, 'get'>, 'expiredStatus'>;

/**
 * GET /api/v1/personnal/subscribe/info. A 404 means the account has no subscription (the server's "no
 * subscription" answer): nothing has expired, so no toast, no redirect, null. A 401 or 403 follows the usual rules.
 */
export async function fetchSubscriptionInfo(): Promise<SubscriptionInfo | null> {
  try {
    return await apiGet(subscriptionInfoPath, { handledStatuses: [404] });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export function isExpired(info: SubscriptionInfo | null): boolean {
  return info?.expiredStatus === 1;
}
