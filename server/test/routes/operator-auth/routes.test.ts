import { Secret, TOTP } from 'otpauth';
import { eq } from 'drizzle-orm';
import { operators } from '../../../src/db/schema/operators';
import { inviteOperator } from '../../../src/operators/enrolment';
import { OPERATOR_IDLE_MS, OPERATOR_SESSION_MAX_MS } from '../../../src/operators/operator-sessions';
import { OPERATOR_COOKIE } from '../../../src/plugins/operator-guard';
import { fakeOnly } from '../../support/fake-clock';
import { encryptPassword, tamper } from '../../support/jsencrypt';
import { buildTestApp, type TestApp } from '../../support/test-app';

const ORIGIN = 'http://localhost:8080';
const PASSWORD = 'a long operator passphrase';

/** The code an authenticator app shows for `secret` at `at`. */
function codeAt(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at,
  });
}

describe('operator identity routes', () => {
  let testApp: TestApp;
  let publicKey: string;
  let address = 0;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite', { PORT: '8080' });
    publicKey = (await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
  });

  /** The password as the console sends it: RSA-encrypted with the server's public key, as a subscriber's is. */
  const encrypt = (password: string) => encryptPassword(publicKey, password);

  afterAll(async () => {
    await testApp?.close();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  /** Each test signs in from its own address, so that one test's failures do not make another wait. */
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { origin: ORIGIN, ...headers },
      remoteAddress: `203.0.113.${address}`,
    });

  const cookieOf = (response: { cookies: { name: string; value: string }[] }) =>
    `${OPERATOR_COOKIE}=${response.cookies.find((cookie) => cookie.name === OPERATOR_COOKIE)?.value ?? ''}`;

  /** An operator enrolled through the routes: their email, authenticator secret, recovery codes and cookie. */
  async function enrolled() {
    address += 1;
    const email = `ops-${address}-${Date.now()}@example.com`;
    const { token } = await inviteOperator(testApp.app.db, email);
    const begun = await post('/api/v1/operator/enrolment/begin', { token });
    expect(begun.statusCode).toBe(200);
    const { secret, otpauthUrl } = begun.json().data;
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    // The code of the step before: the sign-in after it uses the current one.
    const finished = await post('/api/v1/operator/enrolment/finish', {
      token,
      password: encrypt(PASSWORD),
      code: codeAt(secret, Date.now() - 30_000),
    });
    expect(finished.statusCode).toBe(200);
    return {
      email,
      token,
      secret,
      recoveryCodes: finished.json().data.recoveryCodes as string[],
      cookie: cookieOf(finished),
    };
  }

  it('enrols with the link once: a secret, a password and a code give recovery codes and a session cookie', async () => {
    const operator = await enrolled();
    expect(operator.recoveryCodes).toHaveLength(10);
    expect(new Set(operator.recoveryCodes).size).toBe(10);
    const session = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/operator/session',
      headers: { cookie: operator.cookie },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().data.operator.email).toBe(operator.email);

    // The link is used up.
    const again = await post('/api/v1/operator/enrolment/begin', { token: operator.token });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toMatch(/does not work any more/);
    const indonesian = await post(
      '/api/v1/operator/enrolment/begin',
      { token: operator.token },
      { 'accept-language': 'id' },
    );
    expect(indonesian.json().message).toMatch(/sudah tidak berlaku/);
  });

  it('refuses an expired link, and a finish whose code is not of the secret shown', async () => {
    address += 1;
    const email = `expired-${Date.now()}@example.com`;
    const { token } = await inviteOperator(testApp.app.db, email);
    const begun = await post('/api/v1/operator/enrolment/begin', { token });
    const wrong = await post('/api/v1/operator/enrolment/finish', {
      token,
      password: encrypt(PASSWORD),
      code: codeAt(begun.json().data.secret, Date.now() - 10 * 60_000),
    });
    expect(wrong.statusCode).toBe(400);
    await testApp.app.db
      .update(operators)
      .set({ enrolmentExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(operators.email, email));
    expect((await post('/api/v1/operator/enrolment/begin', { token })).statusCode).toBe(404);
  });

  it('sets the cookie HttpOnly, SameSite=Strict, on the console API path only, for at most 12 hours', async () => {
    const operator = await enrolled();
    const signIn = await post('/api/v1/operator/session', {
      email: operator.email,
      password: encrypt(PASSWORD),
      code: codeAt(operator.secret, Date.now()),
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = signIn.cookies.find((each) => each.name === OPERATOR_COOKIE)!;
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/v1/operator',
      maxAge: 12 * 60 * 60,
    });
    // Served over plain http here (PUBLIC_URL http://localhost): Secure comes with an https public address.
    expect(cookie.secure).toBeFalsy();
    expect(signIn.json().data.operator.email).toBe(operator.email);
  });

  it('refuses a wrong code and a code already used, with one message, and takes a recovery code only once', async () => {
    const operator = await enrolled();
    const now = Date.now();
    const attempt = (code: string, password = PASSWORD) =>
      post('/api/v1/operator/session', { email: operator.email, password: encrypt(password), code });

    const wrongCode = await attempt(codeAt(operator.secret, now + 5 * 60_000));
    const wrongPassword = await attempt(codeAt(operator.secret, now), 'not the passphrase');
    const unknown = await post('/api/v1/operator/session', {
      email: 'nobody@example.com',
      password: encrypt(PASSWORD),
      code: '123456',
    });
    for (const refused of [wrongCode, wrongPassword, unknown]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe('The email, password or code is incorrect.');
    }

    const code = codeAt(operator.secret, now);
    expect((await attempt(code)).statusCode).toBe(200);
    expect((await attempt(code)).statusCode).toBe(401);

    const [recovery] = operator.recoveryCodes;
    expect((await attempt(recovery!.toUpperCase())).statusCode).toBe(200);
    expect((await attempt(recovery!)).statusCode).toBe(401);
  });

  it('signs nobody in with the password as typed, nor with a ciphertext tampered with: the same 401', async () => {
    const operator = await enrolled();
    const now = Date.now();
    const good = encrypt(PASSWORD);
    for (const password of [PASSWORD, tamper(good)]) {
      const refused = await post('/api/v1/operator/session', {
        email: operator.email,
        password,
        code: codeAt(operator.secret, now),
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe('The email, password or code is incorrect.');
    }
    // The code was not taken by the refusals: the encrypted password signs in with it.
    const signedIn = await post('/api/v1/operator/session', {
      email: operator.email,
      password: good,
      code: codeAt(operator.secret, now),
    });
    expect(signedIn.statusCode).toBe(200);
  });

  it('asks for the password when none is sent, or an empty one is encrypted, before counting an attempt', async () => {
    const operator = await enrolled();
    // Six empty ones decrypted: more than the failures an operator gets before waiting, were they counted.
    for (const password of ['', ...Array.from({ length: 6 }, () => encrypt(''))]) {
      const refused = await post(
        '/api/v1/operator/session',
        { email: operator.email, password, code: '000000' },
        { 'accept-language': 'id' },
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/Silakan masukkan kata sandi Anda\.$/);
    }
    const tooLong = await post('/api/v1/operator/session', {
      email: operator.email,
      password: 'A'.repeat(2049),
      code: '000000',
    });
    expect(tooLong.statusCode).toBe(400);
    // None of them counted as a failure: the right password and code sign in at once.
    const signedIn = await post('/api/v1/operator/session', {
      email: operator.email,
      password: encrypt(PASSWORD),
      code: codeAt(operator.secret, Date.now()),
    });
    expect(signedIn.statusCode).toBe(200);
  });

  it('refuses a short or common password at enrolment once decrypted, in both languages, and keeps the link', async () => {
    address += 1;
    const email = `rules-${Date.now()}@example.com`;
    const { token } = await inviteOperator(testApp.app.db, email);
    const { secret } = (await post('/api/v1/operator/enrolment/begin', { token })).json().data;
    const finish = (password: string, language: string) =>
      post(
        '/api/v1/operator/enrolment/finish',
        { token, password: encrypt(password), code: codeAt(secret, Date.now()) },
        { 'accept-language': language },
      );
    const short = await finish('seven77', 'en');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('The password must be 8 to 128 characters long.');
    const shortId = await finish('seven77', 'id');
    expect(shortId.json().message).toBe('Kata sandi harus terdiri dari 8 sampai 128 karakter.');
    const common = await finish('bismillah', 'en');
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toBe(
      'This password is one of the most common ones, so it is easy to guess. Please choose another.',
    );
    const commonId = await finish('bismillah', 'id');
    expect(commonId.json().message).toBe(
      'Kata sandi ini termasuk yang paling umum dipakai sehingga mudah ditebak. Silakan pilih kata sandi lain.',
    );
    // The link still works: a good password finishes it.
    expect((await finish(PASSWORD, 'en')).statusCode).toBe(200);
  });

  it('makes failed sign-ins wait, per operator, with the wait in the answer', async () => {
    const operator = await enrolled();
    const wrong = { email: operator.email, password: encrypt('wrong'), code: '000000' };
    let answer = await post('/api/v1/operator/session', wrong);
    for (let i = 0; i < 10 && answer.statusCode === 401; i++) answer = await post('/api/v1/operator/session', wrong);
    expect(answer.statusCode).toBe(429);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    // The right password and code wait too.
    const right = await post('/api/v1/operator/session', {
      email: operator.email,
      password: encrypt(PASSWORD),
      code: codeAt(operator.secret, Date.now()),
    });
    expect(right.statusCode).toBe(429);
  });

  it('ends a session after 30 idle minutes, and after 12 hours however busy', async () => {
    const start = new Date();
    fakeOnly(['Date'], { now: start });
    const operator = await enrolled();
    const session = () =>
      testApp.app.inject({ method: 'GET', url: '/api/v1/operator/session', headers: { cookie: operator.cookie } });

    // Busy every 20 minutes: alive until the 12 hours are up.
    for (let at = 20; at < 12 * 60; at += 20) {
      jest.setSystemTime(start.getTime() + at * 60_000);
      if (at % 120 === 0 || at > 11 * 60) expect((await session()).statusCode).toBe(200);
      else await session();
    }
    jest.setSystemTime(start.getTime() + OPERATOR_SESSION_MAX_MS + 1000);
    expect((await session()).statusCode).toBe(404);

    const idle = await enrolled();
    const idleSession = () =>
      testApp.app.inject({ method: 'GET', url: '/api/v1/operator/session', headers: { cookie: idle.cookie } });
    const signedIn = Date.now();
    jest.setSystemTime(signedIn + OPERATOR_IDLE_MS - 60_000);
    expect((await idleSession()).statusCode).toBe(200);
    jest.setSystemTime(signedIn + 2 * (OPERATOR_IDLE_MS - 60_000));
    expect((await idleSession()).statusCode).toBe(200);
    jest.setSystemTime(signedIn + 2 * (OPERATOR_IDLE_MS - 60_000) + OPERATOR_IDLE_MS + 1000);
    expect((await idleSession()).statusCode).toBe(404);
  });

  it('signs out, and lists sign-in, sign-out and enrolment in the audit log, newest first', async () => {
    const operator = await enrolled();
    const signOut = await testApp.app.inject({
      method: 'DELETE',
      url: '/api/v1/operator/session',
      headers: { cookie: operator.cookie, origin: ORIGIN },
    });
    expect(signOut.statusCode).toBe(200);
    expect(
      (
        await testApp.app.inject({
          method: 'GET',
          url: '/api/v1/operator/session',
          headers: { cookie: operator.cookie },
        })
      ).statusCode,
    ).toBe(404);

    const reader = await enrolled();
    const log = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/operator/audit-log',
      headers: { cookie: reader.cookie },
    });
    expect(log.statusCode).toBe(200);
    const mine = log
      .json()
      .data.entries.filter((entry: { operatorEmail: string }) => entry.operatorEmail === operator.email)
      .map((entry: { action: string }) => entry.action);
    expect(mine).toEqual(['session.sign_out', 'operator.enrol', 'operator.invite']);
    expect(
      (
        await testApp.app.inject({
          method: 'GET',
          url: '/api/v1/operator/audit-log?before=x',
          headers: { cookie: reader.cookie },
        })
      ).statusCode,
    ).toBe(400);
  });
});
