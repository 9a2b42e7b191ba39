import { eq } from 'drizzle-orm';
import { locationRequests } from '../../src/db/schema/location-requests';
import { endSilentLiveWindows, LIVE_SILENCE_MS } from '../../src/sharing/link-consent';
import { describeEachDatabase } from '../support/databases';
import { insertRequest } from '../support/share-fixtures';
import { createRequester, type TestRequester } from '../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../support/test-app';

describeEachDatabase('a live window that ends early, and why the requester sees it ended', (driver) => {
  let testApp: TestApp;
  let sari: TestRequester;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    sari = await createRequester(testApp.app, { displayName: 'Sari' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const post = (token: string, action: string, payload: object) =>
    testApp.app.inject({ method: 'POST', url: `/api/v1/share/links/${token}${action}`, payload });
  /** The request as its requester's dashboard gets it. */
  const requesterView = async (id: string) => {
    const list = await testApp.app.inject({ method: 'GET', url: '/api/v1/requests', headers: sari.headers });
    return (list.json().data.items as { id: string; liveUntil: string | null; liveEnd: unknown }[]).find(
      (item) => item.id === id,
    );
  };
  const sharingLive = async () => {
    const request = await insertRequest(testApp.app.db, sari.userId, { consent: 'sharing', status: 'ip_located' });
    const live = await post(request.token, '/live', { minutes: 15 });
    return { ...request, liveUntil: live.json().data.liveUntil as string };
  };

  it('the page ends it with its reason; the requester sees when and why; a new window clears it', async () => {
    const request = await sharingLive();
    expect((await requesterView(request.id))?.liveEnd).toBeNull();
    const ended = await post(request.token, '/live/end', { liveUntil: request.liveUntil, reason: 'denied' });
    expect(ended.json().data).toEqual({ liveUntil: null });
    const view = await requesterView(request.id);
    expect(view).toMatchObject({ liveUntil: null, liveEnd: { reason: 'denied' } });
    expect(Date.now() - Date.parse((view?.liveEnd as { at: string }).at)).toBeLessThan(60_000);

    await post(request.token, '/live', { minutes: 15 });
    expect((await requesterView(request.id))?.liveEnd).toBeNull();
  });

  it('refuses a reason it does not know, in the caller’s language, and ends nothing', async () => {
    const request = await sharingLive();
    const refused = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/share/links/${request.token}/live/end`,
      headers: { 'accept-language': 'id' },
      payload: { liveUntil: request.liveUntil, reason: 'bored' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^Alasan berakhirnya berbagi langsung harus salah satu dari unsupported/);
    expect((await requesterView(request.id))?.liveUntil).toBe(request.liveUntil);
  });

  it('a page that says once a minute it is open keeps its window; one silent for 2 minutes has it ended', async () => {
    const heard = await sharingLive();
    const silent = await sharingLive();
    const longAgo = new Date(Date.now() - LIVE_SILENCE_MS - 5_000);
    for (const request of [heard, silent]) {
      await testApp.app.db
        .update(locationRequests)
        .set({ liveHeardAt: longAgo })
        .where(eq(locationRequests.id, request.id));
    }
    const answer = await post(heard.token, '/live/heard', { liveUntil: heard.liveUntil });
    expect(answer.json().data).toEqual({ liveUntil: heard.liveUntil });

    expect(await endSilentLiveWindows(testApp.app.db)).toBeGreaterThanOrEqual(1);
    expect(await requesterView(heard.id)).toMatchObject({ liveUntil: heard.liveUntil, liveEnd: null });
    expect(await requesterView(silent.id)).toMatchObject({ liveUntil: null, liveEnd: { reason: 'silent' } });
    // The silent page, waking up, learns its window is gone and stops.
    expect((await post(silent.token, '/live/heard', { liveUntil: silent.liveUntil })).json().data).toEqual({
      liveUntil: null,
    });
  });

  it('a position from the live page counts as a sign of life', async () => {
    const request = await sharingLive();
    const longAgo = new Date(Date.now() - LIVE_SILENCE_MS - 5_000);
    await testApp.app.db
      .update(locationRequests)
      .set({ liveHeardAt: longAgo })
      .where(eq(locationRequests.id, request.id));
    const position = await post(request.token, '/positions', {
      latitude: -6.2,
      longitude: 106.8,
      accuracy: 12,
      recordedAt: new Date().toISOString(),
    });
    expect(position.json().data.accepted).toBe(true);
    await endSilentLiveWindows(testApp.app.db);
    expect((await requesterView(request.id))?.liveUntil).toBe(request.liveUntil);
  });

  it('leaves alone a window started before pages said they were open (nothing heard recorded)', async () => {
    const request = await sharingLive();
    await testApp.app.db.update(locationRequests).set({ liveHeardAt: null }).where(eq(locationRequests.id, request.id));
    await endSilentLiveWindows(testApp.app.db);
    expect((await requesterView(request.id))?.liveUntil).toBe(request.liveUntil);
  });
});
