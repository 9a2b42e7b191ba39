import type { DatabaseExecutor } from '../db/open-database';
import { keyedHash } from '../lib/keyed-hash';
import {
  countFailureUnlessWaiting,
  countInWindow,
  countInWindows,
  deleteThrottle,
  secondsBlocked,
  throttleRow,
  uncountFailure,
} from './throttle-rows';

/**
 * The key of a counter about an address or an email: `<kind>:<keyed hash>`. The kind stays readable (what a row
 * counts); the address or email never appears in the table, and without the server's secret a copy of it cannot
 * be tested against a guessed one.
 */
export function throttleKey(secret: Buffer, kind: string, value: string): string {
  return `${kind}:${keyedHash(secret, `throttle:${kind}`, value)}`;
}

export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

export type ThrottleResult = { limited: false } | { limited: true; retryAfterSeconds: number };

/** The retention job deletes a counter a day after its window began (SPENT_COUNTER_HOURS): no window is longer. */
export const LONGEST_WINDOW_SECONDS = 24 * 60 * 60;

function retryAfter(windowStartedAt: Date, windowSeconds: number): number {
  return Math.max(1, Math.ceil((windowStartedAt.getTime() + windowSeconds * 1000 - Date.now()) / 1000));
}

/**
 * Counts one attempt for `key` in a fixed window, in one atomic statement in the database, so the limit holds
 * across instances and concurrent requests. Limited once the count goes over the rule's limit.
 */
export async function countAttempt(db: DatabaseExecutor, key: string, rule: ThrottleRule): Promise<ThrottleResult> {
  if (rule.windowSeconds > LONGEST_WINDOW_SECONDS) {
    throw new Error(`A throttle window longer than a day (${rule.windowSeconds} s) would outlive its counter`);
  }
  const row = await countInWindow(db, key, rule.windowSeconds);
  if (!row || Number(row.count) <= rule.limit) return { limited: false };
  return { limited: true, retryAfterSeconds: retryAfter(new Date(row.window_started_at), rule.windowSeconds) };
}

/** A key counted with others in one statement, and its rule. */
export interface CountedKey {
  key: string;
  rule: ThrottleRule;
}

/** The window the keys counted together share; throws for keys that cannot be counted together. */
function sharedWindow(counted: CountedKey[]): number {
  const windowSeconds = counted[0]?.rule.windowSeconds ?? 0;
  if (counted.some(({ rule }) => rule.windowSeconds !== windowSeconds)) {
    throw new Error('Counters counted together share one window');
  }
  if (windowSeconds > LONGEST_WINDOW_SECONDS) {
    throw new Error(`A throttle window longer than a day (${windowSeconds} s) would outlive its counter`);
  }
  if (new Set(counted.map(({ key }) => key)).size !== counted.length) {
    throw new Error('A key counted twice in one statement');
  }
  return windowSeconds;
}

/**
 * countAttempt for several keys whose rules share one window, in one statement (so one round trip and one commit
 * for all of them, and each still atomic across instances). The results in the order of `counted`. Every key is
 * counted, even when an earlier one is over its limit.
 */
export async function countAttempts(db: DatabaseExecutor, counted: CountedKey[]): Promise<ThrottleResult[]> {
  const rows = await countInWindows(
    db,
    counted.map(({ key }) => key),
    sharedWindow(counted),
  );
  return judgeCounts(counted, rows);
}

/**
 * What countAttempts counts, for a statement that counts its own use with its work (as a `with` query written by
 * countingInWindows, so that the counting and the work take one round trip and one commit): each key with its limit,
 * in order, and their one window. The statement's rows are each key's count, read with judgeCounts.
 */
export function countingAttempts(counted: CountedKey[]): {
  limits: { key: string; limit: number }[];
  windowSeconds: number;
} {
  return { limits: counted.map(({ key, rule }) => ({ key, limit: rule.limit })), windowSeconds: sharedWindow(counted) };
}

/** What each key's count says, in the order of `counted`: limited once over its rule's limit. */
export function judgeCounts(
  counted: CountedKey[],
  rows: Map<string, { count: number; window_started_at: string | Date }>,
): ThrottleResult[] {
  return counted.map(({ key, rule }) => {
    const row = rows.get(key);
    if (!row || Number(row.count) <= rule.limit) return { limited: false };
    return { limited: true, retryAfterSeconds: retryAfter(new Date(row.window_started_at), rule.windowSeconds) };
  });
}

/** Whether `key` is already at its limit, without counting anything. */
export async function isLimited(db: DatabaseExecutor, key: string, rule: ThrottleRule): Promise<ThrottleResult> {
  const row = await throttleRow(db, key);
  if (!row) return { limited: false };
  const windowEnds = row.windowStartedAt.getTime() + rule.windowSeconds * 1000;
  if (windowEnds <= Date.now() || row.count < rule.limit) return { limited: false };
  return { limited: true, retryAfterSeconds: retryAfter(row.windowStartedAt, rule.windowSeconds) };
}

export async function clearAttempts(db: DatabaseExecutor, key: string): Promise<void> {
  await deleteThrottle(db, key);
}

/**
 * Growing delays instead of a lock: `freeFailures` attempts go through at once, then each further one makes the
 * next wait — `firstDelaySeconds`, doubling, at most `maxDelaySeconds`. Failures are forgotten after
 * `forgetAfterSeconds` without an attempt.
 */
export interface BackoffRule {
  freeFailures: number;
  firstDelaySeconds: number;
  maxDelaySeconds: number;
  forgetAfterSeconds: number;
}

/**
 * Claims an attempt for `key`, counted as a failure until the caller clears the key on success. Refused (and not
 * counted) while the key waits; otherwise the count goes up and the next wait is set. One atomic statement, so
 * attempts that come at once are counted one by one, across instances: a burst gets no more tries than a queue.
 * `window_started_at` holds the last counted attempt.
 */
export async function claimAttempt(db: DatabaseExecutor, key: string, rule: BackoffRule): Promise<ThrottleResult> {
  if (await countFailureUnlessWaiting(db, key, rule)) return { limited: false };
  return waitingFor(db, key);
}

/** Whether `key` waits now (and how long), without counting anything. */
export async function waitingFor(db: DatabaseExecutor, key: string): Promise<ThrottleResult> {
  const seconds = await secondsBlocked(db, key);
  if (seconds === null) return { limited: false };
  return { limited: true, retryAfterSeconds: Math.max(1, seconds) };
}

/**
 * Takes back an attempt `claimAttempt` counted when nothing was tried after all. The wait before it had passed
 * (else the claim would have been refused), so none is left.
 */
export async function giveBackAttempt(db: DatabaseExecutor, key: string): Promise<void> {
  await uncountFailure(db, key);
}
