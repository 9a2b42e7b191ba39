import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { locationRequests } from '../../../src/db/schema/location-requests';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { voiceNotes } from '../../../src/db/schema/voice-notes';
import { DEFAULT_REQUEST_LIST_CACHE_OPTIONS, LIST_CHANGED_PREFIX } from '../../../src/requests/request-list-cache';
import { describeEachDatabase } from '../../support/databases';
import { insertRequest } from '../../support/share-fixtures';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildSecondInstance, buildTestApp, type TestApp } from '../../support/test-app';

// The request history is kept in memory per requester for a few seconds (src/requests/request-list-cache.ts): these
// tests read a list (so that it is cached), change what it shows in every way the product can, and check that the
// next reads show the change while the cached page could not have expired yet, so only the database's notice (or
// the requester's own write on the same instance) can have made it fresh.

const LIST = '/api/v1/requests?page=1&pageSize=10';
const PUBLIC_IP = '8.8.8.8';
const gpsNow = () => ({ latitude: -6.1754, longitude: 106.8272, accuracy: 12, recordedAt: new Date().toISOString() });
const link = (token: string, action = '') => `/api/v1/share/links/${encodeURIComponent(token)}${action}`;

// A short pause between polls: the API's per-address rate limit would answer a tight loop with 429s.
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

type Item = { id: string; consent: string; lastPosition: unknown; delivery: string | null; voiceReply: unknown };

async function listOf(app: FastifyInstance, requester: TestRequester): Promise<Item[]> {
  const response = await app.inject({ method: 'GET', url: LIST, headers: requester.headers });
  expect(response.statusCode).toBe(200);
  return response.json().data.items;
}

/**
 * Reads until `holds` is true of the list, and says whether it was true in an answer given less than the cache's ttl
 * after `cachedFrom` (taken before the list was first read): no page had expired by then.
 */
async function seenWithinTtl(
  cachedFrom: number,
  read: () => Promise<Item[]>,
  holds: (items: Item[]) => boolean,
): Promise<boolean> {
  for (;;) {
    const items = await read();
    if (Date.now() - cachedFrom >= DEFAULT_REQUEST_LIST_CACHE_OPTIONS.ttlMs) return false;
    if (holds(items)) return true;
    await pause();
  }
}

const itemOf = (items: Item[], id: string) => items.find((item) => item.id === id);

/** Runs `body` with the database's notices of list changes held back on `app`, as when one is still on its way. */
async function withNoticesHeldBack(app: FastifyInstance, body: () => Promise<void>): Promise<void> {
  const held = jest
    .spyOn(app.requestLists, 'heard')
    .mockImplementation((payload) => payload.startsWith(LIST_CHANGED_PREFIX));
  try {
    await body();
  } finally {
    held.mockRestore();
  }
}

