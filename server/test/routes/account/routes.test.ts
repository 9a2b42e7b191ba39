import { strFromU8, unzipSync } from 'fflate';
import { desc, eq } from 'drizzle-orm';
import { users } from '../../../src/db/schema/accounts';
import { payments, registrations, subscriptions } from '../../../src/db/schema/billing';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { encryptPassword } from '../../support/jsencrypt';
import { freshEmail, freshIp, signUpSubscriber } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';
import { sessionTokenOf } from '../../support/session-token';

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

  /** The latest message in the local outbox for an address. */
  async function lastMessage(recipient: string) {
    const rows = await app()
      .db.select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, recipient))
      .orderBy(desc(outboxMessages.createdAt));
    return rows[0];
  }
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;

  it('changes the display name and the password (other sessions end)', async () => {
    const { email, token } = await signUpSubscriber(app(), { password: 'first-pass' });
    const profile = await call('POST', '/api/v1/personnal/account/profile', token!, { displayName: 'Budi' });
    expect(profile.json().data.user.userCacheInfo.displayName).toBe('Budi');

    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email, password: encrypt('first-pass') },
    });
    const otherToken: string = sessionTokenOf(login);
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

  it('refuses a new display name that is not a name, in the caller’s language, and keeps the old one', async () => {
    const { token, user } = await signUpSubscriber(app(), { displayName: 'Rina' });
    const refused = await call('POST', '/api/v1/personnal/account/profile', token!, {
      displayName: 'BCA Bank - verify: https://bca-verify.top/login',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('displayName: A name cannot contain a web address or an email address');
    const inIndonesian = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/account/profile',
      remoteAddress: freshIp(),
      headers: { authorization: token!, 'accept-language': 'id' },
      payload: { displayName: 'Sari 0812 3456 7890' },
    });
    expect(inIndonesian.json().message).toBe('Nama tidak boleh berisi nomor telepon');
    const brand = await call('POST', '/api/v1/personnal/account/profile', token!, { displayName: 'Bank BCA Security' });
    expect(brand.statusCode).toBe(400);
    expect(brand.json().message).toBe(
      "displayName: A name cannot contain the name of a bank or a payment service, nor Kabari's",
    );
    const [stored] = await app().db.select().from(users).where(eq(users.id, user!.userCacheInfo.id));
    expect(stored!.displayName).toBe('Rina');
    const renamed = await call('POST', '/api/v1/personnal/account/profile', token!, { displayName: 'Permata Sari' });
    expect(renamed.statusCode).toBe(200);
  });

  it('sends no code to a new address while the stored name is not a name (saved before the rule)', async () => {
    const { token, user } = await signUpSubscriber(app(), { password: 'first-pass' });
    await app()
      .db.update(users)
      .set({ displayName: 'BCA Bank - verify: https://bca-verify.top/login' })
      .where(eq(users.id, user!.userCacheInfo.id));
    const newEmail = freshEmail('korban');
    const refused = await call('POST', '/api/v1/personnal/account/email', token!, {
      newEmail,
      password: encrypt('first-pass'),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^Your display name cannot appear in a message to someone else/);
    expect(await lastMessage(newEmail)).toBeUndefined();
  });

  it('refuses a new password under 8 characters or a common one, with a clear message, and changes nothing', async () => {
    const { email, token } = await signUpSubscriber(app(), { password: 'first-pass' });
    const change = (newPassword: string, language = 'en') =>
      app().inject({
        method: 'POST',
        url: '/api/v1/personnal/account/password',
        remoteAddress: freshIp(),
        headers: { authorization: token!, 'accept-language': language },
        payload: { password: encrypt('first-pass'), newPassword: encrypt(newPassword) },
      });
    const short = await change('seven77');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('The password must be 8 to 128 characters long.');
    expect((await change('seven77', 'id')).json().message).toBe('Kata sandi harus terdiri dari 8 sampai 128 karakter.');
    const common = await change('password123');
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toBe(
      'This password is one of the most common ones, so it is easy to guess. Please choose another.',
    );
    expect((await change('Sayangku', 'id')).json().message).toBe(
      'Kata sandi ini termasuk yang paling umum dipakai sehingga mudah ditebak. Silakan pilih kata sandi lain.',
    );
    // The old password still signs in.
    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email, password: encrypt('first-pass') },
    });
    expect(login.statusCode).toBe(200);
    expect(await lastMessage(email)).not.toMatchObject({ subject: 'Your Kabari password was changed' });
  });

  it('emails the account, in its language, when its password is changed', async () => {
    const { email, token } = await signUpSubscriber(app(), {
      password: 'first-pass',
      locale: 'id',
      displayName: 'Budi',
    });
    const changed = await call('POST', '/api/v1/personnal/account/password', token!, {
      password: encrypt('first-pass'),
      newPassword: encrypt('second-pass'),
    });
    expect(changed.statusCode).toBe(200);
    const notice = await lastMessage(email);
    expect(notice).toMatchObject({
      channel: 'email',
      locale: 'id',
      subject: 'Kata sandi Kabari Anda telah diganti',
    });
    expect(notice?.bodyText).toContain('Halo Budi,');
    expect(notice?.bodyText).toContain('Lupa kata sandi?');
    expect(notice?.bodyText).not.toContain('second-pass');
  });

  it('changes the email only with the code sent to the new address; the old address is told', async () => {
    const { email, token } = await signUpSubscriber(app(), { password: 'first-pass', displayName: 'Rina' });
    const taken = await signUpSubscriber(app());
    const start = (newEmail: string, password = 'first-pass') =>
      call('POST', '/api/v1/personnal/account/email', token!, { newEmail, password: encrypt(password) });
    const confirm = (newEmail: string, verificationCode: string) =>
      call('POST', '/api/v1/personnal/account/email/confirm', token!, { newEmail, verificationCode });

    const wrong = await start(freshEmail(), 'nope-nope');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The password is incorrect.');
    const inUse = await start(taken.email);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe('This email address is already in use');
    expect((await start(email)).statusCode).toBe(400);

    const newEmail = freshEmail('moved');
    const started = await start(newEmail);
    expect(started.json().data).toEqual({ success: true });
    // Nothing changed yet: the account keeps its address until the code comes back.
    const [before] = await app().db.select().from(users).where(eq(users.email, email));
    expect(before).toBeDefined();
    const codeMail = await lastMessage(newEmail);
    expect(codeMail!.subject).toBe('Confirm your new Kabari email address');
    const code = codeIn(codeMail!.bodyText);

    // The right code for another address is no good, and neither is a wrong code.
    expect((await confirm(freshEmail(), code)).statusCode).toBe(400);
    const bad = await confirm(newEmail, code === '000000' ? '111111' : '000000');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The verification code is incorrect or has expired.');

    const changed = await confirm(newEmail, code);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.user.userCacheInfo.email).toBe(newEmail);
    expect((await confirm(newEmail, code)).statusCode).toBe(400);
    const notice = await lastMessage(email);
    expect(notice!.subject).toBe('Your Kabari email address was changed');
    expect(notice!.bodyText).toContain('m•••@example.com');
    expect(notice!.bodyText).not.toContain(newEmail);

    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email: newEmail, password: encrypt('first-pass') },
    });
    expect(login.statusCode).toBe(200);
  });

  it('speaks Indonesian to an Indonesian subscriber: the notice to the old address, and the form’s messages', async () => {
    const { email, token } = await signUpSubscriber(app(), { password: 'first-pass', locale: 'id' });
    const newEmail = freshEmail('pindah');
    await call('POST', '/api/v1/personnal/account/email', token!, { newEmail, password: encrypt('first-pass') });
    const code = codeIn((await lastMessage(newEmail))!.bodyText);
    const malformed = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/account/email/confirm',
      remoteAddress: freshIp(),
      headers: { authorization: token!, 'accept-language': 'id-ID' },
      payload: { newEmail, verificationCode: '12ab' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('Silakan masukkan kode verifikasi');
    const changed = await call('POST', '/api/v1/personnal/account/email/confirm', token!, {
      newEmail,
      verificationCode: code,
    });
    expect(changed.statusCode).toBe(200);
    const notice = await lastMessage(email);
    expect(notice!.subject).toBe('Alamat email Kabari Anda telah diubah');
    expect(notice!.locale).toBe('id');
  });

  it('a code dies after 5 wrong attempts, codes are limited per account, and a taken address answers 409', async () => {
    const { token } = await signUpSubscriber(app(), { password: 'first-pass', locale: 'id' });
    const newEmail = freshEmail('guess');
    await call('POST', '/api/v1/personnal/account/email', token!, { newEmail, password: encrypt('first-pass') });
    const codeMail = await lastMessage(newEmail);
    expect(codeMail!.subject).toBe('Konfirmasi alamat email baru Kabari Anda');
    const code = codeIn(codeMail!.bodyText);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const guess = await call('POST', '/api/v1/personnal/account/email/confirm', token!, {
        newEmail,
        verificationCode: wrongCode,
      });
      expect(guess.statusCode).toBe(400);
    }
    const tooLate = await call('POST', '/api/v1/personnal/account/email/confirm', token!, {
      newEmail,
      verificationCode: code,
    });
    expect(tooLate.statusCode).toBe(400);

    // Someone takes the address between the two steps.
    const raced = freshEmail('raced');
    await call('POST', '/api/v1/personnal/account/email', token!, { newEmail: raced, password: encrypt('first-pass') });
    const racedCode = codeIn((await lastMessage(raced))!.bodyText);
    await signUpSubscriber(app(), { email: raced });
    const conflict = await call('POST', '/api/v1/personnal/account/email/confirm', token!, {
      newEmail: raced,
      verificationCode: racedCode,
    });
    expect(conflict.statusCode).toBe(409);

    // 2 codes asked so far; 3 more are allowed within the hour, then a wait, told in the caller's language.
    for (let sent = 0; sent < 3; sent += 1) {
      const more = await call('POST', '/api/v1/personnal/account/email', token!, {
        newEmail: freshEmail(),
        password: encrypt('first-pass'),
      });
      expect(more.statusCode).toBe(200);
    }
    const limited = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/account/email',
      remoteAddress: freshIp(),
      headers: { authorization: token!, 'accept-language': 'id' },
      payload: { newEmail: freshEmail(), password: encrypt('first-pass') },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Terlalu banyak permintaan kode untuk akun ini/);
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

  it('exports my data as a JSON attachment with my payments, sessions and refund requests, and no secrets', async () => {
    const { email, token } = await signUpSubscriber(app(), { password: 'export-me-1' });
    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      headers: { 'user-agent': 'Kabari test phone' },
      payload: { email, password: encrypt('export-me-1') },
    });
    const otherToken: string = sessionTokenOf(login);
    const refund = await call('POST', '/api/v1/refunds', token!, { email, reason: 'Moved abroad', locale: 'en' });
    expect(refund.statusCode).toBe(200);
    const response = await call('GET', '/api/v1/personnal/account/export', token!);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="kabari-my-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(response.headers['content-type']).toBe('application/zip');
    const files = unzipSync(response.rawPayload);
    expect(Object.keys(files)).toEqual(['kabari-my-data.json']);
    const document = JSON.parse(strFromU8(files['kabari-my-data.json']!));
    expect(document.voiceNotes).toEqual([]);
    expect(document.account.email).toBe(email);
    expect(document.subscription.status).toBe('cancelled'); // the refund request cancelled it
    expect(document.payments).toHaveLength(1);
    expect(document.requests).toEqual([]);
    expect(document.consent).toEqual({
      ageConfirmedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      termsAcceptedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      termsVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(document.payments[0]).toMatchObject({ refundedAmount: 0, disputedAt: null });
    expect(document.sessions).toHaveLength(2);
    expect(document.sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    expect(document.sessions.map((session: { device: string | null }) => session.device)).toContain(
      'Kabari test phone',
    );
    expect(Object.keys(document.sessions[0]).sort()).toEqual(
      ['createdAt', 'current', 'device', 'endedAt', 'expiresAt', 'id', 'lastSeenAt'].sort(),
    );
    expect(document.refundRequests).toEqual([
      expect.objectContaining({ id: refund.json().data.id, email, reason: 'Moved abroad', state: 'open' }),
    ]);
    expect(response.body).not.toContain('passwordHash');
    expect(response.body).not.toContain('argon2');
    expect(response.body).not.toContain('tokenHash');
    expect(response.body).not.toContain(token!);
    expect(response.body).not.toContain(otherToken);
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
