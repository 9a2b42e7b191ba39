import { operators } from '../../src/db/schema/operators';
import { createSession } from '../../src/auth/sessions';
import { createUser } from '../../src/auth/users';
import { OPERATOR_COOKIE } from '../../src/plugins/operator-guard';
import { startOperatorSession } from '../../src/operators/operator-sessions';
import { buildTestApp, type TestApp } from '../support/test-app';

const OWN_ORIGIN = 'http://localhost:8080';
const PROBE = '/api/v1/operator/probe';

/** The headers an answer's bytes do not depend on (each answer has its own id, date and length). */
function steadyHeaders(headers: Record<string, unknown>) {
  const { 'x-request-id': _id, date: _date, 'content-length': _length, ...rest } = headers;
  return rest;
}

describe('the operator guard', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(
      'pglite',
      { PORT: '8080' },
      {
        beforeReady: (app) => {
          app.get(PROBE, async (request) => ({ operator: request.operator?.email ?? null }));
          app.post(PROBE, async (request) => ({ operator: request.operator?.email ?? null }));
          app.post('/api/v1/operator/open-probe', { config: { operatorAccess: 'open' } }, async (request) => ({
            operator: request.operator?.email ?? null,
          }));
        },
      },
    );
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function operatorCookie(): Promise<string> {
    const [operator] = await testApp.app.db
      .insert(operators)
      .values({ email: `guard-${Date.now()}-${Math.random()}@example.com`, enrolledAt: new Date() })
      .returning();
    const { token } = await startOperatorSession(testApp.app.db, operator!);
    return `${OPERATOR_COOKIE}=${token}`;
  }

  /** The guarded route's answer and an unknown path's, with the path each names made the same. */
  async function beside(method: 'GET' | 'POST', headers: Record<string, string>) {
    const unknownPath = '/api/v1/operator/xxxxx';
    const guarded = await testApp.app.inject({ method, url: PROBE, headers });
    const unknown = await testApp.app.inject({ method, url: unknownPath, headers });
    return { guarded, unknown, unknownBody: unknown.body.replace(unknownPath, PROBE) };
  }

  it('answers a visitor without a session exactly as it answers an unknown path', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const { guarded, unknown, unknownBody } = await beside(method, { origin: OWN_ORIGIN });
      expect(guarded.statusCode).toBe(404);
      expect(guarded.body).toBe(unknownBody);
      expect(steadyHeaders(guarded.headers)).toEqual(steadyHeaders(unknown.headers));
    }
  });

  it("answers a subscriber's session, and a made-up operator cookie, with the same 404", async () => {
    const user = await createUser(testApp.app.db, {
      email: `guard-subscriber-${Date.now()}@example.com`,
      displayName: 'Rina',
      password: 'correct horse battery',
    });
    const { token } = await createSession(testApp.app.db, user.id, 'jest');
    for (const cookie of [`token=${token}`, `${OPERATOR_COOKIE}=${token}`, `${OPERATOR_COOKIE}=${'a'.repeat(43)}`]) {
      const { guarded, unknownBody } = await beside('GET', { cookie });
      expect(guarded.statusCode).toBe(404);
      expect(guarded.body).toBe(unknownBody);
    }
  });

  it("lets a signed-in operator through and sets request.operator; a change needs Kabari's own origin", async () => {
    const cookie = await operatorCookie();
    const read = await testApp.app.inject({ method: 'GET', url: PROBE, headers: { cookie } });
    expect(read.statusCode).toBe(200);
    expect(read.json().operator).toMatch(/^guard-/);

    const own = await testApp.app.inject({ method: 'POST', url: PROBE, headers: { cookie, origin: OWN_ORIGIN } });
    expect(own.statusCode).toBe(200);
    for (const headers of [{ cookie, origin: 'https://evil.example' }, { cookie }]) {
      const refused = await testApp.app.inject({ method: 'POST', url: PROBE, headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().data).toBeNull();
    }
  });

  it('checks the origin of an open route too, which needs no session', async () => {
    const url = '/api/v1/operator/open-probe';
    expect((await testApp.app.inject({ method: 'POST', url, headers: { origin: OWN_ORIGIN } })).json()).toEqual({
      operator: null,
    });
    expect((await testApp.app.inject({ method: 'POST', url })).statusCode).toBe(403);
  });

  it("rate limits the console's routes, with the time to wait", async () => {
    const cookie = await operatorCookie();
    const headers = { cookie, 'x-forwarded-for': '198.51.100.7' };
    let answer = await testApp.app.inject({ method: 'GET', url: PROBE, headers, remoteAddress: '198.51.100.7' });
    for (let i = 0; i < 130 && answer.statusCode === 200; i++) {
      answer = await testApp.app.inject({ method: 'GET', url: PROBE, headers, remoteAddress: '198.51.100.7' });
    }
    expect(answer.statusCode).toBe(429);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });
});
