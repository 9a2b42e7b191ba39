import { sql } from 'drizzle-orm';
import {
  claimAttempt,
  clearAttempts,
  countAttempt,
  countAttempts,
  isLimited,
  throttleKey,
  waitingFor,
  type ThrottleResult,
} from '../../src/auth/throttle';
import { waitText } from '../../src/lib/messages';
import { openDatabase, type OpenedDatabase } from '../../src/db/open-database';
import { createTestDatabase, describeEachDatabase, openedTestDatabase, type TestDatabase } from '../support/databases';

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

describeEachDatabase('counters counted together', (driver) => {
  const database = openedTestDatabase(driver);
  const address = { limit: 5, windowSeconds: 600 };
  const link = { limit: 3, windowSeconds: 600 };

  it('counts each key in one statement, each against its own limit, every key even when one is over', async () => {
    const both = (ip: string) =>
      countAttempts(database.current.db, [
        { key: `t:ip:${ip}`, rule: address },
        { key: 't:link', rule: link },
      ]);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await both('a')).toEqual([{ limited: false }, { limited: false }]);
    }
    const [byAddress, byLink] = await both('a');
    expect(byAddress).toEqual({ limited: false });
    expect(byLink?.limited).toBe(true);
    // The same counters as countAttempt's: one more for the address is its fifth, then its sixth is over.
    expect(await countAttempt(database.current.db, 't:ip:a', address)).toEqual({ limited: false });
    expect((await countAttempt(database.current.db, 't:ip:a', address)).limited).toBe(true);
    const rows = await database.current.db.execute(
      sql`select key, count from auth_throttles where key like 't:%' order by key`,
    );
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([
      { key: 't:ip:a', count: 6 },
      { key: 't:link', count: 4 },
    ]);
  });

  it('refuses keys with different windows, a key twice and a window longer than a day', async () => {
    await expect(
      countAttempts(database.current.db, [
        { key: 't:x', rule: link },
        { key: 't:y', rule: { limit: 3, windowSeconds: 60 } },
      ]),
    ).rejects.toThrow(/one window/);
    await expect(
      countAttempts(database.current.db, [
        { key: 't:x', rule: link },
        { key: 't:x', rule: link },
      ]),
    ).rejects.toThrow(/twice/);
    await expect(
      countAttempts(database.current.db, [{ key: 't:x', rule: { limit: 1, windowSeconds: 24 * 3600 + 1 } }]),
    ).rejects.toThrow(/longer than a day/);
  });

  it('counts attempts that come at once exactly, with no wait in a circle between statements', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        countAttempts(database.current.db, [
          { key: `t:burst:ip:${i % 4}`, rule: address },
          { key: 't:burst:link', rule: link },
        ]),
      ),
    );
    expect(results.filter(([, byLink]) => !byLink?.limited)).toHaveLength(3);
  });
});

describe('counters counted together by two instances on one PostgreSQL', () => {
  const run = process.env.KABARI_TEST_POSTGRES_URL ? it : it.skip;
  let database: TestDatabase | undefined;
  const instances: OpenedDatabase[] = [];
  afterAll(async () => {
    for (const instance of instances) await instance.client.close();
    await database?.cleanup();
  });

  run('hold one limit between them: each pool counts on the same row', async () => {
    database = await createTestDatabase('postgres');
    const quiet = { info: () => undefined, error: () => undefined };
    for (let i = 0; i < 2; i += 1) {
      instances.push(await openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl }, quiet));
    }
    const rule = { limit: 10, windowSeconds: 600 };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        countAttempts(instances[i % 2]!.db, [
          { key: `t2:ip:${i % 5}`, rule: { limit: 100, windowSeconds: 600 } },
          { key: 't2:link', rule },
        ]),
      ),
    );
    expect(results.filter(([, byLink]) => !byLink?.limited)).toHaveLength(10);
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
