import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { users } from '../../../src/db/schema/accounts';
import { payments, registrations, subscriptions } from '../../../src/db/schema/billing';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { encryptPassword } from '../../support/jsencrypt';
import { tableDigests } from '../../support/table-digests';
import { freshEmail, freshIp, signUpSubscriber, TEST_CARD } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('registration routes', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { PRICE_ID_FIRST_DAY: '15000', BILLING_PERIOD_DAYS: '28' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;

  function register(payload: object, headers: Record<string, string> = {}) {
    return app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/v5pay',
      remoteAddress: freshIp(),
      headers,
      payload: {
        email: freshEmail(),
        displayName: 'Rina',
        locale: 'en',
        ageConfirmed: true,
        termsAccepted: true,
        method: 'card',
        card: TEST_CARD,
        ...payload,
      },
    });
  }

  it('answers the terms configured for each locale, with the sandbox methods when no provider is set', async () => {
    const en = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'en' },
    });
    expect(en.json().data).toMatchObject({
      currencyCode: 'USD',
      firstDayDebitAmount: 0.99,
      amount: 29.99,
      period: 28,
      methods: { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox' },
      sandbox: true,
    });
    expect(Date.parse(en.json().data.nextDebitDay)).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    const id = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'id' },
    });
    expect(id.json().data).toMatchObject({ currencyCode: 'IDR', firstDayDebitAmount: 15000, amount: 449000 });
    const bad = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'fr' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('signs up with 4242…: user, trial subscription, first-day payment, receipt, one-time auth code', async () => {
    const result = await signUpSubscriber(app(), { locale: 'id', displayName: 'Budi' });
    expect(result.query.data.state).toBe('created');
    expect(result.token).toEqual(expect.any(String));
    expect(result.user.userCacheInfo).toMatchObject({ email: result.email, displayName: 'Budi', locale: 'id' });

    const again = await app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${result.registerId}` });
    expect(again.json().data).toEqual({ state: 'created' });

    const [user] = await app().db.select().from(users).where(eq(users.email, result.email));
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(subscription).toMatchObject({ status: 'trial', currency: 'IDR', firstDayAmount: 15000, periodDays: 28 });
    const [payment] = await app().db.select().from(payments).where(eq(payments.userId, user!.id));
    expect(payment).toMatchObject({ kind: 'first_day', state: 'succeeded', cardBrand: 'visa', cardLast4: '4242' });
    const mail = await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, result.email));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('Tanda terima');
    expect(mail[0]!.bodyText).toContain('Lupa kata sandi');

    const info = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/subscribe/info',
      headers: { authorization: result.token! },
    });
    expect(info.json().data).toMatchObject({
      status: 'trial',
      expiredStatus: 0,
      amount: 449000,
      firstDayDebitAmount: 15000,
      currencyCode: 'IDR',
      period: 28,
      provider: 'sandbox',
      sandbox: true,
      cancelledAt: null,
    });
    expect(info.json().data.nextDebitDay).toBe(info.json().data.validUntil);
  });

  it('answers a sign-up sent again under the same attempt id with that sign-up: one account, one charge', async () => {
    // Sent again after its answer was lost, then twice at once.
    const [lost, twice] = [freshEmail(), freshEmail()];
    const [lostAttempt, twiceAttempt] = [randomUUID(), randomUUID()];
    const first = await register({ email: lost, attemptId: lostAttempt });
    const again = await register({ email: lost, attemptId: lostAttempt });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.registerId).toBe(first.json().data.registerId);
    const atOnce = await Promise.all([1, 2].map(() => register({ email: twice, attemptId: twiceAttempt })));
    expect(atOnce.map((response) => response.statusCode)).toEqual([200, 200]);
    expect(atOnce[1]!.json().data.registerId).toBe(atOnce[0]!.json().data.registerId);

    const rows = await app()
      .db.select()
      .from(registrations)
      .where(inArray(registrations.email, [lost, twice]));
    expect(rows.map((row) => row.attemptId).sort()).toEqual([lostAttempt, twiceAttempt].sort());
    const accounts = await app()
      .db.select()
      .from(users)
      .where(inArray(users.email, [lost, twice]));
    expect(accounts).toHaveLength(2);
    const charged = await app()
      .db.select()
      .from(payments)
      .where(
        inArray(
          payments.userId,
          accounts.map((account) => account.id),
        ),
      );
    expect(charged).toHaveLength(2);
    // The sign-up is done: its answer stays the same however often it is asked for.
    const later = await register({ email: lost, attemptId: lostAttempt });
    expect(later.json().data.registerId).toBe(first.json().data.registerId);
  });

  it('refuses an attempt id sent with other details, or malformed, in the caller’s language, storing nothing', async () => {
    const attemptId = randomUUID();
    const first = await register({ attemptId });
    const other = freshEmail();
    const refused = await register({ email: other, attemptId }, { 'accept-language': 'id' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Pendaftaran ini sudah dikirim dengan data lain. Periksa kembali data Anda, lalu coba lagi.',
    );
    const malformed = await register({ email: other, attemptId: 'not-an-id' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe(
      'attemptId: This sign-up form could not be read. Please reload the page and try again.',
    );
    expect(await app().db.select().from(registrations).where(eq(registrations.email, other))).toEqual([]);
    expect(first.statusCode).toBe(200);
  });

  it('keeps a chosen password (encrypted like login) so the subscriber can log in with it', async () => {
    const result = await signUpSubscriber(app(), { password: 'secret-pass-1' });
    const publicKey = (await app().inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email: result.email, password: encryptPassword(publicKey, 'secret-pass-1') },
    });
    expect(login.statusCode).toBe(200);
    const [registration] = await app().db.select().from(registrations).where(eq(registrations.id, result.registerId));
    expect(registration!.passwordHash).toBeNull();
  });

  it('refuses a chosen password under 8 characters or a common one, in both languages, and stores nothing', async () => {
    const publicKey = (await app().inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
    // Only the per-address throttle counts refused attempts; no other table gains, loses or changes a row.
    const before = await tableDigests(app().db, ['auth_throttles']);
    const short = await register({ password: encryptPassword(publicKey, 'seven77') });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('The password must be 8 to 128 characters long.');
    const common = await register(
      { password: encryptPassword(publicKey, 'bismillah') },
      { 'accept-language': 'id-ID' },
    );
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toBe(
      'Kata sandi ini termasuk yang paling umum dipakai sehingga mudah ditebak. Silakan pilih kata sandi lain.',
    );
    expect(await tableDigests(app().db, ['auth_throttles'])).toBe(before);
  });

  it('refuses an email already in use, and missing consent, and changes nothing', async () => {
    const { email } = await signUpSubscriber(app());
    // What is stored before the refusals: none of them adds, removes or alters a row (the taken account's too).
    const stored = async () => ({
      registrations: await app().db.select().from(registrations),
      users: await app().db.select().from(users),
      subscriptions: await app().db.select().from(subscriptions),
      payments: await app().db.select().from(payments),
      outbox: (await app().db.select().from(outboxMessages)).length,
    });
    const before = await stored();
    const taken = await register({ email: email.toUpperCase() });
    // 409, the status the sign-up dialog recognises (isEmailInUse), in the caller's language.
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ status: 409, message: 'This email address is already in use', data: null });
    const takenId = await register({ email }, { 'accept-language': 'id' });
    expect(takenId.json().message).toBe('Alamat email ini sudah digunakan');
    const noAge = await register({ ageConfirmed: false });
    expect(noAge.statusCode).toBe(400);
    expect(noAge.json().message).toContain('18 or older');
    const noTerms = await register({ termsAccepted: undefined });
    expect(noTerms.json().message).toContain('terms');
    const noName = await register({ displayName: ' ' });
    expect(noName.json().message).toContain('Please fill in your name');
    // At most 40 characters, as the sign-up dialog's name field allows; the reason in the caller's language.
    const tooLong = await register({ displayName: 'x'.repeat(41) }, { 'accept-language': 'id' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('Nama paling banyak 40 karakter');
    const noAgeId = await register({ ageConfirmed: false }, { 'accept-language': 'id' });
    expect(noAgeId.json().message).toContain('18 tahun');
    expect(await stored()).toEqual(before);
    expect((await register({ displayName: 'x'.repeat(40), email: freshEmail() })).statusCode).toBe(200);
  });

  it('refuses a display name that carries a link, an email address or a phone number, storing nothing', async () => {
    const phishing = 'BCA Bank - verify: https://bca-verify.top/login';
    const email = freshEmail();
    const refused = await register({ displayName: phishing, email });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('displayName: A name cannot contain a web address or an email address');
    const inIndonesian = await register({ displayName: 'BCA bca-verify.top', email }, { 'accept-language': 'id' });
    expect(inIndonesian.json().message).toBe('Nama tidak boleh berisi alamat web atau alamat email');
    const phone = await register({ displayName: 'Call 0812 3456 7890', email });
    expect(phone.json().message).toBe('displayName: A name cannot contain a phone number');
    expect(await app().db.select().from(registrations).where(eq(registrations.email, email))).toEqual([]);
    expect(await app().db.select().from(users).where(eq(users.email, email))).toEqual([]);
    // A name in any script, stored as it is shown.
    const { user } = await signUpSubscriber(app(), { displayName: ' Ni  Luh Ayu ' });
    expect(user.userCacheInfo.displayName).toBe('Ni Luh Ayu');
  });

  it('refuses a display name that passes for a bank, a payment service or Kabari, storing nothing', async () => {
    const email = freshEmail();
    for (const name of ['Bank BCA Security', 'B.C.A Care', 'GoPay', 'DANA Official', 'Tim Kabari']) {
      const refused = await register({ displayName: name, email });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        "displayName: A name cannot contain the name of a bank or a payment service, nor Kabari's",
      );
    }
    const inIndonesian = await register({ displayName: 'Layanan BRI', email }, { 'accept-language': 'id' });
    expect(inIndonesian.json().message).toBe('Nama tidak boleh memuat nama bank, layanan pembayaran, atau Kabari');
    expect(await app().db.select().from(registrations).where(eq(registrations.email, email))).toEqual([]);
    expect(await app().db.select().from(users).where(eq(users.email, email))).toEqual([]);
    // A person's name that a brand also uses is still a name.
    const { user } = await signUpSubscriber(app(), { displayName: 'Dana Putri' });
    expect(user.userCacheInfo.displayName).toBe('Dana Putri');
  });

  it('records when the 18+ confirmation and the terms consent were given, and which terms, on the account', async () => {
    const moment = new Date('2031-02-03T04:05:06Z');
    app().billing.clock.set(moment);
    try {
      const email = freshEmail();
      const response = await register({ email });
      expect(response.statusCode).toBe(200);
      const [registration] = await app()
        .db.select()
        .from(registrations)
        .where(eq(registrations.id, response.json().data.registerId));
      expect(registration).toMatchObject({
        ageConfirmedAt: moment,
        termsAcceptedAt: moment,
        termsVersion: '2026-11-22',
      });
      const [user] = await app().db.select().from(users).where(eq(users.email, email));
      expect(user).toMatchObject({ ageConfirmedAt: moment, termsAcceptedAt: moment, termsVersion: '2026-11-22' });

      // The terms the app showed, when it says; a malformed version is refused.
      const older = freshEmail();
      expect((await register({ email: older, termsVersion: '2026-01-15' })).statusCode).toBe(200);
      const [olderUser] = await app().db.select().from(users).where(eq(users.email, older));
      expect(olderUser!.termsVersion).toBe('2026-01-15');
      expect((await register({ termsVersion: 'latest' })).statusCode).toBe(400);
    } finally {
      app().billing.clock.set(null);
    }
  });

  it('refuses missing consent in Indonesian too, storing nothing', async () => {
    const email = freshEmail();
    const noTerms = await register({ email, termsAccepted: false }, { 'accept-language': 'id' });
    expect(noTerms.statusCode).toBe(400);
    expect(noTerms.json().message).toBe('Silakan setujui ketentuan penggunaan');
    const noAge = await register({ email, ageConfirmed: undefined }, { 'accept-language': 'id' });
    expect(noAge.json().message).toBe('Silakan konfirmasi bahwa Anda berusia 18 tahun atau lebih');
    expect(await app().db.select().from(registrations).where(eq(registrations.email, email))).toHaveLength(0);
  });

  it('answers a card problem in the caller’s language', async () => {
    const response = await register(
      { card: { ...TEST_CARD, number: '4242 4242 4242 4241' } },
      { 'accept-language': 'id-ID,id;q=0.9' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Nomor kartu tidak valid. Periksa kembali.');
  });

  it.each([
    ['4242 4242 4242 4241', {}, 'card number is not valid'],
    ['4242424242424242', { expiryMonth: '13' }, 'expiry date is not valid'],
    ['4242424242424242', { expiryYear: '2020' }, 'has expired'],
    ['4242424242424242', { cvv: '12' }, 'security code'],
    ['4242424242424242', { name: '' }, 'first name'],
  ])('refuses a badly formed card (%s %j) with a clear message and stores nothing', async (number, extra, message) => {
    const email = freshEmail();
    const response = await register({ email, card: { ...TEST_CARD, number, ...extra } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await app().db.select().from(registrations).where(eq(registrations.email, email))).toHaveLength(0);
  });

  it.each([
    ['4000 0000 0000 0002', 'card_declined', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'insufficient_funds', 'insufficient funds'],
    ['4111 1111 1111 1111', 'not_a_test_card', 'This is the sandbox'],
  ])('%s fails the sign-up with its reason and creates no user', async (number, failureCode, message) => {
    const email = freshEmail();
    const response = await register({ email, card: { ...TEST_CARD, number } });
    expect(response.statusCode).toBe(200);
    const query = await app().inject({
      method: 'GET',
      url: `/api/v1/personnal/registerQuery/${response.json().data.registerId}`,
    });
    expect(query.json().data).toMatchObject({ state: 'sign_failed', failureCode });
    expect(query.json().data.failureMessage).toContain(message);
    expect(query.json().data.authCode).toBeUndefined();
    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    const [payment] = await app()
      .db.select()
      .from(payments)
      .where(eq(payments.registrationId, response.json().data.registerId));
    expect(payment).toMatchObject({ state: 'failed', failureCode, userId: null });
  });

  it('says the decline in Indonesian for an Indonesian visitor', async () => {
    const response = await register({ locale: 'id', card: { ...TEST_CARD, number: '4000000000000002' } });
    const query = await app().inject({
      method: 'GET',
      url: `/api/v1/personnal/registerQuery/${response.json().data.registerId}`,
    });
    expect(query.json().data.failureMessage).toBe('Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.');
  });

  it('accepts the sandbox wallet and sandbox PayPal without card details', async () => {
    for (const method of ['wallet', 'paypal'] as const) {
      const result = await signUpSubscriber(app(), { method });
      expect(result.query.data.state).toBe('created');
    }
  });

  it('answers 404 for an unknown sign-up and 401 for subscribe/info without a session', async () => {
    const unknown = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/registerQuery/7d0f7a7e-53f7-4a6e-9d6b-1d1e0c0c0c0c',
    });
    expect(unknown.statusCode).toBe(404);
    const info = await app().inject({ method: 'GET', url: '/api/v1/personnal/subscribe/info' });
    expect(info.statusCode).toBe(401);
  });

  it("says what is wrong with a malformed sign-up id, PayPal order or terms version in the caller's language", async () => {
    const badId = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/registerQuery/not-a-sign-up',
      headers: { 'accept-language': 'id' },
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe('Pendaftaran ini tidak ditemukan.');
    const badTerms = await register({ termsVersion: 'yesterday' }, { 'accept-language': 'id' });
    expect(badTerms.statusCode).toBe(400);
    expect(badTerms.json().message).toBe(
      'Ketentuan yang Anda setujui tidak terbaca. Muat ulang halaman lalu coba lagi.',
    );
    const badOrder = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      headers: { 'accept-language': 'en' },
      payload: {
        email: 'order@kabari.test',
        displayName: 'Rina',
        ageConfirmed: true,
        termsAccepted: true,
        method: 'paypal',
        orderId: 'x',
        capture: true,
      },
    });
    expect(badOrder.statusCode).toBe(400);
    expect(badOrder.json().message).toBe('orderId: This PayPal order is not valid. Please start the payment again.');
  });
});
