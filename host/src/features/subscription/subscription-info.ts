import { isApiError } from '@kabari/shared/api/api-error';
import { apiGet } from '@kabari/shared/api/api-client';

/** The subscriber's subscription; only expiredStatus is read here (1: expired). */
export interface SubscriptionInfo {
  expiredStatus?: number;
  [field: string]: unknown;
}

export const subscriptionInfoPath = '/api/v1/personnal/subscribe/info';

/**
 * GET /api/v1/personnal/subscribe/info. A 404 means the account has no subscription (the server's "no
 * subscription" answer): nothing has expired, so no toast, no redirect, null. A 401 or 403 follows the usual rules.
 */
export async function fetchSubscriptionInfo(): Promise<SubscriptionInfo | null> {
  try {
    return await apiGet<SubscriptionInfo>(subscriptionInfoPath, { handledStatuses: [404] });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export function isExpired(info: SubscriptionInfo | null): boolean {
  return info?.expiredStatus === 1;
}
