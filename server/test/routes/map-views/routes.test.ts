import { eq } from 'drizzle-orm';
import { mapViews } from '../../../src/db/schema/location-requests';
import { pruneExpiredData } from '../../../src/retention/retention-job';
import { describeEachDatabase } from '../../support/databases';
import { insertRequest } from '../../support/share-fixtures';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('who looked: the requester’s map views, as the recipient sees them', (driver) => {
  let testApp: TestApp;
  let sari: TestRequester;
  let budi: TestRequester;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    sari = await createRequester(testApp.app, { displayName: 'Sari' });
    budi = await createRequester(testApp.app, { displayName: 'Budi' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const look = (requester: TestRequester, requestId: string, viewId?: number) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/v1/requests/${requestId}/views`,
      headers: requester.headers,
      payload: viewId === undefined ? {} : { viewId },
    });
  const seen = async (token: string) => {
    const response = await testApp.app.inject({ method: 'GET', url: `/api/v1/share/links/${token}/views` });
    expect(response.statusCode).toBe(200);
    return response.json().data as { lastSeenAt: string | null; openedAt: string[] };
  };
  const viewsOf = (requestId: string) =>
    testApp.app.db.select().from(mapViews).where(eq(mapViews.requestId, requestId));

  it('records each opening of the map while the recipient shares, and a map kept open as one opening', async () => {
    const request = await insertRequest(testApp.app.db, sari.userId, { consent: 'sharing', status: 'ip_located' });
    expect(await seen(request.token)).toEqual({ lastSeenAt: null, openedAt: [] });

    const first = await look(sari, request.id);
    expect(first.statusCode).toBe(200);
    const { viewId } = first.json().data;
    expect(viewId).toEqual(expect.any(Number));
    // Still open a minute later: the same opening, seen again.
    const again = await look(sari, request.id, viewId);
    expect(again.json().data.viewId).toBe(viewId);
    // Opened again (a new page): a second opening.
    const second = (await look(sari, request.id)).json().data.viewId;
    expect(second).not.toBe(viewId);

    const views = await seen(request.token);
    expect(views.openedAt).toHaveLength(2);
    expect(Date.now() - Date.parse(views.lastSeenAt!)).toBeLessThan(60_000);
    expect(await viewsOf(request.id)).toHaveLength(2);
  });

  it('records nothing before the recipient shares or after they stop', async () => {
    for (const consent of ['none', 'declined', 'stopped'] as const) {
      const request = await insertRequest(testApp.app.db, sari.userId, { consent });
      const response = await look(sari, request.id);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ viewId: null });
      expect(await viewsOf(request.id)).toEqual([]);
    }
  });

  it('only for the request’s owner: another account, or no session, records nothing', async () => {
    const request = await insertRequest(testApp.app.db, sari.userId, { consent: 'sharing' });
    const other = await look(budi, request.id);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Request not found.');
    const anonymous = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/requests/${request.id}/views`,
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    // Another request's opening is not continued through this one.
    const mine = (await look(sari, request.id)).json().data.viewId as number;
    const elsewhere = await insertRequest(testApp.app.db, sari.userId, { consent: 'sharing' });
    expect((await look(sari, elsewhere.id, mine)).json().data.viewId).not.toBe(mine);
    expect(await viewsOf(request.id)).toHaveLength(1);
  });

  it('refuses a malformed opening id, in the caller’s language, and records nothing', async () => {
    const request = await insertRequest(testApp.app.db, sari.userId, { consent: 'sharing' });
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/requests/${request.id}/views`,
      headers: { ...sari.headers, 'accept-language': 'id' },
      payload: { viewId: 'latest' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('viewId harus berupa viewId dari jawaban sebelumnya');
    expect(await viewsOf(request.id)).toEqual([]);
  });

  it('an opening not heard from for three minutes has ended: the next call is a new opening', async () => {
    const request = await insertRequest(testApp.app.db, sari.userId, { consent: 'sharing' });
    const viewId = (await look(sari, request.id)).json().data.viewId as number;
    const longAgo = new Date(Date.now() - 4 * 60_000);
    await testApp.app.db.update(mapViews).set({ lastSeenAt: longAgo }).where(eq(mapViews.id, viewId));
    expect((await look(sari, request.id, viewId)).json().data.viewId).not.toBe(viewId);
    expect((await seen(request.token)).openedAt).toHaveLength(2);
  });

  it('shows nothing before consent or once sharing stopped; Stop and erase erases the views with the rest', async () => {
    const unanswered = await insertRequest(testApp.app.db, sari.userId);
    const before = await testApp.app.inject({ method: 'GET', url: `/api/v1/share/links/${unanswered.token}/views` });
    expect(before.statusCode).toBe(409);

    const request = await insertRequest(testApp.app.db, sari.userId, { consent: 'sharing', status: 'ip_located' });
    await look(sari, request.id);
    const stop = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/share/links/${request.token}/stop`,
      payload: {},
    });
    expect(stop.statusCode).toBe(200);
    const afterStop = await testApp.app.inject({ method: 'GET', url: `/api/v1/share/links/${request.token}/views` });
    expect(afterStop.statusCode).toBe(409);
    // Kept while stopped (the recipient may still erase); erased by Stop and erase.
    expect(await viewsOf(request.id)).toHaveLength(1);
    const erase = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/share/links/${request.token}/withdraw`,
      payload: {},
    });
    expect(erase.statusCode).toBe(200);
    expect(await viewsOf(request.id)).toEqual([]);
  });

  it('a token nobody issued: 404, as for every use of a link', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/share/links/not-a-token/views' });
    expect(response.statusCode).toBe(404);
  });

  it('the retention job deletes views last seen before RETENTION_DAYS', async () => {
    const request = await insertRequest(testApp.app.db, sari.userId, { consent: 'sharing' });
    const viewId = (await look(sari, request.id)).json().data.viewId as number;
    const old = new Date(Date.now() - 40 * 24 * 60 * 60_000);
    await testApp.app.db.update(mapViews).set({ openedAt: old, lastSeenAt: old }).where(eq(mapViews.id, viewId));
    const result = await pruneExpiredData(testApp.app.db, 30);
    expect(result.mapViews).toBeGreaterThanOrEqual(1);
    expect(await viewsOf(request.id)).toEqual([]);
  });
});
