import { eq, sql } from 'drizzle-orm';
import { createUser } from '../../../src/auth/users';
import { issueAuthCode } from '../../../src/auth/verification-codes';
import { throttleKey } from '../../../src/auth/throttle';
import { authThrottles, sessions, verificationCodes } from '../../../src/db/schema/accounts';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { encryptPassword, tamper } from '../../support/jsencrypt';
import { buildTestApp, type TestApp } from '../../support/test-app';
import { sessionTokenOf } from '../../support/session-token';

let ipCounter = 0;
/** Each test talks from its own address, so the per-IP limits of one test never touch another. */
function freshIp(): string {
  ipCounter += 1;
  return `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

let userCounter = 0;
function freshEmail(): string {
  userCounter += 1;
  return `user${userCounter}.${Date.now()}@example.com`;
}

describeEachDatabase('auth routes', (driver) => {
  let testApp: TestApp;
  let publicKey: string;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' });
    publicKey = response.json().data.publicKey;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const encrypt = (password: string) => encryptPassword(publicKey, password);

  function post(url: string, payload: object, options: { ip?: string; headers?: Record<string, string> } = {}) {
    return testApp.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: options.ip ?? freshIp(),
      headers: options.headers,
    });
  }

  async function newUser(options: { password?: string; locale?: 'en' | 'id'; displayName?: string } = {}) {
    const email = freshEmail();
    const user = await createUser(testApp.app.db, {
      email,
      displayName: options.displayName ?? 'Rina',
      password: options.password ?? 'correct horse',
      locale: options.locale ?? 'en',
    });
    return { email, user };
  }

  async function login(email: string, password: string, ip?: string) {
    return post('/api/v1/auth/login', { email, password: encrypt(password) }, { ip });
  }

  async function sessionWith(headers: Record<string, string>) {
    return testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers });
  }

  async function lastEmailTo(email: string) {
    const [message] = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, email))
      .orderBy(sql`${outboxMessages.createdAt} desc`)
      .limit(1);
    return message;
  }

  async function requestCode(email: string, extra: object = {}, headers?: Record<string, string>) {
    const response = await post('/api/v1/auth/sendCode', { email, type: 1, ...extra }, { headers });
    expect(response.json()).toEqual({ status: 200, message: 'ok', data: { success: true } });
    const message = await lastEmailTo(email);
    const code = message?.bodyText.match(/\b(\d{6})\b/)?.[1];
    return { message, code: code as string };
  }

  describe('GET /api/v1/auth/publicKey', () => {
    it('serves a 2048-bit RSA public key as PEM, the same on every call', async () => {
      expect(publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
      const again = await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' });
      expect(again.json().data.publicKey).toBe(publicKey);
    });
  });

  describe('POST /api/v1/auth/login', () => {
    it('signs in with the email (any case, spaces trimmed) and the encrypted password', async () => {
      const { email, user } = await newUser({ displayName: 'Rina Wati', locale: 'id' });
      const response = await login(`  ${email.toUpperCase()} `, 'correct horse');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.status).toBe(200);
      const token = sessionTokenOf(response);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.data.user.userCacheInfo).toEqual({
        id: user.id,
        email,
        displayName: 'Rina Wati',
        phone: null,
        locale: 'id',
        createdAt: user.createdAt.toISOString(),
      });
      expect(JSON.stringify(body)).not.toContain('password');

      // Only a hash of the token is stored.
      const rows = await testApp.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0]?.tokenHash).not.toBe(token);
    });

    it('answers a wrong password, an unknown email and a tampered or garbled ciphertext exactly alike', async () => {
      const { email } = await newUser();
      const good = encrypt('correct horse');
      const answers = await Promise.all([
        post('/api/v1/auth/login', { email, password: encrypt('wrong horse') }),
        post('/api/v1/auth/login', { email: freshEmail(), password: good }),
        post('/api/v1/auth/login', { email, password: tamper(good) }),
        post('/api/v1/auth/login', { email, password: tamper(good, 1) }),
        post('/api/v1/auth/login', { email, password: 'bm90IGEgY2lwaGVydGV4dA==' }),
        post('/api/v1/auth/login', { email, password: '%%%' }),
      ]);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(400);
        expect(answer.body).toBe(JSON.stringify({ status: 400, message: 'Incorrect email or password.', data: null }));
      }
    });

    it('validates its input with the product’s messages', async () => {
      const invalid = await post('/api/v1/auth/login', { email: 'rina@', password: 'x' });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().message).toBe('email: Enter valid email address');
      const empty = await post('/api/v1/auth/login', { email: 'rina@example.com', password: '' });
      expect(empty.json().message).toBe('password: Please input a your password');
    });

    const key = (kind: string, value: string) => throttleKey(testApp.app.auth.secrets.hmacSecret, kind, value);
    /** As if every wait had passed. */
    const waitOut = () =>
      testApp.app.db.execute(sql`update auth_throttles set blocked_until = now() - interval '1 second'`);

    it("cannot be used to keep someone out: an attacker's failures from another address leave the right password working", async () => {
      const { email } = await newUser();
      const attacker = freshIp();
      const answers: number[] = [];
      for (let attempt = 0; attempt < 15; attempt += 1) {
        answers.push((await login(email, `wrong horse ${attempt}`, attacker)).statusCode);
      }
      // The attacker's own address waits, growing; the account is not locked.
      expect(answers.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
      expect(answers).toContain(429);
      const owner = await login(email, 'correct horse', freshIp());
      expect(owner.statusCode).toBe(200);
    });

    /** The wait the last failure set on a counter, in seconds (0: none). */
    async function waitSet(kind: string, value: string): Promise<number> {
      const [row] = await testApp.app.db
        .select()
        .from(authThrottles)
        .where(eq(authThrottles.key, key(kind, value)));
      if (!row?.blockedUntil) return 0;
      return Math.round((row.blockedUntil.getTime() - row.windowStartedAt.getTime()) / 1000);
    }
    /** The wait goes on for a minute more (the machine may be slower than a one-second wait). */
    const holdWaits = () =>
      testApp.app.db.execute(
        sql`update auth_throttles set blocked_until = now() + interval '1 minute' where blocked_until is not null`,
      );

    it('makes one address wait longer after each further failure for an account, with a clear message', async () => {
      const { email } = await newUser();
      const ip = freshIp();
      const pair = `${email}\n${ip}`;
      for (let attempt = 0; attempt < 5; attempt += 1)
        expect((await login(email, 'wrong horse', ip)).statusCode).toBe(400);
      expect(await waitSet('login:account-ip', pair)).toBe(0);
      const waits: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        await waitOut();
        expect((await login(email, 'wrong horse', ip)).statusCode).toBe(400);
        waits.push(await waitSet('login:account-ip', pair));
      }
      expect(waits).toEqual([1, 2, 4, 8, 16]);
      await holdWaits();
      const refused = await login(email, 'correct horse', ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/^Too many failed login attempts for this account\. Please try again in /);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const refusedInIndonesian = await post(
        '/api/v1/auth/login',
        { email, password: encrypt('correct horse') },
        { ip, headers: { 'accept-language': 'id' } },
      );
      expect(refusedInIndonesian.json().message).toMatch(/^Terlalu banyak login gagal untuk akun ini\. /);
      // Once the wait is over, the right password works and the count starts afresh.
      await waitOut();
      expect((await login(email, 'correct horse', ip)).statusCode).toBe(200);
      expect((await login(email, 'wrong horse', ip)).statusCode).toBe(400);
      expect(await waitSet('login:account-ip', pair)).toBe(0);
    });

    it('failures from many addresses make every address wait a little for that account, never long', async () => {
      const { email } = await newUser();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect((await login(email, 'wrong horse', freshIp())).statusCode).toBe(400);
      }
      expect(await waitSet('login:account', email)).toBe(0);
      expect((await login(email, 'wrong horse', freshIp())).statusCode).toBe(400);
      expect(await waitSet('login:account', email)).toBe(1);
      // However many failures came before, the account-wide wait stays short.
      await testApp.app.db.execute(
        sql`update auth_throttles set count = 500, blocked_until = null where key = ${key('login:account', email)}`,
      );
      expect((await login(email, 'wrong horse', freshIp())).statusCode).toBe(400);
      expect(await waitSet('login:account', email)).toBe(60);
      const waiting = await login(email, 'correct horse', freshIp());
      expect(waiting.statusCode).toBe(429);
      expect(Number(waiting.headers['retry-after'])).toBeLessThanOrEqual(60);
      await waitOut();
      expect((await login(email, 'correct horse', freshIp())).statusCode).toBe(200);
    });

    it('counts failures only, and clears them on success', async () => {
      const { email } = await newUser();
      const ip = freshIp();
      for (let attempt = 0; attempt < 4; attempt += 1)
        expect((await login(email, 'wrong horse', ip)).statusCode).toBe(400);
      expect((await login(email, 'correct horse', ip)).statusCode).toBe(200);
      // Had the four earlier failures still counted, the sixth below would already be refused.
      for (let attempt = 0; attempt < 6; attempt += 1)
        expect((await login(email, 'wrong horse', ip)).statusCode).toBe(400);
      await holdWaits();
      expect((await login(email, 'correct horse', ip)).statusCode).toBe(429);
    });

    it('makes an address that fails for many accounts wait', async () => {
      const ip = freshIp();
      await testApp.app.db.execute(
        sql`insert into auth_throttles (key, count, window_started_at, blocked_until)
            values (${key('login:ip', ip)}, 30, now(), now() + interval '5 minutes')`,
      );
      const { email } = await newUser();
      const response = await login(email, 'correct horse', ip);
      expect(response.statusCode).toBe(429);
      expect(response.json().message).toMatch(/^Too many login attempts from this network\. Please try again in /);
      expect((await login(email, 'correct horse', freshIp())).statusCode).toBe(200);
    });

    it('keeps no email or address in the clear in its counters', async () => {
      const { email } = await newUser();
      const ip = freshIp();
      await login(email, 'wrong horse', ip);
      await post('/api/v1/auth/sendCode', { email, type: 1 }, { ip });
      await post(
        '/api/v1/auth/resetPassword',
        { email, password: encrypt('whatever passphrase'), verificationCode: '000000' },
        { ip },
      );
      await post('/api/v1/auth/loginByAuthCode', { authCode: 'x'.repeat(43) }, { ip });
      const keys = (await testApp.app.db.select().from(authThrottles)).map((row) => row.key);
      expect(keys).toEqual(expect.arrayContaining([key('login:ip', ip), key('login:account', email)]));
      for (const stored of keys) {
        expect(stored).not.toContain(email);
        expect(stored).not.toContain(ip);
      }
    });
  });

  /** The session cookie a response sets (light-my-request parses Set-Cookie). */
  function sessionCookie(response: { cookies: Array<Record<string, unknown>> }) {
    return response.cookies.find((cookie) => cookie.name === 'token');
  }

  describe('the session cookie', () => {
    it('is set by the server on login: HttpOnly, SameSite=Lax, path /, 30 days; the body carries no token', async () => {
      const { email } = await newUser();
      const response = await login(email, 'correct horse');
      expect(response.statusCode).toBe(200);
      const cookie = sessionCookie(response);
      expect(cookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax', maxAge: 30 * 24 * 60 * 60 });
      expect(cookie?.secure).toBeFalsy();
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(response.json().data.token).toBeUndefined();
      expect(response.body).not.toContain(String(cookie?.value));
      expect((await sessionWith({ cookie: `token=${cookie?.value}` })).statusCode).toBe(200);
    });

    it('is set on a sign-in by auth code too', async () => {
      const { email } = await newUser();
      const authCode = await issueAuthCode(testApp.app.db, testApp.app.auth.secrets.hmacSecret, email);
      const response = await post('/api/v1/auth/loginByAuthCode', { authCode });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.token).toBeUndefined();
      const cookie = sessionCookie(response);
      expect(cookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
      expect((await sessionWith({ cookie: `token=${cookie?.value}` })).statusCode).toBe(200);
    });

    it('is cleared by the server on logout', async () => {
      const { email } = await newUser();
      const token = sessionCookie(await login(email, 'correct horse'))?.value as string;
      const logout = await post('/api/v1/auth/logout', {}, { headers: { cookie: `token=${token}` } });
      expect(logout.statusCode).toBe(200);
      const cleared = sessionCookie(logout);
      expect(cleared).toMatchObject({ value: '', path: '/', httpOnly: true, sameSite: 'Lax' });
      expect(cleared?.maxAge === 0 || (cleared?.expires as Date).getTime() <= Date.now()).toBe(true);
      expect((await sessionWith({ cookie: `token=${token}` })).statusCode).toBe(401);
    });

    it('is cleared by the server on a 401', async () => {
      const response = await sessionWith({ cookie: `token=${'A'.repeat(43)}` });
      expect(response.statusCode).toBe(401);
      expect(sessionCookie(response)).toMatchObject({ value: '', path: '/', httpOnly: true });
    });

    it('is set again when the session slides forward, so it lasts as long as the session', async () => {
      const { email, user } = await newUser();
      const token = sessionCookie(await login(email, 'correct horse'))?.value as string;
      await testApp.app.db
        .update(sessions)
        .set({ lastSeenAt: new Date(Date.now() - 10 * 60 * 1000) })
        .where(eq(sessions.userId, user.id));
      const slid = await sessionWith({ cookie: `token=${token}` });
      expect(slid.statusCode).toBe(200);
      expect(sessionCookie(slid)).toMatchObject({ value: token, httpOnly: true, maxAge: 30 * 24 * 60 * 60 });
      // Seen a moment ago: nothing to renew.
      expect(sessionCookie(await sessionWith({ cookie: `token=${token}` }))).toBeUndefined();
    });
  });

  describe('sessions', () => {
    it('accept the token raw, as Bearer, or in the token cookie; logout revokes it', async () => {
      const { email } = await newUser();
      const token = sessionTokenOf(await login(email, 'correct horse'));

      const ways: Record<string, string>[] = [
        { authorization: token },
        { authorization: `Bearer ${token}` },
        { cookie: `token=${token}` },
      ];
      for (const headers of ways) {
        const response = await sessionWith(headers);
        expect(response.statusCode).toBe(200);
        expect(response.json().data.userCacheInfo.email).toBe(email);
      }

      const logout = await post('/api/v1/auth/logout', {}, { headers: { authorization: token } });
      expect(logout.json()).toEqual({ status: 200, message: 'ok', data: { success: true } });
      const after = await sessionWith({ authorization: token });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ status: 401, message: 'Login expired, please log in again.', data: null });
    });

    it('answer 401 without a token or with an unknown one, and logout is still fine', async () => {
      expect((await sessionWith({})).statusCode).toBe(401);
      expect((await sessionWith({ authorization: 'Bearer nope' })).statusCode).toBe(401);
      expect((await sessionWith({ authorization: 'A'.repeat(43) })).statusCode).toBe(401);
      expect((await post('/api/v1/auth/logout', {})).statusCode).toBe(200);
    });

    it('are refused once expired', async () => {
      const { email, user } = await newUser();
      const token = sessionTokenOf(await login(email, 'correct horse'));
      await testApp.app.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.userId, user.id));
      expect((await sessionWith({ authorization: token })).statusCode).toBe(401);
    });
  });

  describe('POST /api/v1/auth/sendCode and /resetPassword', () => {
    it('emails a 6-digit code in the language asked for, and resets the password with it', async () => {
      const { email } = await newUser({ password: 'old password', displayName: 'Budi', locale: 'en' });
      const otherDevice = sessionTokenOf(await login(email, 'old password'));

      const { message, code } = await requestCode(email, { locale: 'id' });
      expect(message).toMatchObject({ channel: 'email', locale: 'id', subject: 'Kode reset kata sandi Kabari Anda' });
      expect(message?.bodyText).toContain('Halo Budi,');
      expect(message?.bodyHtml).toContain(code);
      expect(code).toMatch(/^\d{6}$/);

      const reset = await post('/api/v1/auth/resetPassword', {
        email,
        password: encrypt('new password'),
        verificationCode: code,
      });
      expect(reset.json()).toEqual({ status: 200, message: 'ok', data: { success: true } });

      expect((await login(email, 'old password')).statusCode).toBe(400);
      expect((await login(email, 'new password')).statusCode).toBe(200);
      // The reset ended the sessions opened with the old password.
      expect((await sessionWith({ authorization: otherDevice })).statusCode).toBe(401);

      // A code works once.
      const again = await post('/api/v1/auth/resetPassword', {
        email,
        password: encrypt('third password'),
        verificationCode: code,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('The verification code is incorrect or has expired.');
    });

    it("uses Accept-Language, else the account's language, for the email", async () => {
      const { email } = await newUser({ locale: 'id' });
      expect((await requestCode(email)).message?.locale).toBe('id');
      expect((await requestCode(email, {}, { 'accept-language': 'en-US,en;q=0.9' })).message).toMatchObject({
        locale: 'en',
        subject: 'Your Kabari password reset code',
      });
    });

    it('answers success for an email without an account, and sends nothing', async () => {
      const email = freshEmail();
      const response = await post('/api/v1/auth/sendCode', { email, type: 1 });
      expect(response.json()).toEqual({ status: 200, message: 'ok', data: { success: true } });
      expect(await lastEmailTo(email)).toBeUndefined();
    });

    it('refuses other code types', async () => {
      // Types 2 (refund request) and 3 (account deletion) belong to billing (server/test/routes/refunds, account).
      const response = await post('/api/v1/auth/sendCode', { email: freshEmail(), type: 4 });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        'type: type must be 1 (password reset), 2 (refund request) or 3 (account deletion)',
      );
    });

    it('sends at most 5 codes per email per hour', async () => {
      const { email } = await newUser();
      for (let attempt = 0; attempt < 5; attempt += 1) await requestCode(email);
      const sixth = await post('/api/v1/auth/sendCode', { email, type: 1 });
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().message).toMatch(/^Too many codes requested for this email\. Please try again in /);
    });

    it('kills a code after 5 wrong attempts, and an earlier code when a new one is sent', async () => {
      const { email } = await newUser();
      const first = await requestCode(email);
      const second = await requestCode(email);
      const withCode = (verificationCode: string) =>
        post('/api/v1/auth/resetPassword', { email, password: encrypt('new password'), verificationCode });

      expect((await withCode(first.code === second.code ? '000000' : first.code)).statusCode).toBe(400);
      const wrong = second.code === '123456' ? '654321' : '123456';
      for (let attempt = 0; attempt < 4; attempt += 1) expect((await withCode(wrong)).statusCode).toBe(400);
      expect((await withCode(second.code)).statusCode).toBe(400);
    });

    it('refuses an expired code', async () => {
      const { email } = await newUser();
      const { code } = await requestCode(email);
      await testApp.app.db
        .update(verificationCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(verificationCodes.email, email));
      const response = await post('/api/v1/auth/resetPassword', {
        email,
        password: encrypt('new password'),
        verificationCode: code,
      });
      expect(response.statusCode).toBe(400);
    });

    it('refuses a too short or common new password without using the code up, in both languages', async () => {
      const { email } = await newUser();
      const { code } = await requestCode(email);
      const reset = (password: string, headers?: Record<string, string>) =>
        post('/api/v1/auth/resetPassword', { email, password: encrypt(password), verificationCode: code }, { headers });
      const short = await reset('seven77');
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toBe('The password must be 8 to 128 characters long.');
      const common = await reset('iloveyou', { 'accept-language': 'id' });
      expect(common.statusCode).toBe(400);
      expect(common.json().message).toBe(
        'Kata sandi ini termasuk yang paling umum dipakai sehingga mudah ditebak. Silakan pilih kata sandi lain.',
      );
      const fine = await reset('long enough');
      expect(fine.statusCode).toBe(200);
    });

    it('emails the account, in its language, when the password is reset', async () => {
      const { email } = await newUser({ locale: 'en', displayName: 'Sari' });
      const { code } = await requestCode(email, { locale: 'id' });
      const reset = await post('/api/v1/auth/resetPassword', {
        email,
        password: encrypt('a fresh passphrase'),
        verificationCode: code,
      });
      expect(reset.statusCode).toBe(200);
      const notice = await lastEmailTo(email);
      expect(notice).toMatchObject({ channel: 'email', locale: 'en', subject: 'Your Kabari password was changed' });
      expect(notice?.bodyText).toContain('Hello Sari,');
      expect(notice?.bodyText).toContain('with a reset code');
      expect(notice?.bodyText).not.toContain(code);
    });

    it('lets a code through only once when used concurrently', async () => {
      const { email } = await newUser();
      const { code } = await requestCode(email);
      const answers = await Promise.all(
        ['first password', 'second password', 'third password'].map((password) =>
          post('/api/v1/auth/resetPassword', { email, password: encrypt(password), verificationCode: code }),
        ),
      );
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    });

    it('validates the reset input with the product’s messages', async () => {
      const missingCode = await post('/api/v1/auth/resetPassword', {
        email: 'a@b.co',
        password: encrypt('new password'),
        verificationCode: '',
      });
      expect(missingCode.json().message).toBe('verificationCode: Please input a your verification code');
      const badCode = await post('/api/v1/auth/resetPassword', {
        email: 'a@b.co',
        password: encrypt('new password'),
        verificationCode: '12ab',
      });
      expect(badCode.json().message).toBe('verificationCode: Please enter the verification code');
    });
  });

  describe('POST /api/v1/auth/loginByAuthCode', () => {
    it('signs in once with a code the server issued', async () => {
      const { email, user } = await newUser();
      const authCode = await issueAuthCode(testApp.app.db, testApp.app.auth.secrets.hmacSecret, email);
      const first = await post('/api/v1/auth/loginByAuthCode', { authCode });
      expect(first.statusCode).toBe(200);
      expect(first.json().data.user.userCacheInfo.id).toBe(user.id);
      expect((await sessionWith({ authorization: sessionTokenOf(first) })).statusCode).toBe(200);

      const second = await post('/api/v1/auth/loginByAuthCode', { authCode });
      expect(second.statusCode).toBe(400);
      expect(second.json().message).toBe('This sign-in code is invalid or has expired. Please log in.');
    });

    it('refuses an unknown code', async () => {
      const response = await post('/api/v1/auth/loginByAuthCode', { authCode: 'x'.repeat(43) });
      expect(response.statusCode).toBe(400);
    });
  });
});

describe('the session cookie behind an https PUBLIC_URL', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite', { PUBLIC_URL: 'https://kabari.example' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('is Secure when set and when cleared', async () => {
    const email = freshEmail();
    await createUser(testApp.app.db, { email, displayName: 'Rina', password: 'correct horse' });
    const publicKey = (await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data
      .publicKey as string;
    const login = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: encryptPassword(publicKey, 'correct horse') },
      remoteAddress: freshIp(),
    });
    expect(login.statusCode).toBe(200);
    expect(login.cookies.find((cookie) => cookie.name === 'token')).toMatchObject({
      secure: true,
      httpOnly: true,
      sameSite: 'Lax',
    });
    const logout = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { cookie: `token=${sessionTokenOf(login)}` },
    });
    expect(logout.cookies.find((cookie) => cookie.name === 'token')).toMatchObject({ value: '', secure: true });
  });
});
