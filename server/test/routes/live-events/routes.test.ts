import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { queryRows } from '../../../src/db/open-database';
import { publishRequestEvent } from '../../../src/live/request-events';
import type { PositionView } from '../../../src/requests/view-types';
import { describeEachDatabase, type DriverName } from '../../support/databases';
import { linkRequest, signedInRequester } from '../../support/live-fixtures';
import { insertRequest } from '../../support/share-fixtures';
import { openLiveStream, openSse, type ServerSentEvent, type SseConnection } from '../../support/sse-client';
import { buildSecondInstance, buildTestApp, type TestApp } from '../../support/test-app';

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

// A new stream starts with `ready` (its newest event id); the tests look at what follows.
const afterReady = (events: ServerSentEvent[]) => events.filter((event) => event.event !== 'ready');

/** A position event's test number: the id of the position it carries. */
const positionOf = (events: ServerSentEvent[]) =>
  events
    .filter((event) => event.event === 'position')
    .map((event) => ({ n: (JSON.parse(event.data) as { position: PositionView }).position.id }));

/** A position numbered `n`, as a position event carries it. */
const numberedPosition = (n: number): PositionView => ({
  id: n,
  source: 'gps',
  latitude: -6.2,
  longitude: 106.8,
  accuracyMeters: 10,
  address: null,
  place: null,
  recordedAt: new Date(0).toISOString(),
});

