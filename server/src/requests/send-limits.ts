import { and, eq, like, or, sql } from 'drizzle-orm';
import { queryRows, type Database, type DatabaseExecutor } from '../db/open-database';
import { sendLimits } from '../db/schema/location-requests';
import { keyedHash } from '../lib/keyed-hash';

/** One SMS or email to a number or address every 3 hours (whoever sends it), one new link every 3 hours. */
export const SEND_WINDOW_SECONDS = 3 * 60 * 60;

/**
 * The 3-hour slot of a number or email address. Keyed by a keyed hash, never the number or address itself: a copy
 * of the table tells nobody who was messaged, and a guessed number cannot be tested against it without the secret.
 */
export const targetLimitKey = (secret: Buffer, target: string) =>
  `target:${keyedHash(secret, 'send-limit-target', target)}`;
export const linkLimitKey = (userId: string) => `link:${userId}`;

export type LimitClaim = { allowed: true } | { allowed: false; nextAllowedAt: Date };

function nextAfter(lastSentAt: Date | string): Date {
  return new Date(new Date(lastSentAt).getTime() + SEND_WINDOW_SECONDS * 1000);
}

/**
 * Takes the send slot for `key` if its window has passed: one upsert that only writes when the last send is at
 * least the window old. Under concurrent calls PostgreSQL serialises the upserts on the row, and each re-checks
 * the condition against the committed row, so exactly one wins. Call it inside the transaction that writes the
 * request and its message: if that transaction rolls back, so does the claim.
 */
export async function claimSendSlot(db: DatabaseExecutor, key: string): Promise<LimitClaim> {
  const won = await queryRows<{ last_sent_at: string | Date }>(
    db,
    sql`insert into send_limits (key, last_sent_at) values (${key}, now())
        on conflict (key) do update set last_sent_at = excluded.last_sent_at
        where send_limits.last_sent_at <= now() - make_interval(secs => ${SEND_WINDOW_SECONDS})
        returning last_sent_at`,
  );
  if (won.length > 0) return { allowed: true };
  const next = await nextAllowedAt(db, key);
  // The row exists (the upsert found it): next is set, unless it was deleted in between, which allows a retry.
  return next ? { allowed: false, nextAllowedAt: next } : { allowed: false, nextAllowedAt: new Date() };
}

/** When the next send for `key` is possible, or null when it is possible now. */
export async function nextAllowedAt(db: DatabaseExecutor, key: string): Promise<Date | null> {
  const [row] = await db.select().from(sendLimits).where(eq(sendLimits.key, key));
  if (!row) return null;
  const next = nextAfter(row.lastSentAt);
  return next.getTime() > Date.now() ? next : null;
}

// Slots written before the keys were hashed: `target:` and the E.164 number (+…) or the email address (…@…).
const legacyTargetKey = or(like(sendLimits.key, 'target:+%'), like(sendLimits.key, 'target:%@%'));

/**
 * Moves the 3-hour slots stored under a raw number or address to their keyed hash, and deletes the ones whose
 * window has passed. Runs when the server starts (a migration cannot: it does not hold the secret), so the 3-hour
 * limit holds across the upgrade and no raw number or address stays in the table. Idempotent: instances starting
 * together move the same rows to the same keys.
 */
export async function rehashLegacyTargetKeys(db: Database, secret: Buffer): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(sendLimits).where(legacyTargetKey);
    for (const row of rows) {
      const target = row.key.slice('target:'.length);
      if (nextAfter(row.lastSentAt).getTime() > Date.now()) {
        await queryRows(
          tx,
          sql`insert into send_limits (key, last_sent_at) values (${targetLimitKey(secret, target)}, ${row.lastSentAt.toISOString()}::timestamptz)
              on conflict (key) do update
              set last_sent_at = greatest(send_limits.last_sent_at, excluded.last_sent_at)`,
        );
      }
      await tx.delete(sendLimits).where(and(eq(sendLimits.key, row.key), legacyTargetKey));
    }
    return rows.length;
  });
}
