import type { DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { refuseSuspendedSender } from '../safety-desk/suspension-checks';
import { sayRequests } from './request-messages';
import { liveSubscriptionExists } from './subscriber-rows';

/**
 * Whether the user may send requests: a subscription that is in its trial, active, or cancelled but still paid
 * for (cancelling keeps access until valid_until), and not past valid_until.
 */
export async function hasLiveSubscription(db: DatabaseExecutor, userId: string): Promise<boolean> {
  return liveSubscriptionExists(db, userId);
}

/**
 * Only subscribers whose subscription runs, and whose account is not suspended, may send: 403. The subscription's
 * refusal says so in its data (`subscription-needed`), and the app shows its expired state for that one only; a
 * suspension's refusal is said as it is.
 */
export async function requireSubscriber(db: DatabaseExecutor, userId: string): Promise<void> {
  await refuseSuspendedSender(db, userId);
  if (!(await hasLiveSubscription(db, userId))) {
    throw new HttpError(403, sayRequests('subscriptionNeeded'), {}, { refusal: 'subscription-needed' });
  }
}
