import { sql } from 'drizzle-orm';
import { clearAttempts, countAttempt, isLimited } from '../../src/auth/throttle';
import { waitText } from '../../src/lib/messages';
import { openDatabase, type OpenedDatabase } from '../../src/db/open-database';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../support/databases';

describeEachDatabase('throttle counters', (driver) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  const rule = { limit: 3, windowSeconds: 600 };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    opened = await openDatabase(
      { dataDir: database.dataDir, databaseUrl: database.databaseUrl },
      { info: () => undefined, error: () => undefined },
    );
  });

  afterAll(async () => {
    await opened?.client.close();
    await database?.cleanup();
  });

  it('allows up to the limit, then limits with the time left in the window', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await countAttempt(opened.db, 'k:limit', rule)).toEqual({ limited: false });
    }
    const fourth = await countAttempt(opened.db, 'k:limit', rule);
    expect(fourth.limited).toBe(true);
    if (fourth.limited) {
      expect(fourth.retryAfterSeconds).toBeGreaterThan(590);
      expect(fourth.retryAfterSeconds).toBeLessThanOrEqual(600);
    }
    expect((await isLimited(opened.db, 'k:limit', rule)).limited).toBe(true);
  });

  it('refuses a window longer than a day: the retention job deletes counters a day after their window began', async () => {
    await expect(countAttempt(opened.db, 'k:too-long', { limit: 3, windowSeconds: 24 * 3600 + 1 })).rejects.toThrow(
      /longer than a day/,
    );
    expect(await countAttempt(opened.db, 'k:a-day', { limit: 3, windowSeconds: 24 * 3600 })).toEqual({
      limited: false,
    });
  });

  it('counts concurrent attempts exactly (one statement, no lost updates)', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => countAttempt(opened.db, 'k:concurrent', rule)));
    expect(results.filter((result) => !result.limited)).toHaveLength(3);
  });

  it('starts a new window once the old one has passed', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) await countAttempt(opened.db, 'k:window', rule);
    await opened.db.execute(
      sql`update auth_throttles set window_started_at = now() - interval '11 minutes' where key = 'k:window'`,
    );
    expect((await isLimited(opened.db, 'k:window', rule)).limited).toBe(false);
    expect(await countAttempt(opened.db, 'k:window', rule)).toEqual({ limited: false });
  });

  it('forgets a key on clear', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) await countAttempt(opened.db, 'k:clear', rule);
    await clearAttempts(opened.db, 'k:clear');
    expect((await isLimited(opened.db, 'k:clear', rule)).limited).toBe(false);
  });
});

describe('waitText', () => {
  it('says how long to wait in words', () => {
    expect(waitText(1)).toBe('1 second');
    expect(waitText(45)).toBe('45 seconds');
    expect(waitText(600)).toBe('10 minutes');
  });
});
