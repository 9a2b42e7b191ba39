import { eq } from 'drizzle-orm';
import { users } from '../../../src/db/schema/accounts';
import { payments, registrations, subscriptions } from '../../../src/db/schema/billing';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { FakeMidtrans } from '../../support/fake-midtrans';
import { freshEmail, freshIp, signUpWithQris } from '../../support/sign-up';
import { sessionTokenOf } from '../../support/session-token';
import { buildTestApp, type TestApp } from '../../support/test-app';

const SERVER_KEY = 'SB-Mid-server-kabari-cancel-test';
const DAY = 24 * 60 * 60_000;
const NOT_FOUND = {
  en: 'No payment of yours is waiting under this reference: it may have been paid, cancelled or expired already.',
  id: 'Tidak ada pembayaran Anda yang menunggu dengan referensi ini: mungkin sudah dibayar, dibatalkan, atau kedaluwarsa.',
};

/** The routes a subscriber uses around a waiting payment, each from an address of its own (renew is throttled). */
function subscriberCalls(app: () => TestApp['app']) {
  const renew = (token: string, payload: object) =>
    app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/renew',
      remoteAddress: freshIp(),
      headers: { authorization: token },
      payload,
    });
  const cancel = (token: string, registerId: string, language = 'en') =>
    app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/waiting-payment/cancel',
      remoteAddress: freshIp(),
      headers: { authorization: token, 'accept-language': language },
      payload: { registerId },
    });
  const info = async (token: string) =>
    (
      await app().inject({
        method: 'GET',
        url: '/api/v1/personnal/subscribe/info',
        headers: { authorization: token },
      })
    ).json().data;
  const attempt = async (registerId: string) =>
    (await app().db.select().from(registrations).where(eq(registrations.id, registerId)))[0]!;
  const paymentOf = async (registerId: string) =>
    (await app().db.select().from(payments).where(eq(payments.registrationId, registerId)))[0]!;
  const subscriptionOf = async (userId: string) =>
    (await app().db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!;
  return { renew, cancel, info, attempt, paymentOf, subscriptionOf };
}

