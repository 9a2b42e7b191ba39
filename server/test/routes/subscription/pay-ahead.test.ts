import { eq } from 'drizzle-orm';
import { users } from '../../../src/db/schema/accounts';
import { payments, subscriptions } from '../../../src/db/schema/billing';
import { describeEachDatabase } from '../../support/databases';
import { freshEmail, freshIp, signUpWithQris } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

const DAY = 24 * 60 * 60_000;

// A subscription paid with QRIS, an e-wallet or a transfer renews when its owner pays: from 7 days before it ends,
// for the period that follows, once.
describeEachDatabase('Paying ahead for a subscription that renews when paid', (driver) => {
  let testApp: TestApp;
  const app = () => testApp.app;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await testApp?.close();
  });
  afterEach(() => app().billing.clock.set(null));

  const pay = (registerId: string) =>
    app().inject({ method: 'POST', url: `/api/v1/personnal/sandboxPayments/${registerId}/pay` });

  const subscriber = async () => {
    const { email, token } = await signUpWithQris(app(), freshEmail('ahead'));
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    return { token, userId: user!.id };
  };
  // From an address of its own each time: subscribe/renew is throttled per address, and the tests together ask more.
  const renew = (token: string, payload: object) =>
    app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/renew',
      remoteAddress: freshIp(),
      headers: { authorization: token, 'accept-language': 'id' },
      payload,
    });
  const subscriptionOf = async (userId: string) =>
    (await app().db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!;

  it('starts the paid period when the current one ends, and refuses a second payment for the same period', async () => {
    const { token, userId } = await subscriber();
    const first = await subscriptionOf(userId);
    expect(first).toMatchObject({ status: 'trial', periodIndex: 0 });

    // Cards and the sandbox card still renew only once access has ended.
    expect((await renew(token, { method: 'card' })).statusCode).toBe(400);

    const ahead = await renew(token, { method: 'local', channel: 'gopay' });
    expect(ahead.statusCode).toBe(200);
    const { registerId, payment } = ahead.json().data;
    expect(payment).toMatchObject({ channel: 'gopay', amount: 449000, currencyCode: 'IDR' });
    const waiting = await renew(token, { method: 'local', channel: 'qris' });
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().message).toBe(
      'Pembayaran untuk periode berikutnya sudah menunggu. Silakan selesaikan di aplikasi pembayaran Anda, atau ' +
        'tunggu sampai kedaluwarsa untuk memulai yang baru.',
    );

    expect((await pay(registerId)).json().data).toEqual({ state: 'created' });
    const paid = await subscriptionOf(userId);
    expect(paid).toMatchObject({ status: 'active', periodIndex: 1, providerPaymentMethodRef: 'sandbox:local' });
    // Paying early loses nothing: the new period follows the trial day.
    expect(paid.currentPeriodStart).toEqual(first.validUntil);
    expect(paid.validUntil).toEqual(new Date(first.validUntil.getTime() + 30 * DAY));

    const again = await renew(token, { method: 'local', channel: 'qris' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'Anda sudah membayar periode berikutnya. Periode sesudahnya bisa dibayar mulai 7 hari sebelum dimulai.',
    );

    // Into the paid period, the next one can be paid from 7 days before it begins, not sooner.
    app().billing.clock.set(new Date(paid.validUntil.getTime() - 8 * DAY));
    const early = await renew(token, { method: 'local', channel: 'qris' });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(
      'Langganan Anda masih berjalan. Periode berikutnya bisa dibayar mulai 7 hari sebelum langganan berakhir.',
    );
    app().billing.clock.set(new Date(paid.validUntil.getTime() - 7 * DAY + 60_000));
    const next = await renew(token, { method: 'local', channel: 'bca_va' });
    expect(next.statusCode).toBe(200);
    await pay(next.json().data.registerId);
    const twice = await subscriptionOf(userId);
    expect(twice).toMatchObject({ status: 'active', periodIndex: 2 });
    expect(twice.currentPeriodStart).toEqual(paid.validUntil);
    expect(twice.validUntil).toEqual(new Date(paid.validUntil.getTime() + 30 * DAY));
    const rows = await app().db.select().from(payments).where(eq(payments.userId, userId));
    expect(rows.filter((row) => row.kind === 'renewal').map((row) => row.state)).toEqual(['succeeded', 'succeeded']);
  });

  const info = async (token: string) =>
    (
      await app().inject({
        method: 'GET',
        url: '/api/v1/personnal/subscribe/info',
        headers: { authorization: token },
      })
    ).json().data;

  it('subscribe/info says when the period starts and whether the next one is paid', async () => {
    const { token, userId } = await subscriber();
    const first = await subscriptionOf(userId);
    expect(await info(token)).toMatchObject({
      periodStart: first.currentPeriodStart.toISOString(),
      nextPeriodPaid: false,
    });
    const ahead = await renew(token, { method: 'local', channel: 'qris' });
    await pay(ahead.json().data.registerId);
    expect(await info(token)).toMatchObject({
      periodStart: first.validUntil.toISOString(),
      validUntil: new Date(first.validUntil.getTime() + 30 * DAY).toISOString(),
      nextPeriodPaid: true,
    });
    // Once the paid period has begun, the one after it is not paid.
    app().billing.clock.set(new Date(first.validUntil.getTime() + 60_000));
    expect(await info(token)).toMatchObject({ periodStart: first.validUntil.toISOString(), nextPeriodPaid: false });
  });

  it('subscribe/info shows its owner the payment that waits, until it is paid or expires, and nobody else', async () => {
    const { token, userId } = await subscriber();
    const other = await subscriber();
    expect((await info(token)).waitingPayment).toBeNull();

    const ahead = await renew(token, { method: 'local', channel: 'gopay' });
    const { registerId, payment } = ahead.json().data;
    const waiting = (await info(token)).waitingPayment;
    expect(waiting).toEqual({ registerId, payment });
    expect(waiting.payment).toMatchObject({ channel: 'gopay', amount: 449000, currencyCode: 'IDR' });
    expect(waiting.payment.qrString).toEqual(expect.any(String));
    expect((await info(other.token)).waitingPayment).toBeNull();

    // Past its expiry it is no longer payable, so no longer shown.
    app().billing.clock.set(new Date(new Date(payment.expiresAt).getTime() + 1000));
    expect((await info(token)).waitingPayment).toBeNull();
    app().billing.clock.set(null);
    expect((await info(token)).waitingPayment).toEqual({ registerId, payment });
    await pay(registerId);
    expect((await info(token)).waitingPayment).toBeNull();

    // Ended: a renewal by virtual account waits for a day, with its number to show again.
    const { validUntil } = await subscriptionOf(userId);
    app().billing.clock.set(new Date(validUntil.getTime() + 60_000));
    const renewal = await renew(token, { method: 'local', channel: 'bca_va' });
    expect(renewal.statusCode).toBe(200);
    const again = await info(token);
    expect(again).toMatchObject({ status: 'expired', waitingPayment: { registerId: renewal.json().data.registerId } });
    expect(again.waitingPayment.payment).toMatchObject({ channel: 'bca_va', vaNumber: expect.any(String) });
  });

  it('never stacks two periods when two payments for the same period both succeed', async () => {
    const { token, userId } = await subscriber();
    const first = await subscriptionOf(userId);
    const one = await renew(token, { method: 'local', channel: 'qris' });
    // A second payment that slipped past the check (another tab at the same moment), recorded the same way.
    await app()
      .db.update(payments)
      .set({ state: 'failed' })
      .where(eq(payments.registrationId, one.json().data.registerId));
    const two = await renew(token, { method: 'local', channel: 'qris' });
    expect(two.statusCode).toBe(200);
    await app()
      .db.update(payments)
      .set({ state: 'pending' })
      .where(eq(payments.registrationId, one.json().data.registerId));
    await pay(two.json().data.registerId);
    await pay(one.json().data.registerId);
    const after = await subscriptionOf(userId);
    expect(after.periodIndex).toBe(1);
    expect(after.validUntil).toEqual(new Date(first.validUntil.getTime() + 30 * DAY));
    const [late] = await app()
      .db.select()
      .from(payments)
      .where(eq(payments.registrationId, one.json().data.registerId));
    expect(late).toMatchObject({ refundReason: 'duplicate_payment' });
  });
});
