import { sql } from 'drizzle-orm';
import {
  claimAttempt,
  clearAttempts,
  countAttempt,
  isLimited,
  throttleKey,
  waitingFor,
  type ThrottleResult,
} from '../../src/auth/throttle';
import { waitText } from '../../src/lib/messages';
import { describeEachDatabase, openedTestDatabase } from '../support/databases';

describeEachDatabase('throttle counters', (driver) => {
  const database = openedTestDatabase(driver);
  const rule = { limit: 3, windowSeconds: 600 };

  it('allows up to the limit, then limits with the time left in the window', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await countAttempt(database.current.db, 'k:limit', rule)).toEqual({ limited: false });
    }
    const fourth = await countAttempt(database.current.db, 'k:limit', rule);
    expect(fourth.limited).toBe(true);
    if (fourth.limited) {
      expect(fourth.retryAfterSeconds).toBeGreaterThan(590);
      expect(fourth.retryAfterSeconds).toBeLessThanOrEqual(600);
    }
    expect((await isLimited(database.current.db, 'k:limit', rule)).limited).toBe(true);
  });

  it('refuses a window longer than a day: the retention job deletes counters a day after their window began', async () => {
    await expect(
      countAttempt(database.current.db, 'k:too-long', { limit: 3, windowSeconds: 24 * 3600 + 1 }),
    ).rejects.toThrow(/longer than a day/);
    expect(await countAttempt(database.current.db, 'k:a-day', { limit: 3, windowSeconds: 24 * 3600 })).toEqual({
      limited: false,
    });
  });

  it('counts concurrent attempts exactly (one statement, no lost updates)', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => countAttempt(database.current.db, 'k:concurrent', rule)),
    );
    expect(results.filter((result) => !result.limited)).toHaveLength(3);
  });

  it('starts a new window once the old one has passed', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) await countAttempt(database.current.db, 'k:window', rule);
    await database.current.db.execute(
      sql`update auth_throttles set window_started_at = now() - interval '11 minutes' where key = 'k:window'`,
    );
    expect((await isLimited(database.current.db, 'k:window', rule)).limited).toBe(false);
    expect(await countAttempt(database.current.db, 'k:window', rule)).toEqual({ limited: false });
  });

  it('forgets a key on clear', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) await countAttempt(database.current.db, 'k:clear', rule);
    await clearAttempts(database.current.db, 'k:clear');
    expect((await isLimited(database.current.db, 'k:clear', rule)).limited).toBe(false);
  });
});

describeEachDatabase('growing delays after failures', (driver) => {
  const database = openedTestDatabase(driver);
  // Two failures free, then 10 s, 20 s, 40 s, 80 s, 80 s…; forgotten after 10 minutes without one. (Waits of
  // seconds, not one: a busy machine must not outlast them between two statements.)
  const rule = { freeFailures: 2, firstDelaySeconds: 10, maxDelaySeconds: 80, forgetAfterSeconds: 600 };
  /** A wait as the database reports it: whole seconds left, so a second or two may already have gone. */
  function expectWait(result: ThrottleResult, seconds: number): void {
    if (!result.limited) throw new Error(`expected a wait of about ${seconds} s, got none`);
    expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(seconds - 2);
    expect(result.retryAfterSeconds).toBeLessThanOrEqual(seconds);
  }

  /** As if the wait had passed. */
  const waitOut = (key: string) =>
    database.current.db.execute(
      sql`update auth_throttles set blocked_until = now() - interval '1 second' where key = ${key}`,
    );

  it('lets the free failures through, then doubles the wait after each further one, up to the cap', async () => {
    const key = 'b:doubling';
    expect(await claimAttempt(database.current.db, key, rule)).toEqual({ limited: false });
    expect(await claimAttempt(database.current.db, key, rule)).toEqual({ limited: false });
    const waits: number[] = [];
    for (let failure = 3; failure <= 7; failure += 1) {
      expect(await claimAttempt(database.current.db, key, rule)).toEqual({ limited: false });
      const refused = await claimAttempt(database.current.db, key, rule);
      if (!refused.limited) throw new Error(`failure ${failure} set no wait`);
      waits.push(refused.retryAfterSeconds);
      expectWait(await waitingFor(database.current.db, key), refused.retryAfterSeconds);
      await waitOut(key);
    }
    expect(waits.map((wait) => Math.round(wait / 10) * 10)).toEqual([10, 20, 40, 80, 80]);
  });

  it('does not count a refused attempt', async () => {
    const key = 'b:refused';
    for (let attempt = 0; attempt < 3; attempt += 1) await claimAttempt(database.current.db, key, rule);
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await claimAttempt(database.current.db, key, rule)).limited).toBe(true);
    await waitOut(key);
    await claimAttempt(database.current.db, key, rule);
    const refused = await claimAttempt(database.current.db, key, rule);
    expectWait(refused, 20);
  });

  it('lets exactly the allowed attempts through when they come at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => claimAttempt(database.current.db, 'b:burst', rule)),
    );
    // Two free, and the third (which starts the first wait).
    expect(results.filter((result) => !result.limited)).toHaveLength(3);
  });

  it('forgets the failures after the quiet time, and on clear', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) await claimAttempt(database.current.db, 'b:quiet', rule);
    await database.current.db.execute(
      sql`update auth_throttles set window_started_at = now() - interval '11 minutes', blocked_until = null where key = 'b:quiet'`,
    );
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await claimAttempt(database.current.db, 'b:quiet', rule)).toEqual({ limited: false });
    }
    await clearAttempts(database.current.db, 'b:quiet');
    expect(await waitingFor(database.current.db, 'b:quiet')).toEqual({ limited: false });
  });
});

describe('throttle keys', () => {
  it('are keyed hashes of the address or email, per kind of counter', () => {
    const secret = Buffer.from('k'.repeat(32));
    const key = throttleKey(secret, 'login:ip', '203.0.113.7');
    expect(key).toMatch(/^login:ip:[A-Za-z0-9_-]{32}$/);
    expect(key).not.toContain('203.0.113.7');
    expect(throttleKey(secret, 'login:ip', '203.0.113.7')).toBe(key);
    expect(throttleKey(secret, 'reset:ip', '203.0.113.7').slice('reset:ip:'.length)).not.toBe(key.slice(9));
    expect(throttleKey(Buffer.from('j'.repeat(32)), 'login:ip', '203.0.113.7')).not.toBe(key);
  });
});

describe('waitText', () => {
  it('says how long to wait in words', () => {
    expect(waitText(1)).toBe('1 second');
    expect(waitText(45)).toBe('45 seconds');
    expect(waitText(600)).toBe('10 minutes');
  });
});
