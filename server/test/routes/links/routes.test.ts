import { eq } from 'drizzle-orm';
import { locationRequests, requestEvents } from '../../../src/db/schema/location-requests';
import { requestTokenHash } from '../../../src/requests/request-tokens';
import { describeEachDatabase } from '../../support/databases';
import { tokenFromUrl } from '../../support/request-token';
import { tablesHolding } from '../../support/stored-text';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';

const DAY = 24 * 60 * 60 * 1000;

describeEachDatabase('trackable links', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { LINK_EXPIRY_DAYS: '3' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const createLink = (requester: TestRequester, title = 'Pick-up at school', locale = 'en') =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/v1/links',
      headers: requester.headers,
      payload: { title, locale },
    });

  it('creates a link with a long random token, its URL and the configured expiry', async () => {
    const sari = await createRequester(testApp.app);
    const response = await createLink(sari, 'Jemput di sekolah', 'id');
    expect(response.statusCode).toBe(200);
    const request = response.json().data.request;
    expect(request).toMatchObject({
      channel: 'link',
      target: null,
      title: 'Jemput di sekolah',
      status: 'pending',
      consent: 'none',
      delivery: null,
    });
    const [row] = await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, request.id));
    expect(request.url).toMatch(/^http:\/\/localhost(:\d+)?\/id\/enter-link\?token=[A-Za-z0-9_-]+$/);
    // 32 base64url characters: 192 random bits.
    const token = tokenFromUrl(request.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Stored as its hash, and sealed for the requester's own list: the token itself is in no column.
    expect(row!.tokenHash).toBe(requestTokenHash(token));
    expect(row!.tokenCipher).toMatch(/^v1\./);
    expect(row!.legacyToken).toBeNull();
    expect(JSON.stringify(row)).not.toContain(token);
    const lifetime = new Date(request.expiresAt).getTime() - new Date(request.requestTime).getTime();
    expect(Math.abs(lifetime - 3 * DAY)).toBeLessThan(5000);
  });

  it('shows its URL to its requester again (list, cancel), while no stored row holds the token', async () => {
    const sari = await createRequester(testApp.app);
    const created = (await createLink(sari, 'Weekend')).json().data.request;
    const token = tokenFromUrl(created.url);
    const list = await testApp.app.inject({ method: 'GET', url: '/api/v1/requests', headers: sari.headers });
    expect(list.json().data.items).toEqual([expect.objectContaining({ id: created.id, url: created.url })]);
    // The recipient opens it: the link works by its token, and the requester hears of it live.
    const opened = await testApp.app.inject({ method: 'GET', url: `/api/v1/share/links/${token}` });
    expect(opened.statusCode).toBe(200);
    const cancelled = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/links/${created.id}/cancel`,
      headers: sari.headers,
    });
    expect(cancelled.json().data.request).toMatchObject({ id: created.id, url: created.url, consent: 'cancelled' });

    // Live events are stored: they carry the request without its URL (the dashboard keeps the one it has).
    const events = await testApp.app.db.select().from(requestEvents).where(eq(requestEvents.requestId, created.id));
    expect(events.map((event) => (event.payload as { openedTime: string | null }).openedTime !== null)).toEqual([
      false,
      true,
      true,
    ]);
    for (const event of events) expect(event.payload).toMatchObject({ id: created.id, channel: 'link', url: null });
    expect(await tablesHolding(testApp.app.db, token)).toEqual([]);
  });

  it('allows one new link per requester every 3 hours, saying when the next is possible', async () => {
    const sari = await createRequester(testApp.app);
    const budi = await createRequester(testApp.app);
    expect((await createLink(sari)).statusCode).toBe(200);
    const second = await createLink(sari);
    expect(second.statusCode).toBe(429);
    expect(second.json().message).toMatch(/^You can create one new link every 3 hours\. The next one is possible in/);
    expect(new Date(second.json().data.nextAllowedAt).getTime()).toBeGreaterThan(Date.now() + 2.9 * 60 * 60 * 1000);
    const limit = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/requests/limit?channel=link',
      headers: sari.headers,
    });
    expect(limit.json().data.nextAllowedAt).toBe(second.json().data.nextAllowedAt);
    // The link step tells how long a link works: the configured LINK_EXPIRY_DAYS, not a fixed 7.
    expect(limit.json().data.linkExpiryDays).toBe(3);
    // Another requester's limit is their own.
    expect((await createLink(budi)).statusCode).toBe(200);
  });

  it('refuses a link without a title or without a running subscription', async () => {
    const sari = await createRequester(testApp.app);
    const untitled = await createLink(sari, '   ');
    expect(untitled.statusCode).toBe(400);
    expect(untitled.json().message).toBe('title: Please enter a title');
    const expired = await createRequester(testApp.app, {
      subscription: { status: 'expired', validUntil: new Date(Date.now() - DAY) },
    });
    expect((await createLink(expired)).statusCode).toBe(403);
  });

  it('lets its owner cancel it (published live), and nobody else', async () => {
    const sari = await createRequester(testApp.app);
    const id = (await createLink(sari)).json().data.request.id;
    const stranger = await createRequester(testApp.app);
    const refused = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/links/${id}/cancel`,
      headers: stranger.headers,
    });
    expect(refused.statusCode).toBe(404);

    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/links/${id}/cancel`,
      headers: sari.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.request).toMatchObject({ id, consent: 'cancelled', liveUntil: null });
    expect(response.json().data.cancelled).toBe(true);
    const events = await testApp.app.db.select().from(requestEvents).where(eq(requestEvents.requestId, id));
    expect(events.map((event) => (event.payload as { consent: string }).consent)).toEqual(['none', 'cancelled']);

    // Cancelling again changes nothing and publishes nothing.
    const again = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/links/${id}/cancel`,
      headers: sari.headers,
    });
    expect(again.json().data.cancelled).toBe(false);
    expect(await testApp.app.db.select().from(requestEvents).where(eq(requestEvents.requestId, id))).toHaveLength(2);
  });
});
