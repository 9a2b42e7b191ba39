import { eq } from 'drizzle-orm';
import { payments, registrations } from '../../../src/db/schema/billing';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { FakeMidtrans } from '../../support/fake-midtrans';
import { freshEmail, freshIp } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';
import { sessionTokenOf } from '../../support/session-token';
import { subscriptions } from '../../../src/db/schema/billing';
import { operators } from '../../../src/db/schema/operators';
import { startOperatorSession } from '../../../src/operators/operator-sessions';
import { OPERATOR_COOKIE } from '../../../src/plugins/operator-guard';
import { attemptPaymentKey } from '../../../src/billing/local-payments';

const SERVER_KEY = 'SB-Mid-server-kabari-test';

// Midtrans alone (no Stripe, no PayPal), pointed at the local fake of its API.
describeEachDatabase('Midtrans', (driver) => {
  let testApp: TestApp;
  let operatorCookie: string;
  const midtrans = new FakeMidtrans(SERVER_KEY);
  const app = () => testApp.app;

  beforeAll(async () => {
    await midtrans.start();
    testApp = await buildTestApp(driver, {
      MIDTRANS_SERVER_KEY: SERVER_KEY,
      MIDTRANS_MERCHANT_NAME: 'Kabari Keluarga',
      MIDTRANS_API_URL: midtrans.base,
      RENEWAL_INTERVAL_SECONDS: '0',
    });
    const [operator] = await testApp.app.db
      .insert(operators)
      .values({ email: 'midtrans-desk@kabari.localhost', enrolledAt: new Date() })
      .returning();
    operatorCookie = `${OPERATOR_COOKIE}=${(await startOperatorSession(testApp.app.db, operator!)).token}`;
  });
  afterAll(async () => {
    await testApp?.close();
    await midtrans.stop();
  });
  afterEach(() => {
    app().billing.clock.set(null);
    midtrans.statusUnavailable = false;
    midtrans.qrImageUnavailable = false;
    midtrans.qrImageElsewhere = false;
  });

  const signUp = async (channel: string, email = freshEmail('midtrans')) => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/local',
      remoteAddress: freshIp(),
      payload: { email, displayName: 'Rina', locale: 'id', ageConfirmed: true, termsAccepted: true, channel },
    });
    expect(response.statusCode).toBe(200);
    return response.json().data as { registerId: string; payment: Record<string, unknown> };
  };
  const state = async (registerId: string) =>
    (
      await app().inject({
        method: 'GET',
        url: `/api/v1/personnal/registerQuery/${registerId}`,
        headers: { 'accept-language': 'en' },
      })
    ).json().data;
  const refundQueue = async () => {
    const answer = await app().inject({
      method: 'GET',
      url: '/api/v1/operator/refunds-owed',
      headers: { cookie: operatorCookie },
    });
    expect(answer.statusCode).toBe(200);
    return answer.json().data.refunds as { id: string; source: string; state: string; amountMinor: number }[];
  };
  const paymentOf = async (registerId: string) =>
    (await app().db.select().from(payments).where(eq(payments.registrationId, registerId)))[0];

  it('charges each channel through the Core API and shows what the payer needs', async () => {
    const terms = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'id' },
    });
    expect(terms.json().data).toMatchObject({
      methods: { card: null, paypal: null, local: 'midtrans' },
      sandbox: false,
    });
    const qris = await signUp('qris');
    expect(qris.payment).toMatchObject({
      channel: 'qris',
      amount: 14900,
      currencyCode: 'IDR',
      merchantName: 'Kabari Keluarga',
      qrString: expect.stringMatching(/^000201/),
    });
    const charge = midtrans.calls.find(
      (call) =>
        call.path === '/v2/charge' &&
        (call.body.transaction_details as { order_id: string }).order_id === qris.registerId,
    );
    expect(charge?.body).toMatchObject({
      payment_type: 'qris',
      transaction_details: { order_id: qris.registerId, gross_amount: 14900 },
      custom_expiry: { expiry_duration: 15, unit: 'minute' },
    });
    expect((await signUp('gopay')).payment.deeplinkUrl).toEqual(expect.stringContaining('gopay'));
    expect((await signUp('shopeepay')).payment.deeplinkUrl).toEqual(expect.stringContaining('shopeepay'));
    for (const bank of ['bca', 'bni', 'bri']) {
      const va = await signUp(`${bank}_va`);
      expect(va.payment.vaNumber).toMatch(/^\d+$/);
      expect(midtrans.orders.get(va.registerId)).toMatchObject({ payment_type: 'bank_transfer', bank });
    }
    const bill = await signUp('mandiri_bill');
    expect(bill.payment).toMatchObject({ billerCode: '70012', vaNumber: expect.stringMatching(/^5112/) });
    expect(midtrans.orders.get(bill.registerId)?.payment_type).toBe('echannel');
    expect(await state(bill.registerId)).toEqual({ state: 'querying', payment: bill.payment });
  });

  it("GoPay: Midtrans's QR image is read into a code the page draws beside the deep link; without it, the deep link alone", async () => {
    const gopay = await signUp('gopay');
    const order = midtrans.orders.get(gopay.registerId)!;
    expect(gopay.payment).toMatchObject({
      channel: 'gopay',
      qrString: midtrans.gopayQrText(order.transaction_id),
      deeplinkUrl: expect.stringContaining('gopay'),
    });
    expect(gopay.payment.qrString).toMatch(/^000201/);
    expect(await state(gopay.registerId)).toMatchObject({ payment: gopay.payment });

    midtrans.qrImageUnavailable = true;
    const unreadable = await signUp('gopay');
    expect(unreadable.payment.qrString).toBeUndefined();
    expect(unreadable.payment.deeplinkUrl).toEqual(expect.stringContaining('gopay'));

    // An image anywhere but at Midtrans is never fetched.
    midtrans.qrImageUnavailable = false;
    midtrans.qrImageElsewhere = true;
    const calls = midtrans.calls.length;
    const elsewhere = await signUp('gopay');
    expect(elsewhere.payment.qrString).toBeUndefined();
    expect(midtrans.calls.slice(calls).some((call) => call.path.includes('qr'))).toBe(false);
  });

  it('settles on a genuine notification confirmed by the status call, once; a replay or a late pending changes nothing', async () => {
    const { registerId } = await signUp('qris');
    // A notification Midtrans's status does not back (still pending there) settles nothing.
    const early = await midtrans.notify(app(), midtrans.notification(registerId, { transaction_status: 'settlement' }));
    expect(early.statusCode).toBe(200);
    expect((await state(registerId)).state).toBe('querying');

    midtrans.setStatus(registerId, 'settlement');
    const settled = midtrans.notification(registerId, { transaction_status: 'settlement', status_code: '200' });
    // The status call failing: refused (502) without recording, so Midtrans sends it again.
    midtrans.statusUnavailable = true;
    expect((await midtrans.notify(app(), settled)).statusCode).toBe(502);
    midtrans.statusUnavailable = false;

    const first = await midtrans.notify(app(), settled);
    expect(first.json().data).toEqual({ received: true, duplicate: false });
    expect((await state(registerId)).state).toBe('created');
    const payment = await paymentOf(registerId);
    expect(payment).toMatchObject({ state: 'succeeded', provider: 'midtrans', amount: 14900, providerRef: registerId });

    expect((await midtrans.notify(app(), settled)).json().data).toEqual({ received: true, duplicate: true });
    const late = await midtrans.notify(
      app(),
      midtrans.notification(registerId, { transaction_status: 'pending', status_code: '201' }),
    );
    expect(late.statusCode).toBe(200);
    expect(await paymentOf(registerId)).toEqual(payment);
    const [row] = await app().db.select().from(registrations).where(eq(registrations.id, registerId));
    expect(row?.state).toBe('created');
  });

  it('refuses a notification with a wrong or missing signature (403), and nothing changes', async () => {
    const { registerId } = await signUp('gopay');
    midtrans.setStatus(registerId, 'settlement');
    const forged = midtrans.notification(registerId, {}, 'SB-Mid-server-someone-else');
    expect((await midtrans.notify(app(), forged)).statusCode).toBe(403);
    const { signature_key: _dropped, ...unsigned } = midtrans.notification(registerId);
    expect((await midtrans.notify(app(), unsigned)).statusCode).toBe(403);
    const tampered = { ...midtrans.notification(registerId), gross_amount: '1.00' };
    expect((await midtrans.notify(app(), tampered)).statusCode).toBe(403);
    expect((await state(registerId)).state).toBe('querying');
    expect((await paymentOf(registerId))?.state).toBe('pending');
  });

  it('ends an attempt paid with another amount than asked, and owes the money back once, in the refund queue', async () => {
    const email = freshEmail('mismatch');
    const { registerId } = await signUp('qris', email);
    midtrans.setStatus(registerId, 'settlement', '100.00');
    const notification = midtrans.notification(registerId);
    const answer = await midtrans.notify(app(), notification);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual({ received: true, duplicate: false });
    // It never counts: no account, the attempt ends with its own code and says the money comes back.
    expect(await state(registerId)).toEqual({
      state: 'sign_failed',
      failureCode: 'payment_amount_mismatch',
      failureMessage: expect.stringContaining('did not match the price asked'),
    });
    const indonesian = await app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });
    expect(indonesian.json().data.failureMessage).toContain('tidak sesuai dengan harga yang diminta');
    const payment = await paymentOf(registerId);
    expect(payment).toMatchObject({
      state: 'succeeded',
      amount: 100,
      currency: 'IDR',
      userId: null,
      failureCode: null,
      refundReason: 'amount_mismatch',
      refundOwedAt: expect.any(Date),
    });
    // Left to the operator: nothing is refunded by itself.
    expect(midtrans.calls.some((call) => call.path === `/v2/${registerId}/refund`)).toBe(false);
    const owed = async () => (await refundQueue()).filter((row) => row.id === payment!.id);
    expect(await owed()).toEqual([
      expect.objectContaining({
        source: 'amount_mismatch',
        // No account was made: the operator reaches the payer by the email of their sign-up.
        email,
        amountMinor: 100,
        currency: 'IDR',
        provider: 'midtrans',
        state: 'owed',
        canRefund: true,
      }),
    ]);

    // A replay, a notification claiming another state, and the reconciliation pass record nothing twice.
    expect((await midtrans.notify(app(), notification)).json().data).toEqual({ received: true, duplicate: true });
    const claimed = midtrans.notification(registerId, { transaction_status: 'capture' });
    expect((await midtrans.notify(app(), claimed)).statusCode).toBe(200);
    await app().billing.reconcileSignUps(new Date(Date.now() + 20 * 60_000));
    expect(await paymentOf(registerId)).toEqual(payment);
    expect(await owed()).toHaveLength(1);
    expect((await state(registerId)).failureCode).toBe('payment_amount_mismatch');
  });

  it('the reconciliation pass ends an attempt paid with another amount too, once, whichever comes after', async () => {
    const { registerId } = await signUp('bca_va');
    midtrans.setStatus(registerId, 'settlement', '449000.00');
    await app().billing.reconcileSignUps(new Date(Date.now() + 6 * 60_000));
    expect(await state(registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'payment_amount_mismatch' });
    const payment = await paymentOf(registerId);
    expect(payment).toMatchObject({ state: 'succeeded', amount: 449000, refundReason: 'amount_mismatch' });
    expect((await refundQueue()).filter((row) => row.id === payment!.id)).toHaveLength(1);

    await app().billing.reconcileSignUps(new Date(Date.now() + 30 * 60_000));
    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    expect(await paymentOf(registerId)).toEqual(payment);
    expect((await refundQueue()).filter((row) => row.id === payment!.id)).toHaveLength(1);
  });

  it.each([
    ['expire', 'payment_expired', 'The time to pay ran out'],
    ['cancel', 'payment_cancelled', 'The payment was cancelled'],
    ['deny', 'payment_denied', 'refused this payment'],
  ])('ends the attempt when Midtrans says %s, with a clear message', async (status, code, message) => {
    const { registerId } = await signUp('bni_va');
    midtrans.setStatus(registerId, status);
    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    expect(await state(registerId)).toEqual({
      state: 'sign_failed',
      failureCode: code,
      failureMessage: expect.stringContaining(message),
    });
    expect(await paymentOf(registerId)).toMatchObject({ state: 'failed', failureCode: code });
  });

  it('settles a payment whose notification never came, and expires one past its time, in the reconciliation pass', async () => {
    const paid = await signUp('shopeepay');
    const unpaid = await signUp('qris');
    midtrans.setStatus(paid.registerId, 'settlement');
    const report = await app().billing.reconcileSignUps(new Date(Date.now() + 6 * 60_000));
    expect(report.settled).toBeGreaterThanOrEqual(1);
    expect((await state(paid.registerId)).state).toBe('created');
    expect((await state(unpaid.registerId)).state).toBe('querying');

    await app().billing.reconcileSignUps(new Date(Date.now() + 16 * 60_000));
    expect(midtrans.orders.get(unpaid.registerId)?.transaction_status).toBe('expire');
    expect(midtrans.calls.some((call) => call.path === `/v2/${unpaid.registerId}/expire`)).toBe(true);
    expect(await state(unpaid.registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'payment_expired' });
  });

  it('refunds through Midtrans where the channel allows it, and leaves a virtual account to a transfer by hand', async () => {
    // Two attempts for one email, both paid: the second found the email taken, so its money is owed back.
    const email = freshEmail('twice');
    const first = await signUp('qris', email);
    const byQris = await signUp('qris', email);
    const byVa = await signUp('bca_va', email);
    for (const attempt of [first, byQris, byVa]) {
      midtrans.setStatus(attempt.registerId, 'settlement');
      expect((await midtrans.notify(app(), midtrans.notification(attempt.registerId))).statusCode).toBe(200);
    }
    expect((await state(first.registerId)).state).toBe('created');
    expect(await state(byQris.registerId)).toMatchObject({ state: 'sign_failed', failureCode: 'email_in_use' });
    expect(midtrans.orders.get(byQris.registerId)?.transaction_status).toBe('refund');
    expect(midtrans.orders.get(byQris.registerId)?.refundKeys.size).toBe(1);
    expect(await paymentOf(byQris.registerId)).toMatchObject({ state: 'refunded', refundOwedAt: null });

    expect(midtrans.orders.get(byVa.registerId)?.transaction_status).toBe('settlement');
    expect(await paymentOf(byVa.registerId)).toMatchObject({
      state: 'succeeded',
      refundFailure: 'manual_transfer',
      refundFailedAt: expect.any(Date),
    });
    const operator = await app()
      .db.select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, `refund-refused:${(await paymentOf(byVa.registerId))!.id}`));
    expect(operator).toHaveLength(1);
  });

  const subscriptionOf = async (registerId: string) => {
    const [registration] = await app().db.select().from(registrations).where(eq(registrations.id, registerId));
    const [row] = await app()
      .db.select()
      .from(subscriptions)
      .where(eq(subscriptions.id, registration!.subscriptionId!));
    return row!;
  };
  const settledNotice = (registerId: string) =>
    midtrans.notification(registerId, { transaction_status: 'settlement', status_code: '200' });

  it("records refunds made in Midtrans's dashboard, each once: a part leaves the subscription, the rest ends it as ours do", async () => {
    const { registerId } = await signUp('gopay');
    midtrans.setStatus(registerId, 'settlement');
    await midtrans.notify(app(), midtrans.notification(registerId));
    expect((await state(registerId)).state).toBe('created');
    expect((await subscriptionOf(registerId)).status).toBe('trial');

    midtrans.refundInDashboard(registerId, '4900.00');
    const partial = midtrans.notification(registerId);
    expect(partial.transaction_status).toBe('partial_refund');
    expect((await midtrans.notify(app(), partial)).json().data).toEqual({ received: true, duplicate: false });
    expect(await paymentOf(registerId)).toMatchObject({ state: 'partly_refunded', refundedAmount: 4900 });
    expect((await subscriptionOf(registerId)).status).toBe('trial');
    expect((await midtrans.notify(app(), partial)).json().data).toEqual({ received: true, duplicate: true });

    midtrans.refundInDashboard(registerId);
    const full = midtrans.notification(registerId);
    expect(full.transaction_status).toBe('refund');
    expect((await midtrans.notify(app(), full)).json().data).toEqual({ received: true, duplicate: false });
    const payment = await paymentOf(registerId);
    expect(payment).toMatchObject({ state: 'refunded', refundedAmount: 14900 });
    const subscription = await subscriptionOf(registerId);
    expect(subscription.status).toBe('unsubscribed');
    const told = await app()
      .db.select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, `reversal-ended:${subscription.id}:${payment!.id}`));
    expect(told).toHaveLength(1);

    // Midtrans posts a refund again once the bank confirms it; a late settlement's notification comes too.
    expect((await midtrans.notify(app(), full)).json().data).toEqual({ received: true, duplicate: true });
    expect((await midtrans.notify(app(), settledNotice(registerId))).json().data).toEqual({
      received: true,
      duplicate: true,
    });
    expect(await paymentOf(registerId)).toEqual(payment);
    expect(await subscriptionOf(registerId)).toEqual(subscription);
  });

  it("a refund that overtakes the settlement's notification books the payment first, then the refund; the settlement after changes nothing", async () => {
    const { registerId } = await signUp('qris');
    midtrans.setStatus(registerId, 'settlement');
    midtrans.refundInDashboard(registerId);
    const refund = await midtrans.notify(app(), midtrans.notification(registerId));
    expect(refund.json().data).toEqual({ received: true, duplicate: false });
    // Booked as paid (the account exists), then refunded in full: the result page says it ended.
    const [row] = await app().db.select().from(registrations).where(eq(registrations.id, registerId));
    expect(row?.state).toBe('created');
    expect((await state(registerId)).state).toBe('unsubscribed');
    const payment = await paymentOf(registerId);
    expect(payment).toMatchObject({ state: 'refunded', amount: 14900, refundedAmount: 14900 });
    const subscription = await subscriptionOf(registerId);
    expect(subscription.status).toBe('unsubscribed');

    expect((await midtrans.notify(app(), settledNotice(registerId))).statusCode).toBe(200);
    expect(await paymentOf(registerId)).toEqual(payment);
    expect(await subscriptionOf(registerId)).toEqual(subscription);
  });

  it('the reconciliation pass books a waiting payment refunded at Midtrans meanwhile, and its refund, once', async () => {
    const { registerId } = await signUp('shopeepay');
    midtrans.setStatus(registerId, 'settlement');
    midtrans.refundInDashboard(registerId, '1000.00');
    await app().billing.reconcileSignUps(new Date(Date.now() + 6 * 60_000));
    expect((await state(registerId)).state).toBe('created');
    const payment = await paymentOf(registerId);
    expect(payment).toMatchObject({ state: 'partly_refunded', refundedAmount: 1000 });
    expect((await subscriptionOf(registerId)).status).toBe('trial');

    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    expect(await paymentOf(registerId)).toEqual(payment);
  });

  it("a payment of another amount refunded in full in Midtrans's dashboard is no longer owed", async () => {
    const { registerId } = await signUp('qris');
    midtrans.setStatus(registerId, 'settlement', '100.00');
    await midtrans.notify(app(), midtrans.notification(registerId));
    const owed = await paymentOf(registerId);
    expect((await refundQueue()).filter((row) => row.id === owed!.id)).toHaveLength(1);

    midtrans.refundInDashboard(registerId);
    expect((await midtrans.notify(app(), midtrans.notification(registerId))).statusCode).toBe(200);
    expect(await paymentOf(registerId)).toMatchObject({
      state: 'refunded',
      refundedAmount: 100,
      refundReason: 'amount_mismatch',
      refundOwedAt: null,
    });
    expect((await refundQueue()).filter((row) => row.id === owed!.id)).toHaveLength(0);
    expect((await state(registerId)).failureCode).toBe('payment_amount_mismatch');
  });

  it('a payment refunded in part in the dashboard is not taken as refunded: our full refund goes to the operator', async () => {
    const { registerId } = await signUp('qris');
    midtrans.setStatus(registerId, 'settlement');
    midtrans.refundInDashboard(registerId, '1000.00');
    const processor = app().billing.midtrans!;
    await expect(processor.refund(registerId, 'refund:test-partial')).rejects.toMatchObject({
      code: 'midtrans_412',
    });
    midtrans.refundInDashboard(registerId);
    const calls = midtrans.calls.length;
    await expect(processor.refund(registerId, 'refund:test-partial')).resolves.toBeUndefined();
    expect(midtrans.calls.slice(calls).map((call) => call.path)).toEqual([`/v2/${registerId}/status`]);
  });

  it('an expired subscriber renews with a local channel: the payment to show, then the notification restarts it', async () => {
    const { registerId } = await signUp('qris');
    midtrans.setStatus(registerId, 'settlement');
    await midtrans.notify(app(), midtrans.notification(registerId));
    const { authCode } = await state(registerId);
    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/loginByAuthCode',
      remoteAddress: freshIp(),
      payload: { authCode },
    });
    const token = sessionTokenOf(login);
    const renew = (payload: object) =>
      app().inject({
        method: 'POST',
        url: '/api/v1/personnal/subscribe/renew',
        headers: { authorization: token },
        payload,
      });
    app().billing.clock.set(new Date(Date.now() + 3 * 24 * 60 * 60_000));
    expect((await renew({ method: 'local' })).statusCode).toBe(400);
    const renewed = await renew({ method: 'local', channel: 'bri_va' });
    expect(renewed.statusCode).toBe(200);
    const { registerId: renewalId, payment } = renewed.json().data;
    expect(payment).toMatchObject({
      channel: 'bri_va',
      amount: 449000,
      currencyCode: 'IDR',
      vaNumber: expect.any(String),
    });
    expect((await state(renewalId)).state).toBe('querying');

    midtrans.setStatus(renewalId, 'settlement');
    expect((await midtrans.notify(app(), midtrans.notification(renewalId))).statusCode).toBe(200);
    expect((await state(renewalId)).state).toBe('created');
    const mine = (await app().db.select().from(subscriptions)).find(
      (row) => row.periodIndex === 1 && row.provider === 'midtrans',
    );
    expect(mine).toMatchObject({ status: 'active', provider: 'midtrans', currency: 'IDR' });
    expect(await paymentOf(renewalId)).toMatchObject({ kind: 'renewal', state: 'succeeded', amount: 449000 });
    // Both attempts are paid and hold the same user and subscription; each keeps its own payment's key.
    for (const id of [registerId, renewalId]) {
      const [row] = await app().db.select().from(registrations).where(eq(registrations.id, id));
      expect(await attemptPaymentKey(app().db, row!)).toBe((await paymentOf(id))!.idempotencyKey);
    }
    const info = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/subscribe/info',
      headers: { authorization: token },
    });
    expect(info.json().data).toMatchObject({ status: 'active', renewsWhenPaid: true, nextDebitDay: null });
    // Nothing charges it by itself: past its period the renewal job leaves it, and it ends on time.
    const ended = new Date(Date.parse(info.json().data.validUntil) + 60_000);
    await app().billing.runRenewals(ended);
    expect((await app().db.select().from(payments).where(eq(payments.subscriptionId, mine!.id))).length).toBe(2);
    app().billing.clock.set(ended);
    const after = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/subscribe/info',
      headers: { authorization: token },
    });
    expect(after.json().data).toMatchObject({ status: 'expired', expiredStatus: 1 });
  });
});
