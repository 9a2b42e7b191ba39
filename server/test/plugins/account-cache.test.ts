import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_ACCOUNT_CACHE_OPTIONS } from '../../src/auth/account-cache';
import { sessions } from '../../src/db/schema/accounts';
import { subscriptions } from '../../src/db/schema/billing';
import { describeEachDatabase, type DriverName } from '../support/databases';
import { createRequester } from '../support/subscriber-fixture';
import { buildSecondInstance, buildTestApp, type TestApp } from '../support/test-app';

const INFO = '/api/v1/personnal/subscribe/info';

// A short pause between polls: the API's per-address rate limit would answer a tight loop with 429s.
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Asks until `done` holds, for up to `ms` (a notice crosses to the other instance asynchronously). */
async function eventually(ask: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await ask()) return true;
    if (Date.now() > until) return false;
    await pause();
  }
}

/**
 * Asks until `done` holds, and says whether it held in an answer given less than the cache's ttl after
 * `cachedFrom` (taken before anything could be cached): no entry had expired by then, so only a notice can
 * have made the answer fresh. The ttl itself is the bound, not a tighter guess that a loaded machine could miss.
 */
async function heldWithinTtl(cachedFrom: number, ask: () => Promise<boolean>): Promise<boolean> {
  for (;;) {
    const held = await ask();
    if (Date.now() - cachedFrom >= DEFAULT_ACCOUNT_CACHE_OPTIONS.ttlMs) return false;
    if (held) return true;
    await pause();
  }
}

describeEachDatabase('the account cache behind subscribe/info', (driver: DriverName) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers repeated reads without asking the database again', async () => {
    const alice = await createRequester(testApp.app);
    const first = await testApp.app.inject({ method: 'GET', url: INFO, headers: alice.headers });
    expect(first.statusCode).toBe(200);
    // Sent as the bytes serialized once for the cached answer: still JSON, still never stored by a browser.
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-store');
    const reads = jest.spyOn(testApp.app.db, 'select');
    try {
      // The notice of alice's own sign-up may still arrive and empty her entries once; then reads stay in memory.
      const cached = await eventually(async () => {
        const before = reads.mock.calls.length;
        const again = await testApp.app.inject({ method: 'GET', url: INFO, headers: alice.headers });
        expect(again.body).toBe(first.body);
        return reads.mock.calls.length === before;
      });
      expect(cached).toBe(true);
    } finally {
      reads.mockRestore();
    }
  });

  it('sees a change written straight to the database (a job, another instance) at once', async () => {
    // Before alice exists: no entry of hers can be older.
    const cachedFrom = Date.now();
    const alice = await createRequester(testApp.app);
    const before = await testApp.app.inject({ method: 'GET', url: INFO, headers: alice.headers });
    expect(before.json().data.expiredStatus).toBe(0);
    await testApp.app.db
      .update(subscriptions)
      .set({ status: 'expired', validUntil: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, alice.userId));
    // Seen while the cached answer could not have expired yet: the database's notice, not the expiry, does it.
    const expired = await heldWithinTtl(cachedFrom, async () => {
      const after = await testApp.app.inject({ method: 'GET', url: INFO, headers: alice.headers });
      return after.json().data?.expiredStatus === 1;
    });
    expect(expired).toBe(true);
  });

  it('keeps nothing, and asks nothing, for what cannot be a session token', async () => {
    const reads = jest.spyOn(testApp.app.db, 'select');
    try {
      const sizeBefore = testApp.app.auth.cache.size;
      for (const token of ['x'.repeat(10_000), 'short', 'has spaces and = signs in it, twenty+']) {
        const response = await testApp.app.inject({ method: 'GET', url: INFO, headers: { authorization: token } });
        expect(response.statusCode).toBe(401);
      }
      expect(testApp.app.auth.cache.size).toBe(sizeBefore);
      expect(reads).not.toHaveBeenCalled();
      // A token of the right form that is nobody's is looked up once, and remembered as nobody's for a few seconds.
      const unknown = { authorization: 'A'.repeat(43) };
      expect((await testApp.app.inject({ method: 'GET', url: INFO, headers: unknown })).statusCode).toBe(401);
      expect(testApp.app.auth.cache.size).toBe(sizeBefore + 1);
      expect((await testApp.app.inject({ method: 'GET', url: INFO, headers: unknown })).statusCode).toBe(401);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('a revoked session is refused on the next read', async () => {
    const alice = await createRequester(testApp.app);
    expect((await testApp.app.inject({ method: 'GET', url: INFO, headers: alice.headers })).statusCode).toBe(200);
    const out = await testApp.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: alice.headers });
    expect(out.statusCode).toBe(200);
    // Same instance: no waiting for the notice.
    expect((await testApp.app.inject({ method: 'GET', url: INFO, headers: alice.headers })).statusCode).toBe(401);
  });
});

describe('the account cache across two instances on one PostgreSQL', () => {
  const run = process.env.KABARI_TEST_POSTGRES_URL ? it : it.skip;

  run('a session revoked through one instance is refused by the other within moments', async () => {
    const first = await buildTestApp('postgres');
    let second: FastifyInstance | undefined;
    try {
      second = await buildSecondInstance(first);
      // Before alice exists: no entry of hers can be older.
      const cachedFrom = Date.now();
      const alice = await createRequester(first.app);
      // The second instance has the session in its cache now.
      expect((await second.inject({ method: 'GET', url: INFO, headers: alice.headers })).statusCode).toBe(200);
      expect((await second.inject({ method: 'GET', url: INFO, headers: alice.headers })).statusCode).toBe(200);
      await first.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: alice.headers });
      const [row] = await first.app.db.select().from(sessions).where(eq(sessions.userId, alice.userId));
      expect(row?.revokedAt).not.toBeNull();
      // Refused while the cached session could not have expired yet: the notice, not the expiry, does it.
      const refused = await heldWithinTtl(
        cachedFrom,
        async () => (await second!.inject({ method: 'GET', url: INFO, headers: alice.headers })).statusCode === 401,
      );
      expect(refused).toBe(true);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
