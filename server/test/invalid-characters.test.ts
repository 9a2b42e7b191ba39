import { count, eq, sql } from 'drizzle-orm';
import { contactMessages, sessions, visitorReports } from '../src/db/schema/accounts';
import { describeEachDatabase } from './support/databases';
import { insertRequest, insertRequester } from './support/share-fixtures';
import { buildTestApp, type TestApp } from './support/test-app';

const ENGLISH = /cannot be accepted/;
const INDONESIAN = /tidak dapat diterima/;

const visitorReport = {
  visitorId: 'v-3c1f9a',
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile Safari/537.36',
  osName: 'Android',
  osVersion: '14',
  browserName: 'Chrome',
  browserVersion: '126.0',
  deviceType: 'mobile',
  deviceBrand: 'Google',
  deviceModel: 'Pixel 8',
  pageUrl: 'https://kabari.example/',
  referrerUrl: '',
  source: '',
  visitTime: '2026-11-22T01:02:03.456Z',
};

const contactMessage = {
  name: 'Siti Rahma',
  email: 'siti@example.com',
  topic: 'question',
  message: 'How does a request reach my mother?',
  locale: 'en',
};

describeEachDatabase('strings with a NUL or broken text', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(
      driver,
      {},
      {
        beforeReady: (app) => {
          // A string that slipped past every check and reaches the database as it is.
          app.get('/api/test/store-nul', async () => {
            await app.db.execute(sql`select ${'before\u0000after'}::text as text`);
            return { status: 200, message: 'ok', data: null };
          });
        },
      },
    );
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;

  const expectRefused = (response: { statusCode: number; json(): { status: number; message: string } }) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, data: null });
    expect(response.json().message).toMatch(ENGLISH);
  };

  it('refuses a NUL in a share token in the path, in both languages', async () => {
    const requesterId = await insertRequester(db());
    const request = await insertRequest(db(), requesterId);
    for (const token of [`${request.token}%00`, `%00${request.token}`, `abc%00def`]) {
      expectRefused(await testApp.app.inject({ method: 'GET', url: `/api/v1/share/links/${token}` }));
    }
    const indonesian = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/share/links/${request.token}%00`,
      headers: { 'accept-language': 'id-ID,id;q=0.9' },
    });
    expect(indonesian.statusCode).toBe(400);
    expect(indonesian.json().message).toMatch(INDONESIAN);
    // Broken percent-encoding (not UTF-8) is refused the same way.
    expectRefused(await testApp.app.inject({ method: 'GET', url: `/api/v1/share/links/${request.token}%ED%A0%80` }));
  });

  it('refuses a NUL in the sign-in email and in the user agent it records', async () => {
    const login = (email: string, headers: Record<string, string> = {}) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email, password: 'bm90IGEgcmVhbCBjaXBoZXJ0ZXh0' },
        headers,
      });
    expectRefused(await login('siti\u0000@example.com'));
    expectRefused(await login('siti@example.com\u0000'));
    expectRefused(await login('siti@example.com', { 'user-agent': 'Mozilla/5.0\u0000' }));
    expect((await db().select({ n: count() }).from(sessions))[0]?.n).toBe(0);
  });

  it("refuses a NUL or a lone surrogate in the visitor report's userAgent, and stores nothing", async () => {
    for (const userAgent of ['Mozilla/5.0\u0000(X11)', 'Mozilla/5.0 \ud800', '\udc00Mozilla/5.0']) {
      expectRefused(
        await testApp.app.inject({
          method: 'POST',
          url: '/api/v1/locate/userAgent',
          payload: { ...visitorReport, userAgent },
        }),
      );
    }
    // The raw JSON escape too, as an attacker would write it.
    expectRefused(
      await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/locate/userAgent',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(visitorReport).replace('Mozilla', 'Mozi\\u0000lla'),
      }),
    );
    expect((await db().select({ n: count() }).from(visitorReports))[0]?.n).toBe(0);
  });

  it('refuses them in a query parameter, an object key and a nested value', async () => {
    expectRefused(await testApp.app.inject({ method: 'GET', url: '/api/v1/numbers/lookup?number=%2B6281%0012345678' }));
    expectRefused(await testApp.app.inject({ method: 'GET', url: '/api/v1/numbers/lookup?number=%ED%A0%80' }));
    expectRefused(
      await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/contact/messages',
        payload: { ...contactMessage, 'x\u0000': 1 },
      }),
    );
    expectRefused(
      await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/contact/messages',
        payload: { ...contactMessage, message: 'How does a request reach my mother? \ud83d' },
      }),
    );
    expect(
      (await db().select({ n: count() }).from(contactMessages).where(eq(contactMessages.email, 'siti@example.com')))[0]
        ?.n,
    ).toBe(0);
    // Whole characters outside the basic plane are text like any other.
    const emoji = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      payload: { ...contactMessage, message: 'How does a request reach my mother? 🙏' },
    });
    expect(emoji.statusCode).toBe(200);
  });

  it('refuses them inside arrays, at any depth', async () => {
    const nested = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      payload: { ...contactMessage, tags: ['fine', [{ deeper: ['still fine', 'broken \u0000'] }]] },
    });
    expectRefused(nested);
    expect(nested.json().message).toMatch(ENGLISH);
  });

  it('reads a long array in a body to its end, not into a server error', async () => {
    // 130,000 elements fit in the body limit; spread into one call, they overflowed the stack (a 500). The schema
    // then drops the property it does not know, as for any other.
    const payload = JSON.stringify({ ...contactMessage, padding: new Array(130_000).fill(0) });
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(200);
    const broken = JSON.stringify({ ...contactMessage, padding: [...new Array(130_000).fill(0), 'x\u0000'] });
    expectRefused(
      await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/contact/messages',
        headers: { 'content-type': 'application/json' },
        payload: broken,
      }),
    );
  });

  it("turns the database's refusal of a NUL into the same 400, should one get that far", async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/test/store-nul' });
    expectRefused(response);
    const indonesian = await testApp.app.inject({
      method: 'GET',
      url: '/api/test/store-nul',
      headers: { 'accept-language': 'id' },
    });
    expect(indonesian.json().message).toMatch(INDONESIAN);
  });
});
