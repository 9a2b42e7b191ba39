import { eq } from 'drizzle-orm';
import { outboxMessages, payments, registrations, subscriptions, users } from '../../../src/db/schema';
import { describeEachDatabase } from '../../support/databases';
import { encryptPassword } from '../../support/jsencrypt';
import { freshEmail, freshIp, signUpSubscriber } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('the subscriber’s own data', (driver) => {
  let testApp: TestApp;
  let publicKey: string;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
    publicKey = (await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;
  const encrypt = (password: string) => encryptPassword(publicKey, password);
  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    app().inject({
      method,
      url,
      remoteAddress: freshIp(),
      headers: { authorization: token },
      ...(payload ? { payload } : {}),
    });

  it('changes the display name, the email (password checked, address free) and the password (other sessions end)', async () => {
    const { email, token } = await signUpSubscriber(app(), { password: 'first-pass' });
    const profile = await call('POST', '/api/v1/personnal/account/profile', token!, { displayName: 'Budi' });
    expect(profile.json().data.user.userCacheInfo.displayName).toBe('Budi');

    const taken = await signUpSubscriber(app());
    const wrong = await call('POST', '/api/v1/personnal/account/email', token!, {
      newEmail: freshEmail(),
      password: encrypt('nope-nope'),
    });
    expect(wrong.json().message).toBe('The password is incorrect.');
    const inUse = await call('POST', '/api/v1/personnal/account/email', token!, {
      newEmail: taken.email,
      password: encrypt('first-pass'),
    });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe('This email address is already in use');
    const newEmail = freshEmail();
    const changed = await call('POST', '/api/v1/personnal/account/email', token!, {
      newEmail,
      password: encrypt('first-pass'),
    });
    expect(changed.json().data.user.userCacheInfo.email).toBe(newEmail);
    expect(email).not.toBe(newEmail);

    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email: newEmail, password: encrypt('first-pass') },
    });
    const otherToken: string = login.json().data.token;
    const sessions = (await call('GET', '/api/v1/personnal/sessions', token!)).json().data.items;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1);

    const password = await call('POST', '/api/v1/personnal/account/password', token!, {
      password: encrypt('first-pass'),
      newPassword: encrypt('second-pass'),
    });
    expect(password.json().data).toEqual({ success: true });
    expect((await call('GET', '/api/v1/auth/session', otherToken)).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/auth/session', token!)).statusCode).toBe(200);
  });

  it('ends one of my sessions, and never another user’s', async () => {
    const mine = await signUpSubscriber(app());
    const theirs = await signUpSubscriber(app());
    const theirSession = (await call('GET', '/api/v1/personnal/sessions', theirs.token!)).json().data.items[0].id;
    const refused = await call('POST', `/api/v1/personnal/sessions/${theirSession}/revoke`, mine.token!);
    expect(refused.statusCode).toBe(404);
    expect((await call('GET', '/api/v1/auth/session', theirs.token!)).statusCode).toBe(200);
    const ended = await call('POST', `/api/v1/personnal/sessions/${theirSession}/revoke`, theirs.token!);
    expect(ended.json().data).toEqual({ success: true });
    expect((await call('GET', '/api/v1/auth/session', theirs.token!)).statusCode).toBe(401);
  });

  it('exports my data as a JSON attachment with my payments and no secrets', async () => {
    const { email, token } = await signUpSubscriber(app());
    const response = await call('GET', '/api/v1/personnal/account/export', token!);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="kabari-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const document = response.json();
    expect(document.account.email).toBe(email);
    expect(document.subscription.status).toBe('trial');
    expect(document.payments).toHaveLength(1);
    expect(document.requests).toEqual([]);
    expect(response.body).not.toContain('passwordHash');
    expect(response.body).not.toContain('argon2');
  });

  it('deletes the account by emailed code: personal data erased, payments kept without the person', async () => {
    const { email, token, registerId } = await signUpSubscriber(app());
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    const badCode = await call('POST', '/api/v1/personnal/account/delete', token!, { verificationCode: '123456' });
    expect(badCode.statusCode).toBe(400);
    await app().inject({
      method: 'POST',
      url: '/api/v1/auth/sendCode',
      remoteAddress: freshIp(),
      payload: { email, type: 3 },
    });
    const [codeMail] = await app()
      .db.select()
      .from(outboxMessages)
      .where(eq(outboxMessages.subject, 'Your Kabari verification code'));
    const code = /(\d{6})/.exec(codeMail!.bodyText)![1]!;
    const deleted = await call('POST', '/api/v1/personnal/account/delete', token!, { verificationCode: code });
    expect(deleted.json().data).toEqual({ success: true });

    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id))).toHaveLength(0);
    expect(await app().db.select().from(registrations).where(eq(registrations.id, registerId))).toHaveLength(0);
    const kept = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(kept).toHaveLength(0);
    const detached = await app().db.select().from(payments).where(eq(payments.amount, 99));
    expect(detached.some((payment) => payment.userId === null && payment.subscriptionId === null)).toBe(true);
    const left = await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));
    expect(left.map((message) => message.subject)).toEqual(['Your Kabari account has been deleted']);
    expect((await call('GET', '/api/v1/auth/session', token!)).statusCode).toBe(401);
  });

  it('deletes the account with the password', async () => {
    const { email, token } = await signUpSubscriber(app(), { password: 'delete-me-1' });
    const wrong = await call('POST', '/api/v1/personnal/account/delete', token!, { password: encrypt('wrong-one') });
    expect(wrong.statusCode).toBe(400);
    const right = await call('POST', '/api/v1/personnal/account/delete', token!, { password: encrypt('delete-me-1') });
    expect(right.statusCode).toBe(200);
    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});
