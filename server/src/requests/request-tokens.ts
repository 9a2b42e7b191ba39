import { hash, randomBytes } from 'node:crypto';
import type { Database } from '../db/open-database';
import { openText, sealingKeyFor, sealText } from '../lib/sealed-text';
import { lockLegacyTokens, replaceLegacyToken } from './request-rows';

/**
 * A request's token is the only key to its consent link. The database holds its sha256 for the lookup (192 random
 * bits: a plain hash cannot be searched back to a token) and, for a trackable link only, a copy sealed with a key
 * derived from the server's secret, opened only to show the link to its own requester. An SMS or email token is
 * needed by nobody but its recipient: nothing but the hash is kept.
 */

/** 24 random bytes: 192 bits, 32 base64url characters (short enough for an SMS, far beyond guessing). */
export function newRequestToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The lookup key of a token: its sha256 in hex, as the tombstones of deleted requests hold it too. Node's one-shot
 * `hash`, not a Hash object: a position hashes its link's token a few times, and the object cost several times more.
 */
export function requestTokenHash(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The AES-256 key that seals link tokens: HKDF-SHA256 of the server's secret, for this purpose only. */
export const linkTokenKey = sealingKeyFor('kabari location-request link token v1');

/** The token sealed for the request it belongs to (lib/sealed-text.ts: its id is the associated data). */
export function sealLinkToken(key: Buffer, requestId: string, token: string): string {
  return sealText(key, requestId, token);
}

/** The token, or null when it cannot be opened (another secret, another row, altered). */
export function openLinkToken(key: Buffer, requestId: string, sealed: string): string | null {
  return openText(key, requestId, sealed);
}

const LEGACY_BATCH = 500;

/**
 * Seals the plain tokens a version before hashed tokens left on trackable links (the migration that added the hash
 * already cleared the others) and clears them: a migration cannot, it does not hold the secret. Runs at start, in
 * batches whose rows are locked and skipped by anyone else (`for update skip locked`): instances starting together
 * share the rows, none waits for another, and each row is sealed exactly once. Until its turn a row still opens
 * through its plain token, so a requester never misses a link's URL meanwhile. Resolves with how many were sealed.
 */
export async function sealLegacyLinkTokens(db: Database, secret: Buffer): Promise<number> {
  const key = linkTokenKey(secret);
  let total = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const rows = await lockLegacyTokens(tx, LEGACY_BATCH);
      for (const row of rows) {
        const sealed = row.channel === 'link' ? sealLinkToken(key, row.id, row.legacy_token) : null;
        await replaceLegacyToken(tx, row.id, sealed);
      }
      return rows.length;
    });
    total += done;
    if (done < LEGACY_BATCH) return total;
  }
}
