import { and, eq } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { users } from '../../src/db/schema/accounts';
import { payments, subscriptions } from '../../src/db/schema/billing';
import { outboxMessages } from '../../src/db/schema/outbox';
import { describeEachDatabase } from '../support/databases';
import { FakePaypal } from '../support/fake-paypal';
import { connectFakeProviders, FAKE_PROVIDERS_ENV } from '../support/fake-providers';
import {
  paymentIntentEvent,
  postStripeWebhook,
  signedWith,
  stripeRefundsMade,
  type IntentStatus,
  type RecordedStripeCall,
  type RetrievedStatus,
  type StripeRefundAnswer,
} from '../support/fake-stripe';
import { freshEmail, freshIp } from '../support/sign-up';
import { buildTestApp, type TestApp } from '../support/test-app';

// The Indonesian price in dollars: PayPal does not take rupiah, and one PayPal subscriber here reads Indonesian.
const ENV = {
  ...FAKE_PROVIDERS_ENV,
  BILLING_PERIOD_DAYS: '30',
  PRICE_ID_CURRENCY: 'USD',
  PRICE_ID_FIRST_DAY: '0.99',
  PRICE_ID_AMOUNT: '29.99',
};

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describeEachDatabase('the renewal reconciliation job', (driver) => {
  let testApp: TestApp;
  const stripeCalls: RecordedStripeCall[] = [];
  let created: IntentStatus = 'succeeded';
  let retrieved: RetrievedStatus = 'processing';
  let refund: StripeRefundAnswer = 'refunded';
  const paypal = new FakePaypal(ENV.PAYPAL_WEBHOOK_ID);
  let start = new Date('2032-01-01T08:00:00Z');

  beforeAll(async () => {
    await paypal.start();
    testApp = await buildTestApp(driver, ENV);
    connectFakeProviders(testApp, {
      stripeCalls,
      created: () => created,
      retrieved: () => retrieved,
      refund: () => refund,
      paypal,
    });
  });

  beforeEach(() => {
    // Each test its own months, so renewals of earlier tests are long settled before its passes run.
    start = new Date(start.getTime() + 90 * DAY);
    app().billing.clock.set(start);
    created = 'succeeded';
    retrieved = 'processing';
    refund = 'refunded';
    paypal.refundMode = 'completed';
    paypal.captureMode = 'completed';
    paypal.vaultOrder = 'completed';
    paypal.readCapture = 'completed';
  });

  afterAll(async () => {
    await testApp?.close();
    await paypal.stop();
  });

  const app = () => testApp.app;
  /** When the first renewal is due (the first-day charge covers one day). */
  const due = () => new Date(start.getTime() + DAY + MINUTE);
  const after = (ms: number) => new Date(due().getTime() + ms);
  const account = (email: string, locale: 'en' | 'id' = 'en') => ({
    email,
    displayName: 'Rina',
    locale,
    ageConfirmed: true,
    termsAccepted: true,
  });

  async function subscriberOf(email: string) {
    const [row] = await app()
      .db.select({ subscription: subscriptions })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(users.email, email));
    return row!.subscription;
  }

  const renewalOf = async (subscriptionId: string) => {
    const [row] = await app()
      .db.select()
      .from(payments)
      .where(and(eq(payments.subscriptionId, subscriptionId), eq(payments.kind, 'renewal')));
    return row!;
  };
  const mailTo = (email: string) => app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));

  /** A Stripe subscriber whose first renewal Stripe left `processing` (its webhook has not come). */
  async function pendingStripeRenewal() {
    const email = freshEmail();
    const response = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/stripe',
      remoteAddress: freshIp(),
      payload: { ...account(email), method: 'card', paymentMethodId: 'pm_card_visa' },
    });
    expect(response.statusCode).toBe(200);
    const before = await subscriberOf(email);
    created = 'processing';
    expect(await app().billing.runRenewals(due(), before.userId)).toMatchObject({ waiting: 1 });
    created = 'succeeded';
    const renewal = await renewalOf(before.id);
    expect(renewal).toMatchObject({ state: 'pending', providerRef: 'pi_1' });
    return { email, before, renewal };
  }

  /** A PayPal subscriber (vaulted account) whose first renewal's capture PayPal left PENDING. */
  async function pendingPaypalRenewal(locale: 'en' | 'id' = 'en') {
    const email = freshEmail();
    const opened = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      remoteAddress: freshIp(),
      payload: { ...account(email, locale), method: 'paypal' },
    });
    const { registerId, orderId } = opened.json().data as { registerId: string; orderId: string };
    const captured = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      remoteAddress: freshIp(),
      payload: { ...account(email, locale), method: 'paypal', registerId, orderId, capture: true },
    });
    expect(captured.statusCode).toBe(200);
    const before = await subscriberOf(email);
    paypal.vaultOrder = 'pending';
    expect(await app().billing.runRenewals(due(), before.userId)).toMatchObject({ waiting: 1 });
    const renewal = await renewalOf(before.id);
    expect(renewal).toMatchObject({ state: 'pending', providerRef: expect.stringMatching(/^CAPTURE-ORDER/) });
    return { email, before, renewal };
  }

  function stripeRenewalWebhook(
    eventId: string,
    key: string,
    status: 'succeeded' | 'requires_payment_method',
    kind: 'renewal' | 'restart' = 'renewal',
  ) {
    const payload = paymentIntentEvent(eventId, { status, metadata: { kind, idempotencyKey: key } });
    return postStripeWebhook(app(), payload, signedWith(payload, ENV.STRIPE_WEBHOOK_SECRET));
  }

  const paymentById = async (id: string) => {
    const [row] = await app().db.select().from(payments).where(eq(payments.id, id));
    return row!;
  };

  /** The subscriber pays again from the subscription-expired window (Stripe, or PayPal's order then capture). */
  async function renewByHand(userId: string, method: 'card' | 'paypal') {
    const { token } = await createSession(app().db, userId, 'jest');
    const renew = (payload: object) =>
      app().inject({
        method: 'POST',
        url: '/api/v1/personnal/subscribe/renew',
        headers: { authorization: token },
        // Its own address: the route's per-address rate limit (10 a minute) is not what these tests are about.
        remoteAddress: freshIp(),
        payload,
      });
    if (method === 'card') {
      expect((await renew({ method: 'card', paymentMethodId: 'pm_card_visa' })).statusCode).toBe(200);
    } else {
      const opened = (await renew({ method: 'paypal' })).json().data as { registerId: string; orderId: string };
      expect((await renew({ method: 'paypal', ...opened, capture: true })).statusCode).toBe(200);
    }
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(subscription).toMatchObject({ status: 'active', periodIndex: 1 });
    return subscription!;
  }

  /** PayPal's signed event for a renewal's capture. */
  const paypalEvent = (event: { id: string; event_type: string; resource: object }) =>
    paypal.deliverSigned(app(), event);

  const lateRefundNotices = (email: string) =>
    mailTo(email).then((rows) => rows.filter((row) => row.idempotencyKey.startsWith('late-charge-refunded:')));
  const refundCallsFor = (key: string) =>
    stripeCalls.filter((call) => call.path === '/v1/refunds' && call.idempotencyKey === `refund:${key}`);

  const retrievals = () =>
    stripeCalls.filter((call) => call.method === 'GET' && call.path === '/v1/payment_intents/pi_1');

  it('Stripe: a renewal left processing is asked about after five minutes and renewed once; the late webhook adds nothing', async () => {
    const { email, before, renewal } = await pendingStripeRenewal();
    const asked = retrievals().length;
    expect(await app().billing.reconcileRenewals(after(MINUTE))).toMatchObject({ checked: 0 });
    expect(retrievals()).toHaveLength(asked);

    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ checked: 1, waiting: 1 });
    // Asked at most every five minutes.
    expect(await app().billing.reconcileRenewals(after(9 * MINUTE))).toMatchObject({ checked: 0 });
    retrieved = 'succeeded';
    expect(await app().billing.reconcileRenewals(after(12 * MINUTE))).toMatchObject({ checked: 1, renewed: 1 });

    const renewed = await subscriberOf(email);
    expect(renewed).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(renewed.validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
    expect(await renewalOf(before.id)).toMatchObject({ state: 'succeeded', cardLast4: '4242' });
    const receipts = () => mailTo(email).then((rows) => rows.filter((row) => row.subject?.includes('receipt')));
    expect(await receipts()).toHaveLength(2);

    expect(await app().billing.reconcileRenewals(after(30 * MINUTE))).toMatchObject({ checked: 0 });
    const late = await stripeRenewalWebhook(`evt_late_${renewal.id}`, renewal.idempotencyKey, 'succeeded');
    expect(late.json().data).toEqual({ received: true, duplicate: false });
    expect(await subscriberOf(email)).toMatchObject({
      status: 'active',
      periodIndex: 1,
      validUntil: renewed.validUntil,
    });
    expect(await receipts()).toHaveLength(2);
  });

  it('Stripe: a renewal declined after processing expires the subscription with the renewal-failed email, once', async () => {
    const { email, renewal } = await pendingStripeRenewal();
    retrieved = 'requires_payment_method';
    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ checked: 1, failed: 1 });
    expect(await subscriberOf(email)).toMatchObject({ status: 'expired', periodIndex: 0 });
    expect(await renewalOf(renewal.subscriptionId!)).toMatchObject({
      state: 'failed',
      failureCode: 'insufficient_funds',
    });
    const notices = () => mailTo(email).then((rows) => rows.filter((row) => row.subject?.includes('payment failed')));
    const [notice] = await notices();
    expect(notice?.bodyText).toContain('Your card has insufficient funds.');
    expect(notice?.bodyText).toContain('nothing was charged');

    const late = await stripeRenewalWebhook(
      `evt_failed_${renewal.id}`,
      renewal.idempotencyKey,
      'requires_payment_method',
    );
    expect(late.statusCode).toBe(200);
    expect(await notices()).toHaveLength(1);
  });

  it('no answer within a day: the subscription expires with an honest notice; a late success still renews the period', async () => {
    const { email, before, renewal } = await pendingStripeRenewal();
    expect(await app().billing.reconcileRenewals(after(6 * HOUR))).toMatchObject({ waiting: 1 });
    expect(await subscriberOf(email)).toMatchObject({ status: 'trial' });

    expect(await app().billing.reconcileRenewals(after(DAY + MINUTE))).toMatchObject({ checked: 1, unconfirmed: 1 });
    expect(await subscriberOf(email)).toMatchObject({ status: 'expired', periodIndex: 0 });
    expect(await renewalOf(before.id)).toMatchObject({ state: 'pending' });
    const notices = () => mailTo(email).then((rows) => rows.filter((row) => row.subject?.includes('payment failed')));
    const [notice] = await notices();
    expect(notice?.bodyText).toContain('could not tell us whether your payment went through');
    expect(notice?.bodyText).toContain('If this payment does go through after all');
    expect(notice?.bodyText).not.toContain('nothing was charged');
    // Not asked about again.
    const asked = retrievals().length;
    expect(await app().billing.reconcileRenewals(after(2 * DAY))).toMatchObject({ checked: 0 });
    expect(retrievals()).toHaveLength(asked);

    const late = await stripeRenewalWebhook(`evt_unconfirmed_${renewal.id}`, renewal.idempotencyKey, 'succeeded');
    expect(late.statusCode).toBe(200);
    const renewed = await subscriberOf(email);
    expect(renewed).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(renewed.validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
    expect(await notices()).toHaveLength(1);
    // The period it was for was still current and unpaid: it paid for it, so nothing is owed back.
    expect(await paymentById(renewal.id)).toMatchObject({ state: 'succeeded', refundReason: null, refundOwedAt: null });
    expect(stripeCalls.filter((call) => call.idempotencyKey === `refund:${renewal.idempotencyKey}`)).toHaveLength(0);
  });

  it('Stripe cannot be asked: waiting, then the same honest expiry after a day', async () => {
    const { email } = await pendingStripeRenewal();
    retrieved = 'missing';
    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ waiting: 1 });
    expect(await app().billing.reconcileRenewals(after(DAY))).toMatchObject({ unconfirmed: 1 });
    expect((await subscriberOf(email)).status).toBe('expired');
  });

  it('PayPal: a capture left PENDING is asked about by its capture id and renewed once it completes', async () => {
    const { email, before, renewal } = await pendingPaypalRenewal();
    paypal.readCapture = 'pending';
    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ waiting: 1 });
    paypal.readCapture = 'completed';
    expect(await app().billing.reconcileRenewals(after(12 * MINUTE))).toMatchObject({ renewed: 1 });
    const reads = paypal.calls.filter((call) => call.path === `/v2/payments/captures/${renewal.providerRef}`);
    expect(reads.map((call) => call.method)).toEqual(['GET', 'GET']);
    expect(await subscriberOf(email)).toMatchObject({ status: 'active', periodIndex: 1 });
    expect((await subscriberOf(email)).validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
    expect(await renewalOf(before.id)).toMatchObject({ state: 'succeeded' });
  });

  it('PayPal: a capture declined later expires the subscription with PayPal’s reason by email', async () => {
    const { email } = await pendingPaypalRenewal();
    paypal.readCapture = 'declined';
    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ failed: 1 });
    expect((await subscriberOf(email)).status).toBe('expired');
    const notice = (await mailTo(email)).find((row) => row.subject?.includes('payment failed'));
    expect(notice?.bodyText).toContain('PayPal declined the payment.');
  });

  it('two passes racing (two instances) ask about and settle each renewal once', async () => {
    const first = await pendingStripeRenewal();
    const second = await pendingStripeRenewal();
    retrieved = 'succeeded';
    const asked = retrievals().length;
    const reports = await Promise.all([
      app().billing.reconcileRenewals(after(6 * MINUTE)),
      app().billing.reconcileRenewals(after(6 * MINUTE)),
    ]);
    expect(reports.reduce((sum, report) => sum + report.checked, 0)).toBe(2);
    expect(reports.reduce((sum, report) => sum + report.renewed, 0)).toBe(2);
    expect(retrievals().length - asked).toBe(2);
    for (const { email, before } of [first, second]) {
      const subscription = await subscriberOf(email);
      expect(subscription).toMatchObject({ status: 'active', periodIndex: 1 });
      expect(subscription.validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
      const receipts = (await mailTo(email)).filter((row) => row.subject?.includes('receipt'));
      expect(receipts).toHaveLength(2);
    }
  });

  it('Stripe: a renewal charge confirmed after the subscriber renewed by hand is refunded in full, once, with an email', async () => {
    const { email, before, renewal } = await pendingStripeRenewal();
    expect(await app().billing.reconcileRenewals(after(DAY + MINUTE))).toMatchObject({ unconfirmed: 1 });
    app().billing.clock.set(after(2 * DAY));
    const restarted = await renewByHand(before.userId, 'card');

    const event = `evt_late_paid_${renewal.id}`;
    const late = await stripeRenewalWebhook(event, renewal.idempotencyKey, 'succeeded');
    expect(late.json().data).toEqual({ received: true, duplicate: false });
    expect(await paymentById(renewal.id)).toMatchObject({
      state: 'refunded',
      refundedAmount: renewal.amount,
      refundReason: 'late_renewal',
      refundOwedAt: null,
      settledAt: after(2 * DAY),
    });
    const refunds = refundCallsFor(renewal.idempotencyKey);
    expect(refunds).toHaveLength(1);
    expect(new URLSearchParams(refunds[0]!.body).get('payment_intent')).toBe('pi_1');
    // The period bought by hand is untouched: no second period, no receipt for the late charge.
    expect(await subscriberOf(email)).toMatchObject({
      status: 'active',
      periodIndex: 1,
      validUntil: restarted.validUntil,
    });
    const [notice, ...more] = await lateRefundNotices(email);
    expect(more).toHaveLength(0);
    expect(notice).toMatchObject({ locale: 'en', subject: 'Kabari refunded a late charge: $29.99' });
    expect(notice!.bodyText).toContain('We have refunded it in full.');

    // Redelivered, another event for it, and later passes: nothing more.
    expect((await stripeRenewalWebhook(event, renewal.idempotencyKey, 'succeeded')).json().data).toEqual({
      received: true,
      duplicate: true,
    });
    expect((await stripeRenewalWebhook(`${event}_2`, renewal.idempotencyKey, 'succeeded')).statusCode).toBe(200);
    expect(await app().billing.reconcileRenewals(after(3 * DAY))).toMatchObject({ checked: 0, refunded: 0 });
    expect(refundCallsFor(renewal.idempotencyKey)).toHaveLength(1);
    expect(await lateRefundNotices(email)).toHaveLength(1);
  });

  it('PayPal: a late capture after a renewal by hand is refunded with its request id; PayPal’s refund event ends nothing; Indonesian email', async () => {
    const { email, before, renewal } = await pendingPaypalRenewal('id');
    paypal.readCapture = 'pending';
    expect(await app().billing.reconcileRenewals(after(DAY + MINUTE))).toMatchObject({ unconfirmed: 1 });
    app().billing.clock.set(after(2 * DAY));
    await renewByHand(before.userId, 'paypal');
    const capture = renewal.providerRef!;
    const completed = {
      id: `WH-LATE-${renewal.id}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: capture, status: 'COMPLETED', custom_id: renewal.idempotencyKey },
    };
    expect((await paypalEvent(completed)).json().data).toEqual({ received: true, duplicate: false });
    expect(paypal.refundsMade.get(`refund:${renewal.idempotencyKey}`)).toBe(capture);
    expect(await paymentById(renewal.id)).toMatchObject({ state: 'refunded', refundedAmount: renewal.amount });
    const [notice] = await lateRefundNotices(email);
    expect(notice).toMatchObject({ locale: 'id' });
    expect(notice!.subject).toContain('Kabari mengembalikan pembayaran yang terlambat');
    expect(notice!.bodyText).toContain('Kami sudah mengembalikannya secara penuh.');

    // PayPal then reports the refund we made: recorded, and the period bought by hand goes on.
    const refunded = await paypalEvent({
      id: `WH-REFUNDED-${renewal.id}`,
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource: {
        id: 'REFUND-1',
        custom_id: renewal.idempotencyKey,
        amount: { value: '29.99', currency_code: 'USD' },
        seller_payable_breakdown: { total_refunded_amount: { value: '29.99', currency_code: 'USD' } },
        links: [{ rel: 'up', href: `https://api.sandbox.paypal.com/v2/payments/captures/${capture}` }],
      },
    });
    expect(refunded.statusCode).toBe(200);
    expect(await subscriberOf(email)).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(await paymentById(renewal.id)).toMatchObject({ state: 'refunded', refundedAmount: renewal.amount });
    const refundCalls = paypal.calls.filter((call) => call.path === `/v2/payments/captures/${capture}/refund`);
    expect(refundCalls).toHaveLength(1);
    expect(await lateRefundNotices(email)).toHaveLength(1);
  });

  /**
   * A scheduled Stripe renewal still pending when access ends (the grace day is over) before the job gives up,
   * and the subscriber pays again by hand meanwhile.
   */
  async function renewedByHandWhileStripeWaits() {
    const pending = await pendingStripeRenewal();
    expect(await app().billing.reconcileRenewals(after(DAY - 3 * MINUTE))).toMatchObject({ waiting: 1 });
    app().billing.clock.set(after(DAY));
    await renewByHand(pending.before.userId, 'card');
    return pending;
  }

  it('found by the reconciliation: a refund Stripe fails is retried by a later pass, one refund and one email', async () => {
    const { email, renewal } = await renewedByHandWhileStripeWaits();

    retrieved = 'succeeded';
    refund = 'unavailable';
    expect(await app().billing.reconcileRenewals(after(DAY + 3 * MINUTE))).toMatchObject({
      checked: 1,
      owedBack: 1,
      renewed: 0,
    });
    expect(await paymentById(renewal.id)).toMatchObject({
      state: 'succeeded',
      refundReason: 'late_renewal',
      refundOwedAt: after(DAY + 3 * MINUTE),
    });
    expect(await lateRefundNotices(email)).toHaveLength(0);

    refund = 'refunded';
    // Not tried again within the recheck interval, then made.
    expect(await app().billing.reconcileRenewals(after(DAY + 6 * MINUTE))).toMatchObject({ refunded: 0 });
    expect(await app().billing.reconcileRenewals(after(DAY + 9 * MINUTE))).toMatchObject({ refunded: 1 });
    expect(await app().billing.reconcileRenewals(after(DAY + 20 * MINUTE))).toMatchObject({ refunded: 0 });
    expect(await paymentById(renewal.id)).toMatchObject({ state: 'refunded', refundOwedAt: null });
    expect(refundCallsFor(renewal.idempotencyKey).map((call) => call.status)).toEqual([500, 200]);
    expect(await lateRefundNotices(email)).toHaveLength(1);
    expect(await subscriberOf(email)).toMatchObject({ status: 'active', periodIndex: 1 });
  });

  /** The operator's emails about a payment's refused refund. */
  const refusedRefundAlerts = (paymentId: string) =>
    mailTo(testApp.config.operatorEmail).then((rows) =>
      rows.filter((row) => row.idempotencyKey === `refund-refused:${paymentId}`),
    );

  it('a refund Stripe refuses for good (charge_expired_for_refund) is tried once, then left to the operator', async () => {
    const { email, renewal } = await renewedByHandWhileStripeWaits();

    retrieved = 'succeeded';
    refund = 'expired';
    expect(await app().billing.reconcileRenewals(after(DAY + 3 * MINUTE))).toMatchObject({
      owedBack: 1,
      refunded: 0,
    });
    // Not refunded: the payment keeps its state, the refusal is recorded, and it is no longer owed by the passes.
    expect(await paymentById(renewal.id)).toMatchObject({
      state: 'succeeded',
      refundedAmount: 0,
      refundReason: 'late_renewal',
      refundOwedAt: null,
      refundFailedAt: after(DAY + 3 * MINUTE),
      refundFailure: 'charge_expired_for_refund',
    });
    const [alert, ...more] = await refusedRefundAlerts(renewal.id);
    expect(more).toHaveLength(0);
    expect(alert).toMatchObject({ locale: 'en', subject: 'Kabari: a refund of $29.99 needs to be made by hand' });
    expect(alert!.bodyText).toContain(`Payment: ${renewal.id} · Provider: stripe · Provider reference: pi_1`);
    expect(alert!.bodyText).toContain(
      "Amount: $29.99 · Why it is owed: late_renewal · Provider's error: charge_expired_for_refund",
    );
    expect(alert!.bodyText).not.toContain(email);

    // Later passes (even once Stripe would answer) and a redelivered event try nothing more.
    refund = 'refunded';
    for (const minutes of [9, 20, 60]) {
      expect(await app().billing.reconcileRenewals(after(DAY + minutes * MINUTE))).toMatchObject({
        refunded: 0,
        refundsFailed: 0,
      });
    }
    expect(refundCallsFor(renewal.idempotencyKey).map((call) => call.status)).toEqual([400]);
    expect(await refusedRefundAlerts(renewal.id)).toHaveLength(1);
    // The subscriber is told nothing false: no refund email.
    expect(await lateRefundNotices(email)).toHaveLength(0);
    expect(await subscriberOf(email)).toMatchObject({ status: 'active', periodIndex: 1 });
  });

  it('a refund PayPal refuses (422 TRANSACTION_REFUSED) on a late capture: the event is taken, one attempt, one operator email', async () => {
    const { email, before, renewal } = await pendingPaypalRenewal();
    paypal.readCapture = 'pending';
    expect(await app().billing.reconcileRenewals(after(DAY + MINUTE))).toMatchObject({ unconfirmed: 1 });
    app().billing.clock.set(after(2 * DAY));
    await renewByHand(before.userId, 'paypal');
    const capture = renewal.providerRef!;
    paypal.refundMode = 'refused';
    const completed = {
      id: `WH-LATE-REFUSED-${renewal.id}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: capture, status: 'COMPLETED', custom_id: renewal.idempotencyKey },
    };
    // Refused for good: a redelivery would change nothing, so the event is not refused (no 502).
    const delivered = await paypalEvent(completed);
    expect(delivered.statusCode).toBe(200);
    expect(await paymentById(renewal.id)).toMatchObject({
      state: 'succeeded',
      refundOwedAt: null,
      refundFailedAt: after(2 * DAY),
      refundFailure: 'TRANSACTION_REFUSED',
    });

    paypal.refundMode = 'completed';
    expect(await app().billing.reconcileRenewals(after(2 * DAY + 10 * MINUTE))).toMatchObject({ refunded: 0 });
    const refundCalls = paypal.calls.filter((call) => call.path === `/v2/payments/captures/${capture}/refund`);
    expect(refundCalls).toHaveLength(1);
    expect(paypal.refundsMade.has(`refund:${renewal.idempotencyKey}`)).toBe(false);
    const [alert, ...more] = await refusedRefundAlerts(renewal.id);
    expect(more).toHaveLength(0);
    expect(alert!.bodyText).toContain(`Provider: paypal · Provider reference: ${capture}`);
    expect(alert!.bodyText).toContain("Provider's error: TRANSACTION_REFUSED");
    expect(await lateRefundNotices(email)).toHaveLength(0);
  });

  it('a webhook redelivery and two reconciliation passes racing over a refund owed make it once', async () => {
    const { email, before, renewal } = await pendingStripeRenewal();
    expect(await app().billing.reconcileRenewals(after(DAY + MINUTE))).toMatchObject({ unconfirmed: 1 });
    app().billing.clock.set(after(2 * DAY));
    await renewByHand(before.userId, 'card');
    refund = 'unavailable';
    const event = `evt_race_${renewal.id}`;
    const first = await stripeRenewalWebhook(event, renewal.idempotencyKey, 'succeeded');
    // Refused so that Stripe delivers it again; the refund stays owed.
    expect(first.statusCode).toBe(502);
    expect(await paymentById(renewal.id)).toMatchObject({ state: 'succeeded', refundReason: 'late_renewal' });

    refund = 'refunded';
    app().billing.clock.set(after(2 * DAY + 6 * MINUTE));
    const [redelivered, ...reports] = await Promise.all([
      stripeRenewalWebhook(event, renewal.idempotencyKey, 'succeeded'),
      app().billing.reconcileRenewals(after(2 * DAY + 6 * MINUTE)),
      app().billing.reconcileRenewals(after(2 * DAY + 6 * MINUTE)),
    ]);
    expect(redelivered!.json().data).toEqual({ received: true, duplicate: true });
    expect(reports.reduce((sum, report) => sum + report.refunded, 0)).toBeLessThanOrEqual(1);
    expect(refundCallsFor(renewal.idempotencyKey).map((call) => call.status)).toEqual([500, 200]);
    expect(stripeRefundsMade(stripeCalls)).toContain(`refund:${renewal.idempotencyKey}`);
    expect(await paymentById(renewal.id)).toMatchObject({ state: 'refunded', refundOwedAt: null });
    expect(await lateRefundNotices(email)).toHaveLength(1);
  });

  /** A renewal by hand Stripe leaves processing (its webhook settles it): the attempt's payment, pending. */
  async function pendingRenewalByHand(userId: string) {
    const { token } = await createSession(app().db, userId, 'jest');
    created = 'processing';
    const response = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/renew',
      headers: { authorization: token },
      remoteAddress: freshIp(),
      payload: { method: 'card', paymentMethodId: 'pm_card_visa' },
    });
    created = 'succeeded';
    expect(response.statusCode).toBe(200);
    const { registerId } = response.json().data as { registerId: string };
    const [payment] = await app()
      .db.select()
      .from(payments)
      .where(eq(payments.idempotencyKey, `restart:${registerId}`));
    expect(payment).toMatchObject({ state: 'pending', periodIndex: 1 });
    return { registerId, payment: payment! };
  }

  const duplicateRefundNotices = (email: string) =>
    mailTo(email).then((rows) => rows.filter((row) => row.idempotencyKey.startsWith('duplicate-payment-refunded:')));
  const receiptsTo = (email: string) =>
    mailTo(email).then((rows) => rows.filter((row) => row.idempotencyKey.startsWith('receipt:')));

  it('a renewal by hand confirmed after the late renewal charge renewed the period is refunded; the period stays', async () => {
    const { email, before, renewal } = await pendingStripeRenewal();
    expect(await app().billing.reconcileRenewals(after(DAY + MINUTE))).toMatchObject({ unconfirmed: 1 });
    app().billing.clock.set(after(2 * DAY));
    const { registerId, payment } = await pendingRenewalByHand(before.userId);
    expect(await subscriberOf(email)).toMatchObject({ status: 'expired', periodIndex: 0 });

    // The late renewal charge renews the period it was for.
    expect((await stripeRenewalWebhook(`evt_late_${renewal.id}`, renewal.idempotencyKey, 'succeeded')).statusCode).toBe(
      200,
    );
    const renewed = await subscriberOf(email);
    expect(renewed).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(renewed.validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
    const receipts = (await receiptsTo(email)).length;

    // Then the renewal by hand goes through: a second payment for the same period, given back.
    app().billing.clock.set(after(2 * DAY + HOUR));
    const event = `evt_restart_${payment.id}`;
    const booked = await stripeRenewalWebhook(event, payment.idempotencyKey, 'succeeded', 'restart');
    expect(booked.json().data).toEqual({ received: true, duplicate: false });
    expect(await subscriberOf(email)).toMatchObject({
      status: 'active',
      periodIndex: 1,
      validUntil: renewed.validUntil,
      currentPeriodStart: renewed.currentPeriodStart,
    });
    expect(await paymentById(payment.id)).toMatchObject({
      state: 'refunded',
      refundedAmount: payment.amount,
      refundReason: 'duplicate_payment',
      refundOwedAt: null,
    });
    expect(await paymentById(renewal.id)).toMatchObject({ state: 'succeeded', refundReason: null });
    expect(refundCallsFor(payment.idempotencyKey)).toHaveLength(1);
    expect(refundCallsFor(renewal.idempotencyKey)).toHaveLength(0);
    expect(await receiptsTo(email)).toHaveLength(receipts);
    const [notice, ...more] = await duplicateRefundNotices(email);
    expect(more).toHaveLength(0);
    expect(notice).toMatchObject({ locale: 'en', subject: 'Kabari refunded a second payment: $29.99' });
    expect(notice!.bodyText).toContain('already been renewed for the same period');

    // registerQuery says so, in the reader's language.
    const query = (language: string) =>
      app().inject({
        method: 'GET',
        url: `/api/v1/personnal/registerQuery/${registerId}`,
        headers: { 'accept-language': language },
      });
    const english = (await query('en')).json().data as { state: string; failureCode: string; failureMessage: string };
    expect(english).toMatchObject({ state: 'sign_failed', failureCode: 'duplicate_payment' });
    expect(english.failureMessage).toContain('refunded to you in full');
    const indonesian = (await query('id')).json().data as { failureMessage: string };
    expect(indonesian.failureMessage).toContain('kami kembalikan secara penuh');

    // Redelivered, and later passes: nothing more.
    expect((await stripeRenewalWebhook(event, payment.idempotencyKey, 'succeeded', 'restart')).json().data).toEqual({
      received: true,
      duplicate: true,
    });
    expect(await app().billing.reconcileRenewals(after(3 * DAY))).toMatchObject({ refunded: 0 });
    expect(refundCallsFor(payment.idempotencyKey)).toHaveLength(1);
    expect(await duplicateRefundNotices(email)).toHaveLength(1);
    expect((await subscriberOf(email)).validUntil).toEqual(renewed.validUntil);
  });

  it('two renewals by hand both confirmed: the first restarts the subscription, the second is refunded', async () => {
    const { email, before, renewal } = await pendingStripeRenewal();
    expect(await app().billing.reconcileRenewals(after(DAY + MINUTE))).toMatchObject({ unconfirmed: 1 });
    // The late renewal charge fails: only the renewals by hand are left.
    expect(
      (await stripeRenewalWebhook(`evt_f_${renewal.id}`, renewal.idempotencyKey, 'requires_payment_method')).statusCode,
    ).toBe(200);
    app().billing.clock.set(after(2 * DAY));
    const first = await pendingRenewalByHand(before.userId);
    const second = await pendingRenewalByHand(before.userId);

    refund = 'unavailable';
    const [a, b] = await Promise.all([
      stripeRenewalWebhook(`evt_a_${first.payment.id}`, first.payment.idempotencyKey, 'succeeded', 'restart'),
      stripeRenewalWebhook(`evt_b_${second.payment.id}`, second.payment.idempotencyKey, 'succeeded', 'restart'),
    ]);
    // The refund could not be made now: the second webhook is refused (delivered again), the first accepted.
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 502]);
    const restarted = await subscriberOf(email);
    expect(restarted).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(restarted.validUntil.getTime()).toBe(after(2 * DAY).getTime() + 30 * DAY);
    const [paidFirst, paidSecond] = [await paymentById(first.payment.id), await paymentById(second.payment.id)];
    const owed = [paidFirst, paidSecond].filter((row) => row.refundReason === 'duplicate_payment');
    expect(owed).toHaveLength(1);
    expect(owed[0]).toMatchObject({ state: 'succeeded', refundOwedAt: expect.any(Date) });

    // The next reconciliation pass makes it, once; the subscription keeps the period bought first.
    refund = 'refunded';
    expect(await app().billing.reconcileRenewals(after(3 * DAY))).toMatchObject({ refunded: 1 });
    expect(await paymentById(owed[0]!.id)).toMatchObject({ state: 'refunded', refundOwedAt: null });
    expect(refundCallsFor(owed[0]!.idempotencyKey)).toHaveLength(2);
    expect(await duplicateRefundNotices(email)).toHaveLength(1);
    expect(await subscriberOf(email)).toMatchObject({ periodIndex: 1, validUntil: restarted.validUntil });
    expect(await app().billing.reconcileRenewals(after(4 * DAY))).toMatchObject({ refunded: 0 });
  });
});
