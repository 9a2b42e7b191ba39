import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createSession } from '../../../src/auth/sessions';
import { createUser } from '../../../src/auth/users';
import { describeEachDatabase, type DriverName } from '../../support/databases';
import { encryptPassword } from '../../support/jsencrypt';
import { openLiveStream, openSse, type SseConnection } from '../../support/sse-client';
import { buildSecondInstance, buildTestApp, type TestApp } from '../../support/test-app';

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

// "Within seconds": the stream must end well before the next reconnect (about 15 minutes).
const WITHIN_MS = 5_000;

/** Resolves true when the stream ends within `ms`, false when it is still open then. */
function endsWithin(stream: SseConnection, ms = WITHIN_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

let counter = 0;
async function userWithTwoDevices(app: FastifyInstance) {
  counter += 1;
  const user = await createUser(app.db, {
    email: `revoked-${counter}-${Date.now()}@example.com`,
    displayName: 'Rina',
    password: 'old-passphrase-1',
  });
  const phone = await createSession(app.db, user.id, 'phone');
  const laptop = await createSession(app.db, user.id, 'laptop');
  return { user, phone, laptop };
}

describeEachDatabase('a revoked session’s live events', (driver: DriverName) => {
  let testApp: TestApp;
  let base: string;
  let publicKey: string;
  const open: SseConnection[] = [];

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    base = await listen(testApp.app);
    publicKey = (await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
  });

  afterEach(() => {
    for (const connection of open.splice(0)) connection.close();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function stream(token: string): Promise<SseConnection> {
    const connection = await openLiveStream(`${base}/api/v1/locate/events`, { cookie: `token=${token}` });
    open.push(connection);
    return connection;
  }

  it('ends within seconds when the session is ended from another device; the other device’s stream goes on', async () => {
    const { phone, laptop } = await userWithTwoDevices(testApp.app);
    const phoneStream = await stream(phone.token);
    const laptopStream = await stream(laptop.token);
    const revoked = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/personnal/sessions/${phone.sessionId}/revoke`,
      headers: { authorization: laptop.token },
    });
    expect(revoked.statusCode).toBe(200);
    expect(await endsWithin(phoneStream)).toBe(true);
    expect(await endsWithin(laptopStream, 500)).toBe(false);
  });

  it('ends within seconds on logout', async () => {
    const { phone } = await userWithTwoDevices(testApp.app);
    const phoneStream = await stream(phone.token);
    const logout = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: phone.token },
    });
    expect(logout.statusCode).toBe(200);
    expect(await endsWithin(phoneStream)).toBe(true);
  });

  it('ends the other devices’ streams within seconds on a password change', async () => {
    const { phone, laptop } = await userWithTwoDevices(testApp.app);
    const phoneStream = await stream(phone.token);
    const laptopStream = await stream(laptop.token);
    const changed = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/personnal/account/password',
      headers: { authorization: laptop.token },
      payload: {
        password: encryptPassword(publicKey, 'old-passphrase-1'),
        newPassword: encryptPassword(publicKey, 'a new and better passphrase'),
      },
    });
    expect(changed.statusCode).toBe(200);
    expect(await endsWithin(phoneStream)).toBe(true);
    // The device that made the change stays signed in.
    expect(await endsWithin(laptopStream, 500)).toBe(false);
  });

  it('ends every stream within seconds when the account is deleted', async () => {
    const { phone, laptop } = await userWithTwoDevices(testApp.app);
    const phoneStream = await stream(phone.token);
    const laptopStream = await stream(laptop.token);
    const deleted = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/personnal/account/delete',
      headers: { authorization: laptop.token },
      payload: { password: encryptPassword(publicKey, 'old-passphrase-1') },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await endsWithin(phoneStream)).toBe(true);
    expect(await endsWithin(laptopStream)).toBe(true);
  });

  it('refuses the reconnect: the browser is signed out', async () => {
    const { phone, laptop } = await userWithTwoDevices(testApp.app);
    await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/personnal/sessions/${phone.sessionId}/revoke`,
      headers: { authorization: laptop.token },
    });
    const again = await openSse(`${base}/api/v1/locate/events`, { cookie: `token=${phone.token}` });
    expect(again.status).toBe(401);
  });
});

describe('a revoked session’s live events across two instances on one PostgreSQL', () => {
  const run = process.env.KABARI_TEST_POSTGRES_URL ? it : it.skip;

  run('a session ended through one instance ends its stream on the other within seconds', async () => {
    const first = await buildTestApp('postgres');
    let second: FastifyInstance | undefined;
    try {
      second = await buildSecondInstance(first);
      const secondBase = await listen(second);
      const { phone, laptop } = await userWithTwoDevices(first.app);
      const phoneStream = await openLiveStream(`${secondBase}/api/v1/locate/events`, {
        cookie: `token=${phone.token}`,
      });
      const laptopStream = await openLiveStream(`${secondBase}/api/v1/locate/events`, {
        cookie: `token=${laptop.token}`,
      });
      const revoked = await first.app.inject({
        method: 'POST',
        url: `/api/v1/personnal/sessions/${phone.sessionId}/revoke`,
        headers: { authorization: laptop.token },
      });
      expect(revoked.statusCode).toBe(200);
      expect(await endsWithin(phoneStream)).toBe(true);
      expect(await endsWithin(laptopStream, 500)).toBe(false);
      laptopStream.close();
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