describeEachDatabase('GET /api/v1/locate/events', (driver: DriverName) => {
  let testApp: TestApp;
  let base: string;
  let alice: { userId: string; token: string };
  let bob: { userId: string; token: string };
  let aliceRequest: string;
  let bobRequest: string;
  const open: SseConnection[] = [];

  async function connect(headers: Record<string, string>, query = ''): Promise<SseConnection & { body?: string }> {
    const connection = await openSse(`${base}/api/v1/locate/events${query}`, headers);
    open.push(connection);
    return connection;
  }

  /** A new stream of this user's, live: the events committed from now on are sent on it. */
  async function connectLive(headers: Record<string, string>): Promise<SseConnection> {
    const connection = await openLiveStream(`${base}/api/v1/locate/events`, headers);
    open.push(connection);
    return connection;
  }

  function publish(userId: string, requestId: string, n: number): Promise<number> {
    return testApp.app.db.transaction((tx) =>
      publishRequestEvent(tx, {
        userId,
        requestId,
        type: 'position',
        payload: { requestId, position: numberedPosition(n) },
      }),
    );
  }

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    base = await listen(testApp.app);
    alice = await signedInRequester(testApp.app.db, 'alice@example.com');
    bob = await signedInRequester(testApp.app.db, 'bob@example.com');
    aliceRequest = await linkRequest(testApp.app.db, alice.userId);
    bobRequest = await linkRequest(testApp.app.db, bob.userId);
  });

  afterEach(() => {
    for (const connection of open.splice(0)) connection.close();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('refuses a visitor without a session', async () => {
    const connection = await connect({});
    expect(connection.status).toBe(401);
    expect(JSON.parse(connection.body ?? '')).toMatchObject({ status: 401, data: null });
  });

  it('streams an event committed in a transaction to its user, with headers that keep proxies from buffering', async () => {
    const stream = await connectLive({ cookie: `token=${alice.token}`, 'accept-encoding': 'gzip, br' });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toContain('no-cache');
    expect(stream.headers['cache-control']).toContain('no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers['x-request-id']).toBeTruthy();

    const id = await publish(alice.userId, aliceRequest, 1);
    const events = afterReady(await stream.waitFor((received) => afterReady(received).length >= 1));
    expect(events[0]).toMatchObject({ id: String(id), event: 'position' });
    expect(JSON.parse(events[0]?.data ?? '')).toEqual({ requestId: aliceRequest, position: numberedPosition(1) });
  });

  it('accepts the Authorization header as well as the cookie', async () => {
    const stream = await connectLive({ authorization: `Bearer ${alice.token}` });
    expect(stream.status).toBe(200);
    await publish(alice.userId, aliceRequest, 2);
    await stream.waitFor((received) => positionOf(received).some((payload) => payload.n === 2));
  });

  it('never sends an event whose transaction rolled back', async () => {
    const stream = await connectLive({ cookie: `token=${alice.token}` });
    await expect(
      testApp.app.db.transaction(async (tx) => {
        await publishRequestEvent(tx, {
          userId: alice.userId,
          requestId: aliceRequest,
          type: 'position',
          payload: { requestId: aliceRequest, position: numberedPosition(3) },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    // A later committed event arrives: had the rolled-back one been sent, it would have come first.
    await publish(alice.userId, aliceRequest, 4);
    const events = await stream.waitFor((received) => positionOf(received).some((payload) => payload.n === 4));
    expect(positionOf(events).map((payload) => payload.n)).toEqual([4]);
  });

  it("never sends one user's events to another", async () => {
    const bobStream = await connectLive({ cookie: `token=${bob.token}` });
    const aliceStream = await connectLive({ cookie: `token=${alice.token}` });
    await publish(alice.userId, aliceRequest, 5);
    await publish(bob.userId, bobRequest, 6);
    await aliceStream.waitFor((received) => positionOf(received).some((payload) => payload.n === 5));
    const bobEvents = await bobStream.waitFor((received) => positionOf(received).some((payload) => payload.n === 6));
    expect(positionOf(bobEvents).map((payload) => payload.n)).toEqual([6]);
    expect(bobStream.text()).not.toContain(aliceRequest);
  });

  it('replays what was missed after Last-Event-ID (header or query), then goes on live', async () => {
    const seen = await publish(alice.userId, aliceRequest, 10);
    const missed = [await publish(alice.userId, aliceRequest, 11), await publish(alice.userId, aliceRequest, 12)];
    await publish(bob.userId, bobRequest, 13);

    const resumed = await connect({ cookie: `token=${alice.token}`, 'last-event-id': String(seen) });
    await resumed.waitFor((received) => received.length >= 2);
    expect(resumed.events.map((event) => event.id)).toEqual(missed.map(String));
    expect(positionOf(resumed.events).map((payload) => payload.n)).toEqual([11, 12]);

    const live = await publish(alice.userId, aliceRequest, 14);
    await resumed.waitFor((received) => received.some((event) => event.id === String(live)));
    expect(resumed.events.map((event) => event.id)).toEqual([...missed, live].map(String));

    const byQuery = await connect({ cookie: `token=${alice.token}` }, `?lastEventId=${missed[1]}`);
    await byQuery.waitFor((received) => received.length >= 1);
    expect(byQuery.events.map((event) => event.id)).toEqual([String(live)]);
  });

  it('starts a new stream with the newest event id, so that a reconnect right after loses nothing', async () => {
    const before = await publish(alice.userId, aliceRequest, 20);
    const fresh = await connect({ cookie: `token=${alice.token}` });
    const [ready] = await fresh.waitFor((received) => received.length >= 1);
    expect(ready).toMatchObject({ event: 'ready', id: String(before) });
    fresh.close();
    // Committed while the browser was away: the resume from the ready id has it.
    const missed = await publish(alice.userId, aliceRequest, 21);
    const resumed = await connect({ cookie: `token=${alice.token}`, 'last-event-id': ready?.id ?? '' });
    await resumed.waitFor((received) => received.length >= 1);
    expect(resumed.events.map((event) => event.id)).toEqual([String(missed)]);
  });

  it('refuses a malformed Last-Event-ID', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/locate/events',
      headers: { cookie: `token=${alice.token}`, 'last-event-id': 'abc' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/last-event-id/);
  });

  it('caps the streams one user may hold open', async () => {
    const streams = [];
    for (let i = 0; i < 10; i += 1) streams.push(await connect({ cookie: `token=${bob.token}` }));
    expect(streams.every((stream) => stream.status === 200)).toBe(true);
    const refused = await connect({ cookie: `token=${bob.token}` });
    expect(refused.status).toBe(429);
    streams[0]?.close();
    // Once one closes, another may open.
    const deadline = Date.now() + 5000;
    let again = await connect({ cookie: `token=${bob.token}` });
    while (again.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
      again = await connect({ cookie: `token=${bob.token}` });
    }
    expect(again.status).toBe(200);
  });
});

describeEachDatabase('live events on shutdown', (driver: DriverName) => {
  it('ends open streams so the server can close', async () => {
    const testApp = await buildTestApp(driver);
    try {
      const base = await listen(testApp.app);
      const alice = await signedInRequester(testApp.app.db, 'closing@example.com');
      const stream = await openSse(`${base}/api/v1/locate/events`, { cookie: `token=${alice.token}` });
      expect(stream.status).toBe(200);
      await testApp.app.close();
      await stream.ended;
    } finally {
      await testApp.database.cleanup();
    }
  });
});

describe('live events across two instances on one PostgreSQL', () => {
  const run = process.env.KABARI_TEST_POSTGRES_URL ? it : it.skip;

  run(
    'after its connection to PostgreSQL drops, an instance reconnects and delivers what was committed meanwhile',
    async () => {
      const testApp = await buildTestApp('postgres');
      try {
        const base = await listen(testApp.app);
        const alice = await signedInRequester(testApp.app.db, 'reconnect@example.com');
        const requestId = await linkRequest(testApp.app.db, alice.userId);
        const stream = await openLiveStream(`${base}/api/v1/locate/events`, { cookie: `token=${alice.token}` });
        // Cut the LISTEN connection, then commit an event before it can be back.
        await testApp.app.db.transaction(async (tx) => {
          await tx.execute(
            sql`select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN %' and datname = current_database()`,
          );
          await publishRequestEvent(tx, { userId: alice.userId, requestId, type: 'withdrawn', payload: { requestId } });
        });
        const events = afterReady(await stream.waitFor((received) => afterReady(received).length >= 1, 10_000));
        expect(events[0]?.event).toBe('withdrawn');
        stream.close();
      } finally {
        await testApp.close();
      }
    },
  );

  run("one user's events commit in the order of their ids, so resuming after an id skips none", async () => {
    const testApp = await buildTestApp('postgres');
    try {
      const { db } = testApp.app;
      const alice = await signedInRequester(db, 'ordered@example.com');
      const requestId = await linkRequest(db, alice.userId);
      const event = { userId: alice.userId, requestId, type: 'withdrawn' as const, payload: { requestId } };
      let releaseFirst!: () => void;
      const firstHeld = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      let firstId = 0;
      let firstPublished!: () => void;
      const published = new Promise<void>((resolve) => {
        firstPublished = resolve;
      });
      const first = db.transaction(async (tx) => {
        firstId = await publishRequestEvent(tx, event);
        firstPublished();
        await firstHeld;
      });
      await published;
      let secondDone = false;
      const second = db
        .transaction((tx) => publishRequestEvent(tx, event))
        .then((id) => {
          secondDone = true;
          return id;
        });
      // The second waits for the first to end: seen as an advisory lock not granted.
      const deadline = Date.now() + 10_000;
      let waiting = 0;
      while (waiting === 0 && Date.now() < deadline) {
        const [row] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
        );
        waiting = Number(row?.n ?? 0);
      }
      expect(waiting).toBeGreaterThan(0);
      expect(secondDone).toBe(false);
      releaseFirst();
      await first;
      expect(await second).toBeGreaterThan(firstId);
    } finally {
      await testApp.close();
    }
  });

  run('an event written through one instance reaches a stream on the other', async () => {
    const first = await buildTestApp('postgres');
    let second: FastifyInstance | undefined;
    try {
      second = await buildSecondInstance(first);
      const secondBase = await listen(second);
      const alice = await signedInRequester(first.app.db, 'two-instances@example.com');
      const requestId = await linkRequest(first.app.db, alice.userId);
      const stream = await openLiveStream(`${secondBase}/api/v1/locate/events`, { cookie: `token=${alice.token}` });
      const id = await first.app.db.transaction((tx) =>
        publishRequestEvent(tx, { userId: alice.userId, requestId, type: 'withdrawn', payload: { requestId } }),
      );
      const events = afterReady(await stream.waitFor((received) => afterReady(received).length >= 1));
      expect(events[0]).toMatchObject({ id: String(id), event: 'withdrawn' });
      expect(JSON.parse(events[0]?.data ?? '')).toEqual({ requestId });
      stream.close();
    } finally {
      await second?.close();
      await first.close();
    }
  });

  run('a position a recipient posts through one instance reaches the requester’s stream on the other', async () => {
    const first = await buildTestApp('postgres');
    let second: FastifyInstance | undefined;
    try {
      second = await buildSecondInstance(first);
      const secondBase = await listen(second);
      const alice = await signedInRequester(first.app.db, 'share-across@example.com');
      const request = await insertRequest(first.app.db, alice.userId);
      const stream = await openLiveStream(`${secondBase}/api/v1/locate/events`, { cookie: `token=${alice.token}` });

      const link = (action: string) => `/api/v1/share/links/${request.token}${action}`;
      expect((await first.app.inject({ method: 'POST', url: link('/consent') })).statusCode).toBe(200);
      const posted = await first.app.inject({
        method: 'POST',
        url: link('/positions'),
        payload: { latitude: -6.1754, longitude: 106.8272, accuracy: 8, recordedAt: new Date().toISOString() },
      });
      expect(posted.json().data.accepted).toBe(true);

      const events = await stream.waitFor((received) => received.some((event) => event.event === 'position'));
      const position = events.find((event) => event.event === 'position');
      expect(JSON.parse(position?.data ?? '')).toMatchObject({
        requestId: request.id,
        position: { source: 'gps', latitude: -6.1754, longitude: 106.8272, accuracyMeters: 8 },
      });
      // The row turns GPS Tracked live as well.
      await stream.waitFor((received) =>
        received.some((event) => event.event === 'request' && JSON.parse(event.data).status === 'gps_tracked'),
      );
      stream.close();
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