describeEachDatabase('the request history’s cache', (driver) => {
  let testApp: TestApp;
  const app = () => testApp.app;
  const db = () => testApp.app.db;
  const recipient = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app().inject({ method, url, payload, headers: { 'x-forwarded-for': PUBLIC_IP } });

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('answers repeated reads without asking the database again', async () => {
    const sari = await createRequester(app());
    await insertRequest(db(), sari.userId);
    const first = await listOf(app(), sari);
    const reads = jest.spyOn(db(), 'select');
    try {
      // The notice of the request's own insert may still arrive and empty the page once; then reads stay in memory.
      let cached = false;
      for (let tries = 0; tries < 50 && !cached; tries += 1) {
        const before = reads.mock.calls.length;
        expect(await listOf(app(), sari)).toEqual(first);
        cached = reads.mock.calls.length === before;
        if (!cached) await pause();
      }
      expect(cached).toBe(true);
    } finally {
      reads.mockRestore();
    }
  });

  it('gives a cached page as JSON, each page at its own size, and a changed page anew', async () => {
    const sari = await createRequester(app());
    await insertRequest(db(), sari.userId);
    const read = (pageSize: number) =>
      app().inject({ method: 'GET', url: `/api/v1/requests?page=1&pageSize=${pageSize}`, headers: sari.headers });
    const first = await read(10);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json().data).toMatchObject({ total: 1, page: 1, pageSize: 10 });
    await insertRequest(db(), sari.userId);
    // The database's notice of the new request (or the cache's ttl) makes the page anew; until then it is unchanged.
    let again = await read(10);
    for (let tries = 0; tries < 250 && again.json().data.total === 1; tries += 1) {
      expect(again.body).toBe(first.body);
      await pause();
      again = await read(10);
    }
    expect(again.json().data).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    expect(again.json().data.items).toHaveLength(2);
    const smaller = await read(1);
    expect(smaller.json().data).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(smaller.json().data.items).toHaveLength(1);
    expect((await read(10)).body).toBe(again.body);
  });

  it('never shows one requester another’s requests, whoever read first', async () => {
    const sari = await createRequester(app());
    const budi = await createRequester(app(), { displayName: 'Budi' });
    const hers = await insertRequest(db(), sari.userId);
    const his = await insertRequest(db(), budi.userId);
    for (let round = 0; round < 3; round += 1) {
      expect((await listOf(app(), sari)).map((item) => item.id)).toEqual([hers.id]);
      expect((await listOf(app(), budi)).map((item) => item.id)).toEqual([his.id]);
    }
    // A change to his list leaves hers as it was, and hers still hers.
    const cachedFrom = Date.now();
    const another = await insertRequest(db(), budi.userId);
    expect(
      await seenWithinTtl(
        cachedFrom,
        () => listOf(app(), budi),
        (items) => items.length === 2,
      ),
    ).toBe(true);
    expect((await listOf(app(), sari)).map((item) => item.id)).toEqual([hers.id]);
    expect((await listOf(app(), budi)).map((item) => item.id)).toContain(another.id);
  });

  it('shows a request made through the API at once, and one made elsewhere (a job, another instance) within moments', async () => {
    const cachedFrom = Date.now();
    const sari = await createRequester(app());
    // The requester's own write is shown on this instance without the notice.
    await withNoticesHeldBack(app(), async () => {
      expect(await listOf(app(), sari)).toEqual([]);
      const made = await app().inject({
        method: 'POST',
        url: '/api/v1/links',
        headers: sari.headers,
        payload: { title: 'Ibu', locale: 'en' },
      });
      expect(made.statusCode).toBe(200);
      expect(await listOf(app(), sari)).toHaveLength(1);
    });
    const elsewhere = await insertRequest(db(), sari.userId);
    expect(
      await seenWithinTtl(
        cachedFrom,
        () => listOf(app(), sari),
        (items) => !!itemOf(items, elsewhere.id),
      ),
    ).toBe(true);
  });

  it('shows the recipient’s consent, positions, Stop sharing and Stop and erase as they happen', async () => {
    const sari = await createRequester(app());
    const request = await insertRequest(db(), sari.userId);
    const read = () => listOf(app(), sari);
    const seen = async (holds: (item: Item) => boolean) => {
      const cachedFrom = Date.now();
      const ready = await read();
      expect(itemOf(ready, request.id)).toBeDefined();
      return { cachedFrom, holds: (items: Item[]) => holds(itemOf(items, request.id)!) };
    };

    let watch = await seen((item) => item.consent === 'sharing' && item.lastPosition !== null);
    expect((await recipient('POST', link(request.token, '/consent'))).statusCode).toBe(200);
    expect(await seenWithinTtl(watch.cachedFrom, read, watch.holds)).toBe(true);

    const before = itemOf(await read(), request.id)!.lastPosition;
    watch = await seen((item) => JSON.stringify(item.lastPosition) !== JSON.stringify(before));
    expect((await recipient('POST', link(request.token, '/positions'), gpsNow())).json().data.accepted).toBe(true);
    expect(await seenWithinTtl(watch.cachedFrom, read, watch.holds)).toBe(true);

    watch = await seen((item) => item.consent === 'stopped');
    expect((await recipient('POST', link(request.token, '/stop'))).statusCode).toBe(200);
    expect(await seenWithinTtl(watch.cachedFrom, read, watch.holds)).toBe(true);

    const erased = await insertRequest(db(), sari.userId);
    await recipient('POST', link(erased.token, '/consent'));
    const shared = async () => itemOf(await read(), erased.id)?.lastPosition !== null;
    for (let tries = 0; tries < 250 && !(await shared()); tries += 1) await pause();
    const cachedFrom = Date.now();
    await read();
    expect((await recipient('POST', link(erased.token, '/withdraw'))).statusCode).toBe(200);
    expect(
      await seenWithinTtl(cachedFrom, read, (items) => {
        const item = itemOf(items, erased.id);
        return item?.consent === 'withdrawn' && item.lastPosition === null;
      }),
    ).toBe(true);
  });

  it('shows what the recipient does on the same instance at once, before any notice', async () => {
    const sari = await createRequester(app());
    const request = await insertRequest(db(), sari.userId);
    const settled = async () => itemOf(await listOf(app(), sari), request.id) !== undefined;
    for (let tries = 0; tries < 250 && !(await settled()); tries += 1) await pause();
    await withNoticesHeldBack(app(), async () => {
      expect(itemOf(await listOf(app(), sari), request.id)?.consent).toBe('none');
      expect((await recipient('POST', link(request.token, '/consent'))).statusCode).toBe(200);
      expect(itemOf(await listOf(app(), sari), request.id)?.consent).toBe('sharing');
      expect((await recipient('POST', link(request.token, '/stop'))).statusCode).toBe(200);
      expect(itemOf(await listOf(app(), sari), request.id)?.consent).toBe('stopped');
    });
  });

  it('shows the requester’s own cancel and delete at once', async () => {
    const sari = await createRequester(app());
    const kept = await insertRequest(db(), sari.userId);
    const gone = await insertRequest(db(), sari.userId);
    const settled = async () => (await listOf(app(), sari)).length === 2;
    for (let tries = 0; tries < 250 && !(await settled()); tries += 1) await pause();

    // Without the notice: the requester's own write makes this instance forget the list before its answer.
    await withNoticesHeldBack(app(), async () => {
      const cancel = await app().inject({
        method: 'POST',
        url: `/api/v1/requests/${kept.id}/cancel`,
        headers: sari.headers,
      });
      expect(cancel.statusCode).toBe(200);
      expect(itemOf(await listOf(app(), sari), kept.id)?.consent).toBe('cancelled');

      const deleted = await app().inject({
        method: 'DELETE',
        url: `/api/v1/requests/${gone.id}`,
        headers: sari.headers,
      });
      expect(deleted.statusCode).toBe(200);
      expect((await listOf(app(), sari)).map((item) => item.id)).toEqual([kept.id]);
    });
  });

  it('shows a message’s delivery receipt and the recipient’s voice reply, written by other parts of the server', async () => {
    const sari = await createRequester(app());
    const [message] = await db()
      .insert(outboxMessages)
      .values({
        idempotencyKey: `history-cache-${sari.userId}`,
        channel: 'sms',
        recipient: '+628123456789',
        bodyText: 'a location request',
        state: 'sent',
        transport: 'twilio',
      })
      .returning({ id: outboxMessages.id });
    const request = await insertRequest(db(), sari.userId, { messageId: message!.id });
    const read = () => listOf(app(), sari);

    let cachedFrom = Date.now();
    expect(itemOf(await read(), request.id)?.delivery).toBe('sent');
    await db().update(outboxMessages).set({ receipt: 'delivered' }).where(eq(outboxMessages.id, message!.id));
    expect(await seenWithinTtl(cachedFrom, read, (items) => itemOf(items, request.id)?.delivery === 'delivered')).toBe(
      true,
    );

    cachedFrom = Date.now();
    expect(itemOf(await read(), request.id)?.voiceReply).toBeNull();
    await db().insert(voiceNotes).values({
      userId: sari.userId,
      requestId: request.id,
      kind: 'reply',
      mediaType: 'audio/webm',
      durationMs: 900,
      byteSize: 4,
    });
    expect(await seenWithinTtl(cachedFrom, read, (items) => itemOf(items, request.id)?.voiceReply !== null)).toBe(true);
  });

  it('refuses a revoked session rather than answer from the cache', async () => {
    const sari = await createRequester(app());
    await insertRequest(db(), sari.userId);
    await listOf(app(), sari);
    await listOf(app(), sari);
    const out = await app().inject({ method: 'POST', url: '/api/v1/auth/logout', headers: sari.headers });
    expect(out.statusCode).toBe(200);
    expect((await app().inject({ method: 'GET', url: LIST, headers: sari.headers })).statusCode).toBe(401);
  });
});

