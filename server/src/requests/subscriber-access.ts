import { sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { refuseSuspendedSender } from '../safety-desk/suspension-checks';
import { sayRequests } from './request-messages';

/**
 * Whether the user may send requests: a subscription that is in its trial, active, or cancelled but still paid
 * for (cancelling keeps access until valid_until), and not past valid_until.
 */
export async function hasLiveSubscription(db: DatabaseExecutor, userId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from subscriptions
        where user_id = ${userId} and status in ('trial', 'active', 'cancelled') and valid_until > now()`,
  );
  return rows.length > 0;
}

/**
 * Only subscribers whose subscription runs, and whose account is not suspended, may send: 403, which the client
 * shows as the expired state (the suspension's message says why).
 */
export async function requireSubscriber(db: DatabaseExecutor, userId: string): Promise<void> {
  await refuseSuspendedSender(db, userId);
  if (!(await hasLiveSubscription(db, userId))) throw new HttpError(403, sayRequests('subscriptionNeeded'));
}
