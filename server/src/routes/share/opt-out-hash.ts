import { createHash } from 'node:crypto';

/**
 * The opt_outs key: sha256 (hex) of the normalised target as location_requests stores it (E.164 for a number,
 * lower-cased for an email), so the list never holds a number or an address itself. The request routes check
 * new requests against the same hash.
 */
export function optOutHash(target: string): string {
  return createHash('sha256').update(target.trim().toLowerCase()).digest('hex');
}
