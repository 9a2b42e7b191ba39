import type { Database, DatabaseExecutor } from '../db/open-database';
import { keyedHash } from '../lib/keyed-hash';
import { deleteLegacySlot, legacyTargetSlots, mergeSlot, sendLimitRow, takeSlotIfPassed } from './send-limit-rows';

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
  if (await takeSlotIfPassed(db, key, SEND_WINDOW_SECONDS)) return { allowed: true };
  const next = await nextAllowedAt(db, key);
  // The row exists (the upsert found it): next is set, unless it was deleted in between, which allows a retry.
  return next ? { allowed: false, nextAllowedAt: next } : { allowed: false, nextAllowedAt: new Date() };
}

/** When the next send for `key` is possible, or null when it is possible now. */
export async function nextAllowedAt(db: DatabaseExecutor, key: string): Promise<Date | null> {
  const row = await sendLimitRow(db, key);
  if (!row) return null;
  const next = nextAfter(row.lastSentAt);
  return next.getTime() > Date.now() ? next : null;
}

/**
 * Moves the 3-hour slots stored under a raw number or address to their keyed hash, and deletes the ones whose
 * window has passed. Runs when the server starts (a migration cannot: it does not hold the secret), so the 3-hour
 * limit holds across the upgrade and no raw number or address stays in the table. Idempotent: instances starting
 * together move the same rows to the same keys.
 */
export async function rehashLegacyTargetKeys(db: Database, secret: Buffer): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await legacyTargetSlots(tx);
    for (const row of rows) {
      const target = row.key.slice('target:'.length);
      if (nextAfter(row.lastSentAt).getTime() > Date.now()) {
        await mergeSlot(tx, targetLimitKey(secret, target), row.lastSentAt);
      }
      await deleteLegacySlot(tx, row.key);
    }
    return rows.length;
  });
}
