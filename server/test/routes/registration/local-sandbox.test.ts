import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { payments, registrations } from '../../../src/db/schema/billing';
import { describeEachDatabase } from '../../support/databases';
import { freshEmail, freshIp } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

// The local trial: the sandbox offers QRIS, the e-wallets and the virtual accounts for the rupiah price, and its
// "simulate payment" route stands in for Midtrans's notification.
describeEachDatabase('Local payments in the sandbox', (driver) => {
  let testApp: TestApp;
  const app = () => testApp.app;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await testApp?.close();
  });
  afterEach(() => app().billing.clock.set(null));

  const signUp = (channel: string, extra: Record<string, unknown> = {}) =>
    app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/local',
      remoteAddress: freshIp(),
      headers: { 'accept-language': 'id' },
      payload: {
        email: freshEmail('local'),
        displayName: 'Rina',
        locale: 'id',
        ageConfirmed: true,
        termsAccepted: true,
        channel,
        ...extra,
      },
    });
  const query = (registerId: string) =>
    app().inject({
      method: 'GET',
      url: `/api/v1/personnal/registerQuery/${registerId}`,
      headers: { 'accept-language': 'id' },
    });
  const pay = (registerId: string) =>
    app().inject({ method: 'POST', url: `/api/v1/personnal/sandboxPayments/${registerId}/pay` });

  it('offers the local channels, QRIS first, for the rupiah price only', async () => {
    const id = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'id' },
    });
    expect(id.json().data).toMatchObject({
      currencyCode: 'IDR',
      methods: { local: 'sandbox' },
      localChannels: ['qris', 'gopay', 'shopeepay', 'bca_va', 'bni_va', 'bri_va', 'mandiri_bill'],
    });
    const en = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'en' },
    });
    expect(en.json().data).toMatchObject({ currencyCode: 'USD', methods: { local: null }, localChannels: [] });
    const refused = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/local',
      remoteAddress: freshIp(),
      payload: {
        email: freshEmail(),
        displayName: 'Rina',
        locale: 'en',
        ageConfirmed: true,
        termsAccepted: true,
        channel: 'qris',
      },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('shows a QRIS code while the payment waits, also after coming back, and creates the account once paid', async () => {
    const started = Date.now();
    const response = await signUp('qris');
    expect(response.statusCode).toBe(200);
    const { registerId, payment } = response.json().data;
    expect(payment).toMatchObject({
      channel: 'qris',
      amount: 14900,
      currencyCode: 'IDR',
      merchantName: 'Kabari (sandbox)',
      qrString: expect.stringContaining('KABARI SANDBOX QRIS'),
    });
    const expiresIn = Date.parse(payment.expiresAt) - started;
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 5_000);

    const waiting = await query(registerId);
    expect(waiting.json().data).toEqual({ state: 'querying', payment });
    const [pending] = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(pending).toMatchObject({ state: 'pending', provider: 'sandbox', amount: 14900, currency: 'IDR' });

    expect((await pay(registerId)).json().data).toEqual({ state: 'created' });
    const created = (await query(registerId)).json().data;
    expect(created.state).toBe('created');
    expect(created.authCode).toEqual(expect.any(String));
    expect(created.payment).toBeUndefined();
    // Paid twice: nothing more happens.
    expect((await pay(registerId)).json().data).toEqual({ state: 'created' });
    const rows = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(rows.map((row) => row.state)).toEqual(['succeeded']);
  });

  it('gives a virtual account number for a day, and the same payment for the same attempt', async () => {
    const attemptId = randomUUID();
    const email = freshEmail('va');
    const first = await signUp('bca_va', { attemptId, email });
    const again = await signUp('bca_va', { attemptId, email });
    expect(again.json().data).toEqual(first.json().data);
    const { payment } = first.json().data;
    expect(payment.vaNumber).toMatch(/^9990\d{12}$/);
    expect(payment.qrString).toBeUndefined();
    expect(Date.parse(payment.expiresAt) - Date.now()).toBeGreaterThan(23 * 60 * 60_000);
    const bill = (await signUp('mandiri_bill')).json().data.payment;
    expect(bill).toMatchObject({ billerCode: '70012', vaNumber: expect.stringMatching(/^\d{12}$/) });
  });

  it('fails the sign-up with payment_expired, in the reader’s language, when the time to pay runs out', async () => {
    const { registerId, payment } = (await signUp('gopay')).json().data;
    app().billing.clock.set(new Date(Date.parse(payment.expiresAt) + 1000));
    const ended = (await query(registerId)).json().data;
    expect(ended).toEqual({
      state: 'sign_failed',
      failureCode: 'payment_expired',
      failureMessage: expect.stringContaining('Waktu pembayaran habis'),
    });
    // Too late to simulate: it stays ended.
    expect((await pay(registerId)).json().data).toEqual({ state: 'sign_failed' });
    const [row] = await app().db.select().from(registrations).where(eq(registrations.id, registerId));
    expect(row).toMatchObject({ state: 'sign_failed', userId: null, passwordHash: null });
    const [failed] = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(failed).toMatchObject({ state: 'failed', failureCode: 'payment_expired' });
  });

  it('answers 404 to simulating a payment that is not a waiting sandbox local one', async () => {
    expect((await pay(randomUUID())).statusCode).toBe(404);
  });
});
