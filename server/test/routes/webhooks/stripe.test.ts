import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../../../src/db/schema/accounts';
import { payments, registrations, subscriptions, webhookEvents } from '../../../src/db/schema/billing';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { payRefundsOwed, refundOwedFor } from '../../../src/billing/refunds-owed';
import { StripeProcessor } from '../../../src/payments/stripe';
import {
  fakeStripeApi,
  paymentIntentEvent,
  postStripeWebhook,
  signedWith,
  stripeRefundsMade,
  type IntentStatus,
  type RecordedStripeCall,
} from '../../support/fake-stripe';
import { describeEachDatabase } from '../../support/databases';
import { freshEmail, freshIp } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';
import { sessionTokenOf } from '../../support/session-token';

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_kabari',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_kabari',
  STRIPE_WEBHOOK_SECRET: 'whsec_kabari_test',
  RENEWAL_INTERVAL_SECONDS: '0',
};

describeEachDatabase('Stripe', (driver) => {
  let testApp: TestApp;
  const calls: RecordedStripeCall[] = [];
  let nextStatus: IntentStatus = 'succeeded';
  let refund: 'refunded' | 'unavailable' = 'refunded';

  beforeAll(async () => {
    testApp = await buildTestApp(driver, STRIPE_ENV);
    const stripe = new StripeProcessor(
      testApp.config.billing.stripe!,
      fakeStripeApi(calls, () => nextStatus, { refund: () => refund }),
    );
    testApp.app.billing.stripe = stripe;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;

  function register(email: string, extra: Record<string, unknown> = {}) {
    return app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/stripe',
      remoteAddress: freshIp(),
      payload: {
        email,
        displayName: 'Rina',
        locale: 'en',
        ageConfirmed: true,
        termsAccepted: true,
        method: 'card',
        paymentMethodId: 'pm_card_visa',
        ...extra,
      },
    });
  }

  const signed = (payload: string, secret = STRIPE_ENV.STRIPE_WEBHOOK_SECRET) => signedWith(payload, secret);

  const intentEvent = (eventId: string, registrationId: string, status = 'succeeded') =>
    paymentIntentEvent(eventId, {
      status,
      metadata: { registrationId, kind: 'first_day' },
      lastPaymentError: status === 'succeeded' ? null : { code: 'card_declined', message: 'Your card was declined.' },
    });

  const postWebhook = (payload: string, signature: string) => postStripeWebhook(app(), payload, signature);

  it('offers Stripe for card and wallet, and not the sandbox', async () => {
    const terms = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'en' },
    });
    expect(terms.json().data).toMatchObject({
      methods: { card: 'stripe', wallet: 'stripe', paypal: null },
      sandbox: false,
      stripePublishableKey: 'pk_test_kabari',
    });
    // The wallet's sheet is given the charges as Stripe counts them: cents, and rupiah in hundredths too.
    const english = terms.json().data;
    expect(english.currencyCode).toBe('USD');
    expect(english.stripeAmounts).toEqual({
      firstDayDebitAmount: Math.round(english.firstDayDebitAmount * 100),
      amount: Math.round(english.amount * 100),
    });
    const indonesian = (
      await app().inject({ method: 'POST', url: '/api/v1/personnal/getPaidAmount', payload: { locale: 'id' } })
    ).json().data;
    expect(indonesian.currencyCode).toBe('IDR');
    expect(indonesian.stripeAmounts).toEqual({
      firstDayDebitAmount: indonesian.firstDayDebitAmount * 100,
      amount: indonesian.amount * 100,
    });
    const sandbox = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/v5pay',
      payload: { email: freshEmail(), displayName: 'A', ageConfirmed: true, termsAccepted: true, method: 'wallet' },
    });
    expect(sandbox.statusCode).toBe(400);
  });

  it('refuses a sign-up without the 18+ confirmation or the terms consent before asking Stripe anything', async () => {
    const before = calls.length;
    for (const missing of [{ ageConfirmed: undefined }, { termsAccepted: false }]) {
      const response = await app().inject({
        method: 'POST',
        url: '/api/v1/auth/registerAndSign/stripe',
        remoteAddress: freshIp(),
        headers: { 'accept-language': 'id' },
        payload: {
          email: freshEmail(),
          displayName: 'Rina',
          ageConfirmed: true,
          termsAccepted: true,
          method: 'card',
          paymentMethodId: 'pm_card_visa',
          ...missing,
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/18 tahun|ketentuan penggunaan/);
    }
    expect(calls.length).toBe(before);
  });

  it('signs up with a PaymentIntent sent with the first-day idempotency key, saving customer and method', async () => {
    nextStatus = 'succeeded';
    const email = freshEmail();
    const response = await register(email);
    expect(response.json().data).toMatchObject({ requiresAction: false });
    const registerId = response.json().data.registerId;
    const intentCall = calls.find((call) => call.path === '/v1/payment_intents');
    expect(intentCall?.idempotencyKey).toBe(`first_day:${registerId}`);
    expect(intentCall?.body).toContain('setup_future_usage=off_session');
    const query = await app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });
    expect(query.json().data.state).toBe('created');
    const [payment] = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(payment).toMatchObject({ provider: 'stripe', state: 'succeeded', cardLast4: '4242', providerRef: 'pi_1' });
  });

  it('a sign-up sent again under its attempt id charges once; one waiting for 3-D Secure gets its secret again', async () => {
    const intentsMade = () => calls.filter((call) => call.method === 'POST' && call.path === '/v1/payment_intents');
    for (const status of ['succeeded', 'requires_action'] as const) {
      nextStatus = status;
      const email = freshEmail();
      const attemptId = randomUUID();
      const before = intentsMade().length;
      const first = await register(email, { attemptId });
      // The page made a new PaymentMethod for the second submission: it must not become a second charge.
      const again = await register(email, { attemptId, paymentMethodId: 'pm_card_mastercard' });
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toEqual(first.json().data);
      expect(first.json().data.requiresAction).toBe(status === 'requires_action');
      expect(intentsMade().length - before).toBe(1);
    }
  });

  it('a decline answers sign_failed with the decline code’s text in the reader’s language', async () => {
    nextStatus = 'declined';
    const response = await register(freshEmail());
    const url = `/api/v1/personnal/registerQuery/${response.json().data.registerId}`;
    const query = await app().inject({ method: 'GET', url });
    expect(query.json().data).toMatchObject({
      state: 'sign_failed',
      failureCode: 'generic_decline',
      failureMessage: 'Your card was declined. Please use another card or payment method.',
    });
    const inIndonesian = await app().inject({ method: 'GET', url, headers: { 'accept-language': 'id-ID' } });
    expect(inIndonesian.json().data.failureMessage).toBe(
      'Kartu Anda ditolak. Gunakan kartu atau metode pembayaran lain.',
    );
  });

  it('3-D Secure: querying until the webhook; good, tampered and replayed events have one effect', async () => {
    nextStatus = 'requires_action';
    const email = freshEmail();
    const response = await register(email);
    expect(response.json().data).toMatchObject({ requiresAction: true, clientSecret: 'pi_1_secret_x' });
    const registerId = response.json().data.registerId;
    const poll = () => app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });
    expect((await poll()).json().data.state).toBe('querying');

    const payload = intentEvent('evt_1', registerId);
    const tampered = payload.replace('"cus_1"', '"cus_2"');
    const badSignature = await postWebhook(tampered, signed(payload));
    expect(badSignature.statusCode).toBe(400);
    const wrongSecret = await postWebhook(payload, signed(payload, 'whsec_someone_else'));
    expect(wrongSecret.statusCode).toBe(400);
    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

    const good = await postWebhook(payload, signed(payload));
    expect(good.json().data).toEqual({ received: true, duplicate: false });
    const replay = await postWebhook(payload, signed(payload));
    expect(replay.json().data).toEqual({ received: true, duplicate: true });

    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
    expect(await app().db.select().from(payments).where(eq(payments.registrationId, registerId))).toHaveLength(1);
    expect(await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email))).toHaveLength(1);
    expect(await app().db.select().from(webhookEvents).where(eq(webhookEvents.eventId, 'evt_1'))).toHaveLength(1);
    expect((await poll()).json().data.state).toBe('created');
    const [registration] = await app().db.select().from(registrations).where(eq(registrations.id, registerId));
    expect(registration!.userId).not.toBeNull();
  });

  it('a 3-D Secure sign-up whose email was taken meanwhile is refunded in full after the webhook, once', async () => {
    nextStatus = 'requires_action';
    const email = freshEmail();
    const registerId = (await register(email)).json().data.registerId;
    nextStatus = 'succeeded';
    expect((await register(email)).json().data).toMatchObject({ requiresAction: false });

    const payload = intentEvent('evt_taken', registerId);
    const good = await postWebhook(payload, signed(payload));
    expect(good.json().data).toEqual({ received: true, duplicate: false });
    const replay = await postWebhook(payload, signed(payload));
    expect(replay.json().data).toEqual({ received: true, duplicate: true });

    const refunds = calls.filter(
      (call) => call.path === '/v1/refunds' && call.idempotencyKey === `refund:${registerId}`,
    );
    expect(refunds).toHaveLength(1);
    const rows = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'refunded', refundedAmount: rows[0]!.amount });
    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('an email taken while its first charge went through: 409 to the visitor, the charge given back, owed if Stripe fails', async () => {
    nextStatus = 'succeeded';
    const stripe = app().billing.stripe!;
    const charge = stripe.chargeFirst.bind(stripe);
    const chargeFirst = jest.spyOn(stripe, 'chargeFirst');
    const paymentsOf = (registerId: string) =>
      app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    // While Stripe charges, another sign-up with the same email completes first.
    const signUpRacedBy = (email: string) =>
      chargeFirst.mockImplementationOnce(async (input) => {
        expect((await register(email)).statusCode).toBe(200);
        return charge(input);
      });
    try {
      const email = freshEmail();
      signUpRacedBy(email);
      const refused = await app().inject({
        method: 'POST',
        url: '/api/v1/auth/registerAndSign/stripe',
        remoteAddress: freshIp(),
        headers: { 'accept-language': 'id' },
        payload: {
          email,
          displayName: 'Rina',
          locale: 'id',
          ageConfirmed: true,
          termsAccepted: true,
          method: 'card',
          paymentMethodId: 'pm_card_visa',
        },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('Alamat email ini sudah digunakan');
      const failed = (await app().db.select().from(registrations).where(eq(registrations.email, email))).find(
        (row) => row.state === 'sign_failed',
      )!;
      expect(stripeRefundsMade(calls)).toContain(`refund:${failed.id}`);
      expect(await paymentsOf(failed.id)).toEqual([
        expect.objectContaining({ state: 'refunded', refundReason: 'email_in_use', refundOwedAt: null }),
      ]);

      // Stripe failing the refund still answers the visitor 409, the refund left owed for the reconciliation.
      refund = 'unavailable';
      const secondEmail = freshEmail();
      signUpRacedBy(secondEmail);
      const refusedAgain = await register(secondEmail);
      expect(refusedAgain.statusCode).toBe(409);
      expect(refusedAgain.json().message).toBe('This email address is already in use');
      const owed = (await app().db.select().from(registrations).where(eq(registrations.email, secondEmail))).find(
        (row) => row.state === 'sign_failed',
      )!;
      const [owedPayment] = await paymentsOf(owed.id);
      expect(owedPayment).toMatchObject({ state: 'succeeded', refundReason: 'email_in_use' });
      expect(owedPayment!.refundOwedAt).not.toBeNull();

      // Disputed meanwhile (as charge.dispute.created records it): the dispute decides, no refund is tried beside it.
      refund = 'refunded';
      await app().db.update(payments).set({ state: 'disputed' }).where(eq(payments.id, owedPayment!.id));
      const later = new Date(Date.now() + 6 * 60 * 1000);
      const deps = {
        db: app().db,
        outbox: app().outbox,
        config: app().billing.config,
        stripe,
        paypal: app().billing.paypal,
        log: app().log,
        operatorEmail: testApp.config.operatorEmail,
      };
      expect(await payRefundsOwed(deps, 'email_in_use', later)).toEqual({ refunded: 0, refundsFailed: 0 });
      expect(await refundOwedFor(deps, owedPayment!.idempotencyKey, later)).toBe('not_due');
      const tries = calls.filter((call) => call.path === '/v1/refunds' && call.idempotencyKey === `refund:${owed.id}`);
      expect(tries.map((call) => call.status)).toEqual([500]);
      expect((await paymentsOf(owed.id))[0]).toMatchObject({ state: 'disputed', refundedAmount: 0 });
    } finally {
      refund = 'refunded';
      chargeFirst.mockRestore();
    }
  });

  it('a taken email’s refund that Stripe fails is owed durably: the redelivered event makes it, once', async () => {
    nextStatus = 'requires_action';
    const email = freshEmail();
    const registerId = (await register(email)).json().data.registerId;
    nextStatus = 'succeeded';
    expect((await register(email)).statusCode).toBe(200);

    refund = 'unavailable';
    const payload = intentEvent('evt_taken_retry', registerId);
    const first = await postWebhook(payload, signed(payload));
    // Refused, so Stripe delivers it again; the sign-up is settled and the refund stays owed.
    expect(first.statusCode).toBe(502);
    const paymentOf = async () => {
      const rows = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
      expect(rows).toHaveLength(1);
      return rows[0]!;
    };
    expect(await paymentOf()).toMatchObject({ state: 'succeeded', refundReason: 'email_in_use', refundedAmount: 0 });
    expect((await paymentOf()).refundOwedAt).not.toBeNull();
    const [registration] = await app().db.select().from(registrations).where(eq(registrations.id, registerId));
    expect(registration).toMatchObject({ state: 'sign_failed', failureCode: 'email_in_use' });

    refund = 'refunded';
    // Stripe retries after a while: tried again once the recheck interval has passed.
    app().billing.clock.set(new Date(Date.now() + 6 * 60 * 1000));
    try {
      const again = await postWebhook(payload, signed(payload));
      expect(again.json().data).toEqual({ received: true, duplicate: true });
      expect((await postWebhook(payload, signed(payload))).statusCode).toBe(200);
    } finally {
      app().billing.clock.set(null);
    }
    const attempts = calls.filter(
      (call) => call.path === '/v1/refunds' && call.idempotencyKey === `refund:${registerId}`,
    );
    expect(attempts.map((call) => call.status)).toEqual([500, 200]);
    expect(stripeRefundsMade(calls)).toContain(`refund:${registerId}`);
    expect(await paymentOf()).toMatchObject({ state: 'refunded', refundOwedAt: null, refundedAmount: 99 });
  });

  it('a failed 3-D Secure sign-up keeps the amount recorded for the attempt, not today’s price', async () => {
    nextStatus = 'requires_action';
    const registerId = (await register(freshEmail())).json().data.registerId;
    // The price changed after the attempt was recorded.
    await app().db.update(payments).set({ amount: 123 }).where(eq(payments.registrationId, registerId));
    const payload = intentEvent('evt_failed_price', registerId, 'requires_payment_method');
    expect((await postWebhook(payload, signed(payload))).json().data).toEqual({ received: true, duplicate: false });
    const rows = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'failed', amount: 123, failureCode: 'card_declined' });
    const query = await app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });
    expect(query.json().data.state).toBe('sign_failed');
  });

  it('renewals charge the saved method off-session with the period’s idempotency key', async () => {
    nextStatus = 'succeeded';
    const email = freshEmail();
    await register(email);
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    const report = await app().billing.runRenewals(new Date(Date.now() + 2 * 24 * 3600 * 1000), user!.id);
    expect(report).toMatchObject({ renewed: 1 });
    const renewal = calls.filter((call) => call.path === '/v1/payment_intents').at(-1)!;
    expect(renewal.idempotencyKey).toMatch(/^renewal:[0-9a-f-]+:1$/);
    expect(renewal.body).toContain('off_session=true');
    expect(renewal.body).toContain('customer=cus_1');
  });
  /** A Stripe subscriber whose access has ended, signed in. */
  async function expiredSubscriber() {
    const subscriber = await trialSubscriber();
    await app()
      .db.update(subscriptions)
      .set({ status: 'expired', validUntil: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, subscriber.userId));
    return subscriber;
  }

  const renew = (token: string) =>
    app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/renew',
      headers: { authorization: token },
      payload: { method: 'card', paymentMethodId: 'pm_card_visa' },
    });

  const restartEvent = (eventId: string, renewId: string, type: 'restart' | 'renewal', key: string) =>
    paymentIntentEvent(eventId, {
      id: `pi_${type}`,
      status: 'succeeded',
      metadata: { registrationId: renewId, kind: type, idempotencyKey: key },
    });

  it('an expired subscriber renews with Stripe: one charge with the attempt’s key on the saved customer', async () => {
    const { token, userId } = await expiredSubscriber();
    const response = await renew(token);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ requiresAction: false });
    const renewId = response.json().data.registerId;
    const intentCall = calls.filter((call) => call.path === '/v1/payment_intents').at(-1)!;
    expect(intentCall.idempotencyKey).toBe(`restart:${renewId}`);
    expect(intentCall.body).toContain('customer=cus_1');
    expect(intentCall.body).toContain('metadata[kind]=restart');
    const query = await app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${renewId}` });
    expect(query.json().data.state).toBe('created');
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(subscription).toMatchObject({ status: 'active', periodIndex: 1 });
    const rows = await app().db.select().from(payments).where(eq(payments.registrationId, renewId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'renewal', state: 'succeeded', provider: 'stripe' });
  });

  it('a renewal after expiry that needs 3-D Secure is settled by the webhook, once', async () => {
    const { token, userId } = await expiredSubscriber();
    nextStatus = 'requires_action';
    const response = await renew(token);
    expect(response.json().data).toMatchObject({ requiresAction: true, clientSecret: 'pi_1_secret_x' });
    const renewId = response.json().data.registerId;
    const poll = () => app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${renewId}` });
    expect((await poll()).json().data.state).toBe('querying');

    const payload = restartEvent('evt_restart', renewId, 'restart', `restart:${renewId}`);
    expect((await postWebhook(payload, signed(payload))).json().data).toEqual({ received: true, duplicate: false });
    expect((await postWebhook(payload, signed(payload))).json().data).toEqual({ received: true, duplicate: true });
    expect((await poll()).json().data.state).toBe('created');
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(subscription).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(await app().db.select().from(payments).where(eq(payments.registrationId, renewId))).toHaveLength(1);
  });

  it('a scheduled renewal Stripe leaves processing waits, then the webhook renews the period once', async () => {
    nextStatus = 'succeeded';
    const email = freshEmail();
    await register(email);
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    const [before] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    nextStatus = 'processing';
    const due = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    expect(await app().billing.runRenewals(due, user!.id)).toMatchObject({ waiting: 1, renewed: 0 });
    expect(await app().billing.runRenewals(due, user!.id)).toMatchObject({ waiting: 1, renewed: 0 });

    const key = `renewal:${before!.id}:1`;
    const payload = restartEvent('evt_renewal', '', 'renewal', key);
    expect((await postWebhook(payload, signed(payload))).json().data).toEqual({ received: true, duplicate: false });
    expect((await postWebhook(payload, signed(payload))).json().data).toEqual({ received: true, duplicate: true });
    const [after] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(after).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(after!.validUntil.getTime()).toBe(before!.validUntil.getTime() + 30 * 24 * 3600 * 1000);
    const [payment] = await app().db.select().from(payments).where(eq(payments.idempotencyKey, key));
    expect(payment).toMatchObject({ state: 'succeeded', kind: 'renewal' });
    const receipts = await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));
    expect(receipts).toHaveLength(2);
  });

  /** A signed-in Stripe subscriber in trial, whose first-day charge is the PaymentIntent `intentId` if given. */
  async function trialSubscriber(intentId?: string) {
    nextStatus = 'succeeded';
    const email = freshEmail();
    const registerId = (await register(email)).json().data.registerId;
    if (intentId) {
      // The fake names every intent pi_1; this subscriber gets its own, as Stripe's are.
      await app().db.update(payments).set({ providerRef: intentId }).where(eq(payments.registrationId, registerId));
    }
    const query = await app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });
    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/loginByAuthCode',
      remoteAddress: freshIp(),
      payload: { authCode: query.json().data.authCode },
    });
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    return { email, userId: user!.id, token: sessionTokenOf(login) };
  }

  function chargeEvent(eventId: string, intentId: string, amountRefunded: number) {
    return JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'charge.refunded',
      data: {
        object: {
          id: `ch_${intentId}`,
          object: 'charge',
          payment_intent: intentId,
          amount: 99,
          amount_refunded: amountRefunded,
          refunded: amountRefunded === 99,
          currency: 'usd',
        },
      },
    });
  }

  const subscriptionOf = async (userId: string) =>
    (await app().db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!;
  const mailTo = (email: string) => app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));

  it('a full refund of the charge that paid the period ends the subscription at once, with a notice, once', async () => {
    const { email, userId, token } = await trialSubscriber('pi_refund_full');
    const payload = chargeEvent('evt_refund_full', 'pi_refund_full', 99);
    const tampered = payload.replace('"amount_refunded":99', '"amount_refunded":98');
    expect((await postWebhook(tampered, signed(payload))).statusCode).toBe(400);
    expect((await subscriptionOf(userId)).status).toBe('trial');

    expect((await postWebhook(payload, signed(payload))).json().data).toEqual({ received: true, duplicate: false });
    expect((await postWebhook(payload, signed(payload))).json().data).toEqual({ received: true, duplicate: true });
    const subscription = await subscriptionOf(userId);
    expect(subscription.status).toBe('unsubscribed');
    expect(subscription.validUntil.getTime()).toBeLessThanOrEqual(Date.now());
    const notices = (await mailTo(email)).filter((mail) => mail.subject === 'Your Kabari subscription has ended');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.bodyText).toContain('has been refunded to you');

    const history = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/payments',
      headers: { authorization: token },
    });
    expect(history.json().data.items).toMatchObject([{ state: 'refunded', refundedAmount: 0.99, amount: 0.99 }]);
    const info = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/subscribe/info',
      headers: { authorization: token },
    });
    expect(info.json().data).toMatchObject({ status: 'unsubscribed', expiredStatus: 1 });
    // Nothing more is charged.
    const report = await app().billing.runRenewals(new Date(Date.now() + 2 * 24 * 3600 * 1000), userId);
    expect(report).toMatchObject({ renewed: 0, failed: 0 });
  });

  it('a partial refund is recorded on the payment and the subscription continues', async () => {
    const { email, userId } = await trialSubscriber('pi_refund_part');
    const payload = chargeEvent('evt_refund_part', 'pi_refund_part', 40);
    expect((await postWebhook(payload, signed(payload))).statusCode).toBe(200);
    const [payment] = await app().db.select().from(payments).where(eq(payments.providerRef, 'pi_refund_part'));
    expect(payment).toMatchObject({ state: 'partly_refunded', refundedAmount: 40 });
    expect((await subscriptionOf(userId)).status).toBe('trial');
    expect((await mailTo(email)).map((mail) => mail.subject)).not.toContain('Your Kabari subscription has ended');
  });

  /** A Stripe dispute event on the charge of `intentId`. */
  function disputeEvent(eventId: string, type: string, intentId: string, status: string) {
    return JSON.stringify({
      id: eventId,
      object: 'event',
      type,
      data: {
        object: {
          id: `dp_${intentId}`,
          object: 'dispute',
          charge: `ch_${intentId}`,
          payment_intent: intentId,
          amount: 99,
          currency: 'usd',
          reason: 'fraudulent',
          status,
        },
      },
    });
  }

  it('a dispute marks the payment disputed and ends the subscription with a notice', async () => {
    const { email, userId } = await trialSubscriber('pi_disputed');
    const payload = disputeEvent('evt_dispute', 'charge.dispute.created', 'pi_disputed', 'needs_response');
    expect((await postWebhook(payload, signed(payload))).json().data).toEqual({ received: true, duplicate: false });
    const [payment] = await app().db.select().from(payments).where(eq(payments.providerRef, 'pi_disputed'));
    expect(payment!.state).toBe('disputed');
    expect(payment!.disputedAt).not.toBeNull();
    expect((await subscriptionOf(userId)).status).toBe('unsubscribed');
    const notices = (await mailTo(email)).filter((mail) => mail.subject === 'Your Kabari subscription has ended');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.bodyText).toContain('is being disputed');
  });

  it('a dispute the operator wins gives the subscription back as it was, once, with an email; a lost one does not', async () => {
    const { email, userId } = await trialSubscriber('pi_dispute_won');
    const before = await subscriptionOf(userId);
    const opened = disputeEvent('evt_dispute_won_1', 'charge.dispute.created', 'pi_dispute_won', 'needs_response');
    expect((await postWebhook(opened, signed(opened))).statusCode).toBe(200);
    expect((await subscriptionOf(userId)).status).toBe('unsubscribed');

    const won = disputeEvent('evt_dispute_won_2', 'charge.dispute.closed', 'pi_dispute_won', 'won');
    expect((await postWebhook(won, signed(won))).json().data).toEqual({ received: true, duplicate: false });
    const [payment] = await app().db.select().from(payments).where(eq(payments.providerRef, 'pi_dispute_won'));
    expect(payment!.state).toBe('succeeded');
    expect(await subscriptionOf(userId)).toMatchObject({
      status: before.status,
      validUntil: before.validUntil,
      cancelledAt: null,
      disputedPaymentId: null,
    });
    const back = (await mailTo(email)).filter((mail) => mail.subject === 'Your Kabari subscription is active again');
    expect(back).toHaveLength(1);
    expect(back[0]!.bodyText).toContain('the payment stands');
    // Delivered again: nothing more.
    expect((await postWebhook(won, signed(won))).json().data).toEqual({ received: true, duplicate: true });
    expect(
      (await mailTo(email)).filter((mail) => mail.subject === 'Your Kabari subscription is active again'),
    ).toHaveLength(1);

    // Lost: the subscription stays ended.
    const other = await trialSubscriber('pi_dispute_lost');
    const openedToo = disputeEvent('evt_dispute_lost_1', 'charge.dispute.created', 'pi_dispute_lost', 'needs_response');
    await postWebhook(openedToo, signed(openedToo));
    const lost = disputeEvent('evt_dispute_lost_2', 'charge.dispute.closed', 'pi_dispute_lost', 'lost');
    expect((await postWebhook(lost, signed(lost))).statusCode).toBe(200);
    expect((await subscriptionOf(other.userId)).status).toBe('unsubscribed');
    const [lostPayment] = await app().db.select().from(payments).where(eq(payments.providerRef, 'pi_dispute_lost'));
    expect(lostPayment!.state).toBe('disputed');
  });

  it('a refund of an earlier period’s charge is recorded only: the renewed period is paid for', async () => {
    const { userId } = await trialSubscriber('pi_refund_old');
    expect(await app().billing.runRenewals(new Date(Date.now() + 2 * 24 * 3600 * 1000), userId)).toMatchObject({
      renewed: 1,
    });
    const payload = chargeEvent('evt_refund_old', 'pi_refund_old', 99);
    expect((await postWebhook(payload, signed(payload))).statusCode).toBe(200);
    const [payment] = await app().db.select().from(payments).where(eq(payments.providerRef, 'pi_refund_old'));
    expect(payment).toMatchObject({ state: 'refunded', kind: 'first_day' });
    expect(await subscriptionOf(userId)).toMatchObject({ status: 'active', periodIndex: 1 });
  });

  it('an event for a payment not recorded yet is refused unrecorded, so Stripe delivers it again', async () => {
    const payload = restartEvent('evt_early', '', 'renewal', 'renewal:00000000-0000-4000-8000-000000000000:1');
    const early = await postWebhook(payload, signed(payload));
    expect(early.statusCode).toBe(503);
    expect(await app().db.select().from(webhookEvents).where(eq(webhookEvents.eventId, 'evt_early'))).toHaveLength(0);
  });
});
