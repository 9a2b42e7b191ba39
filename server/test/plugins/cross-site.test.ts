import { eq } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { createUser } from '../../src/auth/users';
import { sessions } from '../../src/db/schema/accounts';
import { tableDigests } from '../support/table-digests';
import { buildTestApp, type TestApp } from '../support/test-app';

const OWN_ORIGIN = 'http://localhost:8080';

/** The rule every state-changing route follows, whatever it does: tried on a few that change different things. */
describe('cross-site requests', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite', { PORT: '8080' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function signedIn() {
    const user = await createUser(testApp.app.db, {
      email: `cross-site-${Date.now()}-${Math.random()}@example.com`,
      displayName: 'Rina',
      password: 'correct horse battery',
    });
    const { token, sessionId } = await createSession(testApp.app.db, user.id, 'jest');
    return { token, sessionId };
  }

  async function sessionLive(sessionId: string): Promise<boolean> {
    const [row] = await testApp.app.db.select().from(sessions).where(eq(sessions.id, sessionId));
    return row?.revokedAt === null;
  }

  const contact = {
    name: 'Rina',
    email: 'rina@example.com',
    topic: 'question',
    message: 'A question about my subscription, please.',
    locale: 'en',
  };

  /** Every table's rows: a refused request leaves them all as they were (it is refused before any route runs). */
  const stored = () => tableDigests(testApp.app.db);

  it('refuses a post from another origin with a clear message, in English and Indonesian, and changes nothing', async () => {
    const { token, sessionId } = await signedIn();
    const before = await stored();
    const english = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { origin: 'https://evil.example', cookie: `token=${token}` },
    });
    expect(english.statusCode).toBe(403);
    expect(english.json()).toEqual({
      status: 403,
      message: 'This request came from another website and was refused. Please use Kabari itself.',
      data: null,
    });
    const indonesian = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { origin: 'https://evil.example', cookie: `token=${token}`, 'accept-language': 'id-ID,id;q=0.9' },
    });
    expect(indonesian.statusCode).toBe(403);
    expect(indonesian.json().message).toBe(
      'Permintaan ini datang dari situs web lain sehingga ditolak. Silakan gunakan Kabari secara langsung.',
    );
    expect(await sessionLive(sessionId)).toBe(true);

    const contactPost = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      headers: { origin: 'https://evil.example' },
      payload: contact,
    });
    expect(contactPost.statusCode).toBe(403);
    expect(await stored()).toBe(before);
  });

  it('refuses an opaque origin ("null") and another origin on the same site, storing nothing', async () => {
    const before = await stored();
    for (const origin of ['null', 'http://localhost:9999', 'https://localhost:8080', 'http://sub.localhost:8080']) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/contact/messages',
        headers: { origin },
        payload: contact,
      });
      expect({ origin, status: response.statusCode }).toEqual({ origin, status: 403 });
    }
    expect(await stored()).toBe(before);
  });

  it('without Origin, refuses what Sec-Fetch-Site says is cross-site or same-site, and lets same-origin through', async () => {
    const before = await stored();
    for (const site of ['cross-site', 'same-site']) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/contact/messages',
        headers: { 'sec-fetch-site': site },
        payload: contact,
      });
      expect({ site, status: response.statusCode }).toEqual({ site, status: 403 });
    }
    expect(await stored()).toBe(before);
    const sameOrigin = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      headers: { 'sec-fetch-site': 'same-origin' },
      payload: contact,
      remoteAddress: '10.9.0.1',
    });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it("lets Kabari's own pages through: the public URL's origin, and in a local trial 127.0.0.1 on the same port", async () => {
    const { token, sessionId } = await signedIn();
    for (const origin of [OWN_ORIGIN, 'http://127.0.0.1:8080']) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/contact/messages',
        headers: { origin, 'sec-fetch-site': 'same-origin' },
        payload: contact,
        remoteAddress: '10.9.0.2',
      });
      expect({ origin, status: response.statusCode }).toEqual({ origin, status: 200 });
    }
    const logout = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { origin: OWN_ORIGIN, cookie: `token=${token}` },
    });
    expect(logout.statusCode).toBe(200);
    expect(await sessionLive(sessionId)).toBe(false);
  });

  it('lets a plain HTML form post from its own pages through (no custom header needed)', async () => {
    const own = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      headers: {
        origin: OWN_ORIGIN,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'name=Rina',
    });
    // Whatever the route makes of a form body, the cross-site check did not refuse it.
    expect(own.statusCode).not.toBe(403);
    const foreign = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Rina',
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('lets a client that is not a browser (no Origin, no Sec-Fetch-Site) through, and reads from anywhere', async () => {
    const server = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      payload: contact,
      remoteAddress: '10.9.0.3',
    });
    expect(server.statusCode).toBe(200);
    const read = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/auth/publicKey',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(read.statusCode).toBe(200);
  });

  it('exempts the payment providers’ webhooks, which prove themselves by signature', async () => {
    for (const url of ['/api/v1/webhooks/stripe', '/api/v1/webhooks/paypal']) {
      const response = await testApp.app.inject({
        method: 'POST',
        url,
        headers: { origin: 'https://hooks.example', 'content-type': 'application/json' },
        payload: '{}',
      });
      expect({ url, refusedAsCrossSite: response.statusCode === 403 }).toEqual({ url, refusedAsCrossSite: false });
    }
  });
});

describe('cross-site requests behind an https PUBLIC_URL', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite', { PUBLIC_URL: 'https://kabari.example', PORT: '8080' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('allows only the public origin', async () => {
    const post = (origin: string) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: { origin },
      });
    expect((await post('https://kabari.example')).statusCode).toBe(200);
    expect((await post('http://kabari.example')).statusCode).toBe(403);
    expect((await post('http://localhost:8080')).statusCode).toBe(403);
    expect((await post('http://127.0.0.1:8080')).statusCode).toBe(403);
  });
});