describe('the request history’s cache across two instances on one PostgreSQL', () => {
  const run = process.env.KABARI_TEST_POSTGRES_URL ? it : it.skip;

  run('a change made through one instance is shown by the other within moments', async () => {
    const first = await buildTestApp('postgres', { TRUST_PROXY: '127.0.0.1' });
    let second: FastifyInstance | undefined;
    try {
      second = await buildSecondInstance(first);
      const sari = await createRequester(first.app);
      const request = await insertRequest(first.app.db, sari.userId);
      const read = () => listOf(second!, sari);
      const settled = async () => itemOf(await read(), request.id) !== undefined;
      for (let tries = 0; tries < 250 && !(await settled()); tries += 1) await pause();

      // The recipient shares through the first instance; the second has the list in its cache.
      let cachedFrom = Date.now();
      expect(itemOf(await read(), request.id)?.consent).toBe('none');
      const consent = await first.app.inject({
        method: 'POST',
        url: link(request.token, '/consent'),
        headers: { 'x-forwarded-for': PUBLIC_IP },
      });
      expect(consent.statusCode).toBe(200);
      expect(await seenWithinTtl(cachedFrom, read, (items) => itemOf(items, request.id)?.consent === 'sharing')).toBe(
        true,
      );

      // The requester deletes it through the first instance.
      cachedFrom = Date.now();
      await read();
      const deleted = await first.app.inject({
        method: 'DELETE',
        url: `/api/v1/requests/${request.id}`,
        headers: sari.headers,
      });
      expect(deleted.statusCode).toBe(200);
      expect(await seenWithinTtl(cachedFrom, read, (items) => items.length === 0)).toBe(true);
      expect(await first.app.db.select().from(locationRequests).where(eq(locationRequests.id, request.id))).toEqual([]);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
