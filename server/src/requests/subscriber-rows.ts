import { sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';

// The subscription a sender needs, as rows: the query of the subscriber rule (subscriber-access.ts).

/**
 * Whether the user has a subscription in its trial, active, or cancelled but still paid for (cancelling keeps
 * access until valid_until), and not past valid_until.
 */
export async function liveSubscriptionExists(db: DatabaseExecutor, userId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from subscriptions
        where user_id = ${userId} and status in ('trial', 'active', 'cancelled') and valid_until > now()`,
  );
  return rows.length > 0;
}