// A renewal's waiting QRIS, e-wallet or virtual account payment, cancelled by its owner to pay another way.
describeEachDatabase('Cancelling a waiting renewal payment at Midtrans', (driver) => {
  let testApp: TestApp;
  const midtrans = new FakeMidtrans(SERVER_KEY);
  const app = () => testApp.app;
  const { renew, cancel, info, attempt, paymentOf, subscriptionOf } = subscriberCalls(app);

  beforeAll(async () => {
    await midtrans.start();
    testApp = await buildTestApp(driver, {
      MIDTRANS_SERVER_KEY: SERVER_KEY,
      MIDTRANS_MERCHANT_NAME: 'Kabari Keluarga',
      MIDTRANS_API_URL: midtrans.base,
      RENEWAL_INTERVAL_SECONDS: '0',
    });
  });
  afterAll(async () => {
    await testApp?.close();
    await midtrans.stop();
  });
  afterEach(() => {
    app().billing.clock.set(null);
    midtrans.unreachable = false;
  });

  /** A subscriber who signed up with QRIS at Midtrans (paid), signed in: on their first day, so payable ahead. */
  const subscriber = async () => {
    const email = freshEmail('cancel-wait');
    const signUp = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/local',
      remoteAddress: freshIp(),
      payload: { email, displayName: 'Rina', locale: 'id', ageConfirmed: true, termsAccepted: true, channel: 'qris' },
    });
    const { registerId } = signUp.json().data;
    midtrans.setStatus(registerId, 'settlement');
    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    const query = await app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });
    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/loginByAuthCode',
      remoteAddress: freshIp(),
      payload: { authCode: query.json().data.authCode },
    });
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    return { token: sessionTokenOf(login), userId: user!.id, signUpId: registerId as string };
  };
  const callsFor = (registerId: string) => midtrans.calls.filter((call) => call.path.startsWith(`/v2/${registerId}/`));

  it('the owner cancels: the order is expired at Midtrans, the attempt ends payment_cancelled, another can start', async () => {
    const { token, userId } = await subscriber();
    const before = await subscriptionOf(userId);
    const started = await renew(token, { method: 'local', channel: 'bca_va' });
    expect(started.statusCode).toBe(200);
    const { registerId } = started.json().data;
    expect((await info(token)).waitingPayment).toMatchObject({ registerId });
    // While it waits, another way to pay for the same period is refused.
    expect((await renew(token, { method: 'local', channel: 'bni_va' })).statusCode).toBe(409);

    const cancelled = await cancel(token, registerId);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.headers['cache-control']).toBe('no-store');
    expect(cancelled.json().data).toMatchObject({ status: 'trial', nextPeriodPaid: false, waitingPayment: null });
    expect(cancelled.json().data.validUntil).toBe(before.validUntil.toISOString());
    expect(midtrans.orders.get(registerId)?.transaction_status).toBe('expire');
    expect(callsFor(registerId).map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST /v2/${registerId}/expire`,
      `GET /v2/${registerId}/status`,
    ]);
    expect(await attempt(registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'payment_cancelled' });
    expect(await paymentOf(registerId)).toMatchObject({
      kind: 'renewal',
      state: 'failed',
      failureCode: 'payment_cancelled',
    });
    expect((await info(token)).waitingPayment).toBeNull();
    expect(await subscriptionOf(userId)).toMatchObject({ periodIndex: before.periodIndex, status: before.status });
    // The payments list says it was cancelled, not refused.
    const listed = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/payments',
      headers: { authorization: token },
    });
    const cancelledId = (await paymentOf(registerId)).id;
    expect(listed.json().data.items.find((item: { id: string }) => item.id === cancelledId)).toMatchObject({
      state: 'failed',
      ended: 'cancelled',
    });

    // Midtrans's own notification of the expiry comes afterwards and changes nothing.
    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    expect(await attempt(registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'payment_cancelled' });

    const other = await renew(token, { method: 'local', channel: 'qris' });
    expect(other.statusCode).toBe(200);
    expect((await info(token)).waitingPayment).toMatchObject({ registerId: other.json().data.registerId });
  });

  it('cancelling twice changes nothing the second time', async () => {
    const { token } = await subscriber();
    const { registerId } = (await renew(token, { method: 'local', channel: 'gopay' })).json().data;
    const first = await cancel(token, registerId);
    expect(first.statusCode).toBe(200);
    const ended = await attempt(registerId);
    const payment = await paymentOf(registerId);
    const calls = midtrans.calls.length;

    const second = await cancel(token, registerId);
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toEqual(first.json().data);
    expect(midtrans.calls.length).toBe(calls);
    expect(await attempt(registerId)).toEqual(ended);
    expect(await paymentOf(registerId)).toEqual(payment);
  });

  it("another user's payment, an unknown one, a sign-up's or one paid already: 404, and nothing changes", async () => {
    const owner = await subscriber();
    const stranger = await subscriber();
    const { registerId } = (await renew(owner.token, { method: 'local', channel: 'bri_va' })).json().data;
    const calls = midtrans.calls.length;

    const theirs = await cancel(stranger.token, registerId, 'id');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe(NOT_FOUND.id);
    const unknown = await cancel(owner.token, '3f1c2b9e-8a7d-4c6b-9e5f-1a2b3c4d5e6f');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(NOT_FOUND.en);
    // Their own sign-up's payment (paid) is not a renewal's that waits.
    expect((await cancel(owner.token, owner.signUpId)).statusCode).toBe(404);
    expect(midtrans.calls.length).toBe(calls);
    expect(midtrans.orders.get(registerId)?.transaction_status).toBe('pending');
    expect(await attempt(registerId)).toMatchObject({ state: 'querying', failureCode: null });
    expect((await info(owner.token)).waitingPayment).toMatchObject({ registerId });

    const signedOut = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/waiting-payment/cancel',
      payload: { registerId },
    });
    expect(signedOut.statusCode).toBe(401);

    // Paid and booked: ended otherwise, so there is nothing to cancel.
    midtrans.setStatus(registerId, 'settlement');
    await midtrans.notify(app(), midtrans.notification(registerId));
    const paid = await cancel(owner.token, registerId);
    expect(paid.statusCode).toBe(404);
    expect(await paymentOf(registerId)).toMatchObject({ state: 'succeeded' });
  });

  it('paid at Midtrans just before the cancel: settled as paid, and the answer shows the renewed subscription', async () => {
    const { token, userId } = await subscriber();
    const first = await subscriptionOf(userId);
    // Expired: a renewal by virtual account for a new period from now.
    const later = new Date(first.validUntil.getTime() + 2 * DAY);
    app().billing.clock.set(later);
    expect((await info(token)).expiredStatus).toBe(1);
    const { registerId } = (await renew(token, { method: 'local', channel: 'mandiri_bill' })).json().data;
    midtrans.setStatus(registerId, 'settlement');

    const answer = await cancel(token, registerId);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toMatchObject({ status: 'active', expiredStatus: 0, waitingPayment: null });
    expect(answer.json().data.validUntil).toBe(new Date(later.getTime() + 30 * DAY).toISOString());
    // Midtrans refused to expire a settled order.
    expect(midtrans.orders.get(registerId)?.transaction_status).toBe('settlement');
    expect(await attempt(registerId)).toMatchObject({ state: 'created' });
    expect(await paymentOf(registerId)).toMatchObject({ kind: 'renewal', state: 'succeeded', amount: 449000 });
    const renewed = await subscriptionOf(userId);
    expect(renewed).toMatchObject({ status: 'active', periodIndex: first.periodIndex + 1, provider: 'midtrans' });

    // The settlement's notification arrives after: the period is not paid twice.
    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    expect(await subscriptionOf(userId)).toEqual(renewed);
  });

  it('paid ahead at Midtrans just before the cancel: the next period is paid', async () => {
    const { token, userId } = await subscriber();
    const first = await subscriptionOf(userId);
    const { registerId } = (await renew(token, { method: 'local', channel: 'shopeepay' })).json().data;
    midtrans.setStatus(registerId, 'settlement');
    const answer = await cancel(token, registerId, 'id');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toMatchObject({ nextPeriodPaid: true, waitingPayment: null });
    expect(answer.json().data.validUntil).toBe(new Date(first.validUntil.getTime() + 30 * DAY).toISOString());
  });

  it('paid at Midtrans for a period renewed meanwhile: owed back and refunded at once, the subscription as it was', async () => {
    const { token, userId } = await subscriber();
    const first = await subscriptionOf(userId);
    const later = new Date(first.validUntil.getTime() + 2 * DAY);
    app().billing.clock.set(later);
    const { registerId } = (await renew(token, { method: 'local', channel: 'qris' })).json().data;
    // Another attempt paid the period while this one waited (a late renewal charge, say): the subscription moved on.
    const renewedUntil = new Date(later.getTime() + 30 * DAY);
    await app()
      .db.update(subscriptions)
      .set({
        status: 'active',
        periodIndex: first.periodIndex + 1,
        currentPeriodStart: later,
        validUntil: renewedUntil,
      })
      .where(eq(subscriptions.userId, userId));
    const renewed = await subscriptionOf(userId);
    midtrans.setStatus(registerId, 'settlement');

    const answer = await cancel(token, registerId, 'id');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toMatchObject({ status: 'active', waitingPayment: null });
    expect(answer.json().data.validUntil).toBe(renewedUntil.toISOString());
    expect(await subscriptionOf(userId)).toEqual(renewed);
    expect(await attempt(registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'duplicate_payment' });
    // Given back through Midtrans (QRIS can be refunded there) before the answer, and recorded as refunded.
    expect(callsFor(registerId).filter((call) => call.path.endsWith('/refund'))).toHaveLength(1);
    expect(await paymentOf(registerId)).toMatchObject({
      state: 'refunded',
      refundReason: 'duplicate_payment',
      refundOwedAt: null,
      refundedAmount: 449000,
    });
    const [user] = await app().db.select().from(users).where(eq(users.id, userId));
    const told = (await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, user!.email))).filter(
      (row) => row.idempotencyKey.startsWith('duplicate-payment-refunded:'),
    );
    expect(told).toHaveLength(1);

    // The settlement's and the refund's notifications come after: nothing is booked or given back twice.
    const refunded = await paymentOf(registerId);
    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    expect(await paymentOf(registerId)).toEqual(refunded);
    expect(await subscriptionOf(userId)).toEqual(renewed);
    expect(callsFor(registerId).filter((call) => call.path.endsWith('/refund'))).toHaveLength(1);
  });

  it('past its expiry, before the reconciliation pass ended it: booked as expired, as that pass would', async () => {
    const { token } = await subscriber();
    const { registerId, payment } = (await renew(token, { method: 'local', channel: 'qris' })).json().data;
    app().billing.clock.set(new Date(Date.parse(payment.expiresAt) + 60_000));
    const answer = await cancel(token, registerId);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.waitingPayment).toBeNull();
    expect(midtrans.orders.get(registerId)?.transaction_status).toBe('expire');
    expect(await attempt(registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'payment_expired' });
    expect(await paymentOf(registerId)).toMatchObject({ state: 'failed', failureCode: 'payment_expired' });
    const listed = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/payments',
      headers: { authorization: token },
    });
    const expiredId = (await paymentOf(registerId)).id;
    expect(listed.json().data.items.find((item: { id: string }) => item.id === expiredId)).toMatchObject({
      ended: 'expired',
    });
    // It ran out rather than being cancelled: there is nothing left to cancel.
    expect((await cancel(token, registerId)).statusCode).toBe(404);
  });

  it('paid with another amount just before the cancel: ended as a notification would end it, the money owed back', async () => {
    const { token, userId } = await subscriber();
    const before = await subscriptionOf(userId);
    const { registerId } = (await renew(token, { method: 'local', channel: 'qris' })).json().data;
    midtrans.setStatus(registerId, 'settlement', '1000.00');
    const answer = await cancel(token, registerId);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toMatchObject({ nextPeriodPaid: false, waitingPayment: null });
    expect(await attempt(registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'payment_amount_mismatch' });
    expect(await paymentOf(registerId)).toMatchObject({
      state: 'succeeded',
      amount: 1000,
      refundReason: 'amount_mismatch',
      refundOwedAt: expect.any(Date),
    });
    expect(await subscriptionOf(userId)).toMatchObject({
      periodIndex: before.periodIndex,
      validUntil: before.validUntil,
    });
  });

  it('refunded at Midtrans just before the cancel: booked paid, then refunded, as the notifications would', async () => {
    const { token } = await subscriber();
    const { registerId } = (await renew(token, { method: 'local', channel: 'gopay' })).json().data;
    midtrans.setStatus(registerId, 'settlement');
    midtrans.refundInDashboard(registerId);
    const answer = await cancel(token, registerId);
    expect(answer.statusCode).toBe(200);
    expect(await paymentOf(registerId)).toMatchObject({ kind: 'renewal', state: 'refunded', refundedAmount: 449000 });
    // A second cancel finds nothing waiting, and the refund's own notification changes nothing.
    expect((await cancel(token, registerId)).statusCode).toBe(404);
    const refunded = await paymentOf(registerId);
    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    expect(await paymentOf(registerId)).toEqual(refunded);
  });

  it('Midtrans out of reach: 502 with what to do, nothing changed, and the payment still waits', async () => {
    const { token } = await subscriber();
    const { registerId, payment } = (await renew(token, { method: 'local', channel: 'bca_va' })).json().data;
    midtrans.unreachable = true;
    const refused = await cancel(token, registerId, 'id');
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toBe(
      'Midtrans tidak dapat dihubungi, jadi pembayaran belum dibatalkan dan masih bisa dibayar. Silakan coba lagi ' +
        'sebentar lagi.',
    );
    expect((await cancel(token, registerId)).json().message).toBe(
      'Midtrans could not be reached, so the payment was not cancelled and can still be paid. Please try again in a ' +
        'moment.',
    );
    expect(await attempt(registerId)).toMatchObject({ state: 'querying', failureCode: null });
    expect(await paymentOf(registerId)).toMatchObject({ state: 'pending' });
    expect((await info(token)).waitingPayment).toEqual({ registerId, payment });
    expect(midtrans.orders.get(registerId)?.transaction_status).toBe('pending');

    // Back in reach, the same cancel goes through.
    midtrans.unreachable = false;
    expect((await cancel(token, registerId)).json().data.waitingPayment).toBeNull();
    expect(await attempt(registerId)).toMatchObject({ failureCode: 'payment_cancelled' });
  });
});

describeEachDatabase('Cancelling a waiting renewal payment in the sandbox', (driver) => {
  let testApp: TestApp;
  const app = () => testApp.app;
  const { renew, cancel, info, attempt, paymentOf } = subscriberCalls(app);

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('ends the sandbox payment, which can then no longer be paid; twice changes nothing', async () => {
    const { token } = await signUpWithQris(app(), freshEmail('cancel-sandbox'));
    const stranger = await signUpWithQris(app(), freshEmail('cancel-sandbox'));
    const { registerId } = (await renew(token, { method: 'local', channel: 'qris' })).json().data;
    expect((await cancel(stranger.token, registerId)).statusCode).toBe(404);
    expect(await attempt(registerId)).toMatchObject({ state: 'querying' });

    const cancelled = await cancel(token, registerId);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data).toMatchObject({ sandbox: true, waitingPayment: null });
    expect(await attempt(registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'payment_cancelled' });
    expect(await paymentOf(registerId)).toMatchObject({ state: 'failed', failureCode: 'payment_cancelled' });
    // The sandbox's "simulate payment" no longer pays it.
    const simulated = await app().inject({
      method: 'POST',
      url: `/api/v1/personnal/sandboxPayments/${registerId}/pay`,
    });
    expect(simulated.json().data).toEqual({ state: 'sign_failed' });
    const ended = await attempt(registerId);
    const again = await cancel(token, registerId);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(cancelled.json().data);
    expect(await attempt(registerId)).toEqual(ended);

    const next = await renew(token, { method: 'local', channel: 'bri_va' });
    expect(next.statusCode).toBe(200);
    expect((await info(token)).waitingPayment).toMatchObject({ registerId: next.json().data.registerId });
  });
});
