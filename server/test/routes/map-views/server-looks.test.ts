import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { mapViews, positions, requestEvents } from '../../../src/db/schema/location-requests';
import { publishRequestEvent, REQUEST_EVENTS_CHANNEL } from '../../../src/live/request-events';
import type { PositionView } from '../../../src/requests/view-types';
import { describeEachDatabase } from '../../support/databases';
import { insertRequest } from '../../support/share-fixtures';
import { openLiveStream, type SseConnection } from '../../support/sse-client';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';

const shownPosition: PositionView = {
  id: 1,
  source: 'gps',
  latitude: -6.2,
  longitude: 106.816,
  accuracyMeters: 12,
  address: 'Jl. Sudirman, Jakarta',
  place: null,
  recordedAt: new Date().toISOString(),
};

describeEachDatabase('who looked: every answer that shows a position counts, whatever the browser does', (driver) => {
  let testApp: TestApp;
  let base: string;
  let sari: TestRequester;
  let budi: TestRequester;
  const streams: SseConnection[] = [];

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
    sari = await createRequester(testApp.app, { displayName: 'Sari' });
    budi = await createRequester(testApp.app, { displayName: 'Budi' });
  });

  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** A request of Sari's that its recipient shares, with one position recorded. */
  async function sharedWithPosition(consent: 'sharing' | 'stopped' = 'sharing') {
    const request = await insertRequest(testApp.app.db, sari.userId, { consent, status: 'gps_tracked' });
    await testApp.app.db.insert(positions).values({
      requestId: request.id,
      source: 'gps',
      latitude: -6.2,
      longitude: 106.816,
      accuracyMeters: 12,
      address: 'Jl. Sudirman, Jakarta',
      recordedAt: new Date(),
    });
    return request;
  }
  /** What the recipient's page reads of the requester's looking. */
  const seen = async (token: string) => {
    const response = await testApp.app.inject({ method: 'GET', url: `/api/v1/share/links/${token}/views` });
    expect(response.statusCode).toBe(200);
    return response.json().data as { lastSeenAt: string | null; openedAt: string[] };
  };
  const lookedJustNow = (views: { lastSeenAt: string | null; openedAt: string[] }) => {
    expect(views.openedAt).toHaveLength(1);
    expect(Date.now() - Date.parse(views.lastSeenAt!)).toBeLessThan(60_000);
  };
  const viewsOf = (requestId: string) =>
    testApp.app.db.select().from(mapViews).where(eq(mapViews.requestId, requestId));
  const get = (url: string, who: TestRequester) => testApp.app.inject({ method: 'GET', url, headers: who.headers });

  it('the history showing the latest address is a look, only at a recipient who shares now', async () => {
    const request = await sharedWithPosition();
    const stopped = await sharedWithPosition('stopped');
    expect(await seen(request.token)).toEqual({ lastSeenAt: null, openedAt: [] });
    const history = await get('/api/v1/requests?page=1&pageSize=50', sari);
    expect(history.statusCode).toBe(200);
    const item = history.json().data.items.find((row: { id: string }) => row.id === request.id);
    expect(item.lastPosition.address).toBe('Jl. Sudirman, Jakarta');
    lookedJustNow(await seen(request.token));
    // After Stop sharing the recipient's page shows no looks: none is recorded.
    expect((await get(`/api/v1/requests/${stopped.id}/positions`, sari)).statusCode).toBe(200);
    expect(await viewsOf(stopped.id)).toEqual([]);
  });

  it('the data export, which holds the positions, is a look at each recipient who shares now', async () => {
    const request = await sharedWithPosition();
    expect(await seen(request.token)).toEqual({ lastSeenAt: null, openedAt: [] });
    const exported = await get('/api/v1/personnal/account/export', sari);
    expect(exported.statusCode).toBe(200);
    lookedJustNow(await seen(request.token));
  });

  it("the map's positions are a look, and only the owner's answer records one", async () => {
    const request = await sharedWithPosition();
    expect((await get(`/api/v1/requests/${request.id}/positions`, budi)).statusCode).toBe(404);
    expect(await seen(request.token)).toEqual({ lastSeenAt: null, openedAt: [] });
    const answer = await get(`/api/v1/requests/${request.id}/positions`, sari);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.items).toHaveLength(1);
    lookedJustNow(await seen(request.token));
  });

  it('a position written to the live stream is a look, recorded before the browser has it', async () => {
    const request = await sharedWithPosition();
    const stream = await openLiveStream(`${base}/api/v1/locate/events`, sari.headers);
    streams.push(stream);
    await testApp.app.db.transaction((tx) =>
      publishRequestEvent(tx, {
        userId: sari.userId,
        requestId: request.id,
        type: 'position',
        payload: { requestId: request.id, position: shownPosition },
      }),
    );
    await stream.waitFor((events) => events.some((event) => event.event === 'position'));
    lookedJustNow(await seen(request.token));
  });

  it("a live share's position, carried whole by its notification, is a look recorded before the browser has it", async () => {
    const request = await insertRequest(testApp.app.db, sari.userId, {
      consent: 'sharing',
      status: 'gps_tracked',
      liveUntil: new Date(Date.now() + 10 * 60_000),
    });
    const heard: string[] = [];
    const stopListening = await testApp.app.dbClient.listen(REQUEST_EVENTS_CHANNEL, {
      onNotification: (payload) => {
        heard.push(payload);
      },
      onReconnected: () => undefined,
    });
    try {
      const stream = await openLiveStream(`${base}/api/v1/locate/events`, sari.headers);
      streams.push(stream);
      const posted = await testApp.app.inject({
        method: 'POST',
        url: `/api/v1/share/links/${request.token}/positions`,
        payload: { latitude: -6.1754, longitude: 106.8272, accuracy: 12, recordedAt: new Date().toISOString() },
      });
      expect(posted.json().data).toMatchObject({ accepted: true });
      const events = await stream.waitFor((list) => list.some((event) => event.event === 'position'));
      const [stored] = await testApp.app.db.select().from(requestEvents).where(eq(requestEvents.requestId, request.id));
      // The notification carried the event, so the hub had no need to read it back; the browser got it as stored.
      expect(
        heard.filter((payload) => payload.startsWith('{')).map((payload) => JSON.parse(payload) as unknown),
      ).toContainEqual({
        id: stored!.id,
        userId: sari.userId,
        requestId: request.id,
        type: 'position',
        payload: expect.any(String),
      });
      const sent = events.find((event) => event.event === 'position')!;
      expect(sent.id).toBe(String(stored!.id));
      expect(JSON.parse(sent.data)).toEqual(stored!.payload);
      lookedJustNow(await seen(request.token));
    } finally {
      await stopListening();
    }
  });

  it('a position published while no stream of the requester is open is no look', async () => {
    const request = await sharedWithPosition();
    // Budi's stream is open on this instance; Sari has none.
    const stream = await openLiveStream(`${base}/api/v1/locate/events`, budi.headers);
    streams.push(stream);
    const budiRequest = await insertRequest(testApp.app.db, budi.userId, { consent: 'sharing' });
    await testApp.app.db.transaction(async (tx) => {
      await publishRequestEvent(tx, {
        userId: sari.userId,
        requestId: request.id,
        type: 'position',
        payload: { requestId: request.id, position: shownPosition },
      });
      await publishRequestEvent(tx, {
        userId: budi.userId,
        requestId: budiRequest.id,
        type: 'position',
        payload: { requestId: budiRequest.id, position: shownPosition },
      });
    });
    // Budi's event, delivered after Sari's in the same batch, shows the batch was handled.
    await stream.waitFor((events) => events.some((event) => event.event === 'position'));
    expect(await viewsOf(request.id)).toEqual([]);
    lookedJustNow(await seen(budiRequest.token));
  });

  it('one stretch of looking is one opening: the map opened after its positions, then more looks', async () => {
    const request = await sharedWithPosition();
    await get(`/api/v1/requests/${request.id}/positions`, sari);
    const [begun] = await viewsOf(request.id);
    expect(begun).toBeDefined();
    const opened = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/requests/${request.id}/views`,
      headers: sari.headers,
      payload: {},
    });
    expect(opened.statusCode).toBe(200);
    await get(`/api/v1/requests/${request.id}/positions`, sari);
    await get('/api/v1/requests?page=1&pageSize=50', sari);
    expect(opened.json().data.viewId).toBe(begun!.id);
    expect(await viewsOf(request.id)).toHaveLength(1);

    // The map closed and opened again, a moment later: a second opening, though the server's look was this minute.
    await get(`/api/v1/requests/${request.id}/positions`, sari);
    const reopened = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/requests/${request.id}/views`,
      headers: sari.headers,
      payload: {},
    });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().data.viewId).not.toBe(begun!.id);
    expect(await viewsOf(request.id)).toHaveLength(2);
    expect((await seen(request.token)).openedAt).toHaveLength(2);
  });
});
