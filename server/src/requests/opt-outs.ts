import { createHash } from 'node:crypto';
import type { RequestChannel } from '../db/column-values';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { keyedHash } from '../lib/keyed-hash';
import {
  deleteOptOut,
  insertOptOut,
  optOutsUnder,
  optOutUnder,
  requestsWithoutTargetKey,
  setRequestTargetKey,
  type OptOutRow,
} from './opt-out-rows';

const normalised = (target: string) => target.trim().toLowerCase();

/**
 * The opt_outs key of a number (E.164) or an email address (lower-cased), as location_requests stores them: an
 * HMAC keyed with the server's secret. A plain hash of a phone number is reversed by trying every number, in
 * minutes; this one cannot be without the secret.
 */
export function optOutKey(secret: Buffer, target: string): string {
  return keyedHash(secret, 'opt-out', normalised(target));
}

/**
 * How opt-outs were keyed before: sha256 (hex) of the normalised target. Only looked up, never written for a new
 * target: an opt-out stored that way must keep working, and is re-keyed when its target is met again.
 */
export function legacyOptOutHash(target: string): string {
  return createHash('sha256').update(normalised(target)).digest('hex');
}

/** Moves an opt-out stored under the old hash to the keyed one; the new row is written first, so none is lost. */
async function rekey(db: DatabaseExecutor, legacy: OptOutRow, key: string): Promise<void> {
  await insertOptOut(db, { targetHash: key, channel: legacy.channel, createdAt: legacy.createdAt });
  await deleteOptOut(db, legacy.targetHash);
}

/** Whether the number or email address opted out of every request (under either key; an old one is re-keyed). */
export async function isOptedOut(db: DatabaseExecutor, secret: Buffer, target: string): Promise<boolean> {
  const key = optOutKey(secret, target);
  const legacy = legacyOptOutHash(target);
  const rows = await optOutsUnder(db, [key, legacy]);
  const old = rows.find((row) => row.targetHash === legacy);
  if (old) await rekey(db, old, key);
  return rows.length > 0;
}

/** Records an opt-out under the key given (a request's keyed target hash, or what its tombstone kept). */
export async function recordOptOut(db: DatabaseExecutor, targetHash: string, channel: RequestChannel): Promise<void> {
  await insertOptOut(db, { targetHash, channel });
}

const REKEY_BATCH = 500;

/**
 * Gives requests stored before the keyed hash their key, and moves the opt-outs of their targets to it: the old
 * plain hashes then go wherever the number or address is still known. Opt-outs whose target nothing holds any more
 * keep the old hash (only its owner can bring it up again) and are re-keyed if it comes back. Batched and
 * idempotent: several instances may run it at once.
 */
export async function rekeyOptOuts(db: Database, secret: Buffer): Promise<{ requests: number; optOuts: number }> {
  const done = { requests: 0, optOuts: 0 };
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await requestsWithoutTargetKey(tx, REKEY_BATCH);
      for (const row of rows) {
        const key = optOutKey(secret, row.target!);
        await setRequestTargetKey(tx, row.id, key);
        const legacy = await optOutUnder(tx, legacyOptOutHash(row.target!));
        if (legacy) {
          await rekey(tx, legacy, key);
          done.optOuts += 1;
        }
      }
      return rows.length;
    });
    done.requests += batch;
    if (batch < REKEY_BATCH) return done;
  }
}
