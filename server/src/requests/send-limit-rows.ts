import { and, eq, like, or, sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { sendLimits } from '../db/schema/location-requests';

// The 3-hour send slots, as rows: every statement the send-limit rules (send-limits.ts) make.

type SendLimitRow = typeof sendLimits.$inferSelect;

/**
 * Takes `key`'s slot if its last send is at least `windowSeconds` old (one upsert: concurrent ones are serialised on
 * the row, each re-checking the committed row, so exactly one wins). Whether it was taken.
 */
export async function takeSlotIfPassed(db: DatabaseExecutor, key: string, windowSeconds: number): Promise<boolean> {
  const won = await queryRows<{ last_sent_at: string | Date }>(
    db,
    sql`insert into send_limits (key, last_sent_at) values (${key}, now())
        on conflict (key) do update set last_sent_at = excluded.last_sent_at
        where send_limits.last_sent_at <= now() - make_interval(secs => ${windowSeconds})
        returning last_sent_at`,
  );
  return won.length > 0;
}

export async function sendLimitRow(db: DatabaseExecutor, key: string): Promise<SendLimitRow | undefined> {
  const [row] = await db.select().from(sendLimits).where(eq(sendLimits.key, key));
  return row;
}

// Slots written before the keys were hashed: `target:` and the E.164 number (+…) or the email address (…@…).
const legacyTargetKey = or(like(sendLimits.key, 'target:+%'), like(sendLimits.key, 'target:%@%'));

/** The slots still stored under a raw number or address. */
export async function legacyTargetSlots(db: DatabaseExecutor): Promise<SendLimitRow[]> {
  return db.select().from(sendLimits).where(legacyTargetKey);
}

/** Stores a slot's last send under `key`, keeping the later one when the key has a slot already. */
export async function mergeSlot(db: DatabaseExecutor, key: string, lastSentAt: Date): Promise<void> {
  await queryRows(
    db,
    sql`insert into send_limits (key, last_sent_at) values (${key}, ${lastSentAt.toISOString()}::timestamptz)
        on conflict (key) do update
        set last_sent_at = greatest(send_limits.last_sent_at, excluded.last_sent_at)`,
  );
}

/** Deletes a slot stored under a raw number or address. */
export async function deleteLegacySlot(db: DatabaseExecutor, key: string): Promise<void> {
  await db.delete(sendLimits).where(and(eq(sendLimits.key, key), legacyTargetKey));
}
