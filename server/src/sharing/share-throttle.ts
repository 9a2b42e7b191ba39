import {
  countAttempt,
  countAttempts,
  judgeCounts,
  type CountedKey,
  type ThrottleResult,
  type ThrottleRule,
} from '../auth/throttle';
import type { DatabaseExecutor } from '../db/open-database';
import { keyedHash } from '../lib/keyed-hash';
import { sayCommon } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import { requestTokenHash } from '../requests/request-tokens';

// Counted in the database, so they hold across instances. A live share posts a position every few seconds at
// most; a page load makes a handful of calls. People behind one carrier NAT share an address: the IP rule is wide.
const SHARE_PER_IP: ThrottleRule = { limit: 240, windowSeconds: 60 };
const SHARE_PER_TOKEN: ThrottleRule = { limit: 60, windowSeconds: 60 };
const REPORTS_PER_IP: ThrottleRule = { limit: 5, windowSeconds: 60 * 60 };

// The per-token throttle's key: part of the token's hash (requestTokenHash), never the token.
const tokenKey = (tokenHash: string) => tokenHash.slice(0, 32);

/** The throttle of a link's uses: the JSON routes, the page and its plain forms count together. */
export interface ShareThrottle {
  /** One use of a link (a page or a call). */
  link: (ip: string, token: string) => Promise<void>;
  /**
   * The counters of one use of a link, for a statement that counts them with its own work (countingAttempts), in
   * the order `link` counts them. Given the token's hash (requestTokenHash), which such a statement needs too.
   */
  linkCounters: (ip: string, tokenHash: string) => CountedKey[];
  /** What `link` does with its counts, for such a statement's: throws 429 when over either limit. */
  judgeLink: (counters: CountedKey[], rows: Map<string, { count: number; window_started_at: string | Date }>) => void;
  /** One abuse report. */
  report: (ip: string) => Promise<void>;
}

/**
 * The throttle of everything done through a link, by address (kept as an HMAC of it: nothing about the recipient
 * is stored before consent, not even the address in a throttle key) and by token. Throws 429 when over; `scale`
 * multiplies every limit (the local trial's and the tests' setting).
 */
export function shareThrottle(db: DatabaseExecutor, hmacSecret: Buffer, scale: number): ShareThrottle {
  const addressKey = (ip: string) => keyedHash(hmacSecret, 'share-ip', ip);
  const scaled = (rule: ThrottleRule): ThrottleRule => ({ ...rule, limit: rule.limit * scale });
  const throttle = async (key: string, rule: ThrottleRule) =>
    throwWhenLimited(await countAttempt(db, key, scaled(rule)), sayCommon, 'tooManyRequests');
  // The address's key comes first in every statement that counts a link's use, so that two of them never wait on
  // each other's rows in a circle.
  const linkCounters = (ip: string, tokenHash: string): CountedKey[] => [
    { key: `share:ip:${addressKey(ip)}`, rule: scaled(SHARE_PER_IP) },
    { key: `share:token:${tokenKey(tokenHash)}`, rule: scaled(SHARE_PER_TOKEN) },
  ];
  const judge = ([byAddress, byToken]: ThrottleResult[]) => {
    throwWhenLimited(byAddress!, sayCommon, 'tooManyRequests');
    throwWhenLimited(byToken!, sayCommon, 'tooManyRequests');
  };
  return {
    // Both counters in one statement (the same window): a live share's every position passes here.
    link: async (ip, token) => judge(await countAttempts(db, linkCounters(ip, requestTokenHash(token)))),
    linkCounters,
    judgeLink: (counters, rows) => judge(judgeCounts(counters, rows)),
    report: (ip) => throttle(`share:report:ip:${addressKey(ip)}`, REPORTS_PER_IP),
  };
}
