import type { AddressInfo } from 'node:net';
import { describeEachDatabase } from '../../support/databases';
import { signedInRequester } from '../../support/live-fixtures';
import { insertRequest } from '../../support/share-fixtures';
import { openSse, type SseConnection } from '../../support/sse-client';
import { buildTestApp, type TestApp } from '../../support/test-app';

const jakarta = { latitude: -6.1754, longitude: 106.8272, accuracy: 12 };

describeEachDatabase('GET /api/v1/share/links/:token/events', (driver) => {
  let testApp: TestApp;
  let base: string;
  let requester: { userId: string; token: string };
  const open: SseConnection[] = [];

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
    requester = await signedInRequester(testApp.app.db, 'rina@example.com');
  });

  afterEach(() => {
    for (const connection of open.splice(0)) connection.close();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const link = (token: string, action = '') => `${base}/api/v1/share/links/${encodeURIComponent(token)}${action}`;
  const post = (url: string, body?: object, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { ...(body && { 'content-type': 'application/json' }), ...headers },
      body: body && JSON.stringify(body),
    });

  async function listen(token: string): Promise<SseConnection & { body?: string }> {
    const connection = await openSse(link(token, '/events'));
    open.push(connection);
    return connection;
  }

  it('tells the open page that its request changed, and nothing of what changed', async () => {
    const request = await insertRequest(testApp.app.db, requester.userId);
    const page = await listen(request.token);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/event-stream/);

    // Consent from another tab: the page is told, with no requester's view in it.
    expect((await post(link(request.token, '/consent'))).status).toBe(200);
    const [changed] = await page.waitFor((events) => events.length === 1);
    expect(changed).toEqual({ id: undefined, event: 'changed', data: '{}' });

    // A position is the page's own doing: it is not told of it. A second page, opened after the position, is the
    // fence: both hear the cancel from one write each, so by then the first has had every frame before it too.
    const position = await post(link(request.token, '/positions'), {
      ...jakarta,
      recordedAt: new Date().toISOString(),
    });
    expect(position.status).toBe(200);
    const fence = await listen(request.token);
    const cancelled = await post(`${base}/api/v1/requests/${request.id}/cancel`, undefined, {
      authorization: requester.token,
    });
    expect(cancelled.status).toBe(200);
    await fence.waitFor((events) => events.length === 1);
    await page.waitFor((events) => events.length >= 2);
    expect(page.events.map((event) => event.event)).toEqual(['changed', 'changed']);
    expect(page.text()).not.toMatch(/latitude|position|Rina|rina/);

    const state = await fetch(link(request.token));
    expect(((await state.json()) as { data: { state: string } }).data.state).toBe('cancelled');
    // Nothing more can end: a page opened now is told so rather than kept waiting.
    const late = await listen(request.token);
    expect(late.status).toBe(409);
    expect(JSON.parse(late.body ?? '').message).toBe('The person who asked cancelled this request.');
  });

  it('hears only its own request', async () => {
    const mine = await insertRequest(testApp.app.db, requester.userId);
    const other = await insertRequest(testApp.app.db, requester.userId);
    const page = await listen(mine.token);
    const otherPage = await listen(other.token);
    expect((await post(link(other.token, '/decline'))).status).toBe(200);
    await otherPage.waitFor((events) => events.length === 1);
    expect((await post(link(mine.token, '/decline'))).status).toBe(200);
    await page.waitFor((events) => events.length === 1);
    expect(page.events).toHaveLength(1);
    expect(otherPage.events).toHaveLength(1);
  });

  it('answers 404 to an unknown link, as every other use of one', async () => {
    const page = await listen('not-a-token');
    expect(page.status).toBe(404);
    expect(JSON.parse(page.body ?? '')).toEqual({ status: 404, message: 'Invalid link!', data: null });
  });

  it('keeps at most five pages of one request open on an instance', async () => {
    const request = await insertRequest(testApp.app.db, requester.userId);
    const pages = await Promise.all(Array.from({ length: 5 }, () => listen(request.token)));
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await listen(request.token);
    expect(sixth.status).toBe(429);
    expect(JSON.parse(sixth.body ?? '').message).toBe('This link is open in too many tabs. Close another one first.');
    // A closed page makes room, once the server has seen it close.
    const watching = testApp.app.liveEvents.watcherCount;
    pages[0]?.close();
    while (testApp.app.liveEvents.watcherCount === watching) await new Promise((resolve) => setImmediate(resolve));
    expect((await listen(request.token)).status).toBe(200);
  });
});
