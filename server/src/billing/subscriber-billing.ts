import { randomUUID } from 'node:crypto';
import type { Logger } from '../lib/logger';
import type { AuthServices } from '../auth/auth-services';
import type { User } from '../auth/users';
import { sayBilling as say } from './billing-messages';
import { cancelledEmail } from './emails';
import { paymentView } from './payment-view';
import { openPaypalOrder } from './paypal-orders';
import { findRegistration, insertRegistration, setRegistrationProviderRef } from './registration-rows';
import { bookRestart, recordPendingRestart, type RestartResult } from './restarts';
import { localPaymentView, startLocalPayment, type LocalPaymentView } from './local-payments';
import { findWaitingLocalPaymentOf } from './local-payment-rows';
import type { LocalChannel } from '../db/column-values';
import { restartKey, type FirstChargeAnswer } from './sign-ups';
import {
  cancelSubscription,
  effectiveStatus,
  PAY_AHEAD_DAYS,
  renewsWhenPaid,
  subscriptionInfo,
  type SubscriptionInfo,
} from './subscriptions';
import { findSubscription, type Subscription } from './subscription-rows';
import type { PaymentProvider } from '../db/column-values';
import type { Database, DatabaseExecutor } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import type { Billing } from './billing-services';
import { HttpError } from '../lib/envelope';
import { authorizeSandboxPayment } from '../payments/sandbox-processor';
import { paymentsOf, pendingRenewalPayment } from './payment-rows';
import { addDays } from './clock';
import type { CardInput } from '../payments/card-checks';
import type { SandboxMethod } from '../payments/sandbox-processor';
import { processorsOf } from '../payments/processors';

// The signed-in subscriber's subscription: what it is, cancelling it, paying again once it has ended, the payments.

/** What the subscription rules use of the server: the database, the outbox, the session cache, billing. */
export interface SubscriptionDeps {
  db: Database;
  outbox: MessageOutbox;
  auth: Pick<AuthServices, 'cache'>;
  billing: Pick<
    Billing,
    'clock' | 'config' | 'sandbox' | 'stripe' | 'paypal' | 'midtrans' | 'methodsFor' | 'renewalTerms' | 'refundOwedNow'
  >;
  log: Logger;
}

/**
 * The subscription as the app checks it on every protected navigation; 404 without one. The row may come from the
 * session cache: the expiry is worked out from the clock at each call, so a cached row is as good as a fresh one.
 * With it, the local payment its owner started to pay again and that still waits, so a closed dialog can show the
 * code again: looked up only where one can exist (an ended subscription, or one that renews when paid), so a card
 * subscriber's navigation costs no second read.
 */
export async function subscriptionNow(deps: SubscriptionDeps, userId: string) {
  const subscription = await deps.auth.cache.get(
    `subscription:${userId}`,
    () => findSubscription(deps.db, userId),
    () => userId,
  );
  if (!subscription) throw new HttpError(404, say('noSubscription'));
  return subscriptionWithWaiting(deps, subscription, deps.billing.clock.now());
}

/** subscribe/info's answer for a subscription read by the caller (from the cache, or afresh after a change). */
export async function subscriptionWithWaiting(
  deps: Pick<SubscriptionDeps, 'db' | 'billing'>,
  subscription: Subscription,
  now: Date,
) {
  const info = subscriptionInfo(subscription, now, processorsOf(deps.billing));
  const mayWait = info.expiredStatus === 1 || renewsWhenPaid(subscription);
  const waiting = mayWait ? await findWaitingLocalPaymentOf(deps.db, subscription.userId, now) : undefined;
  if (!waiting) {
    let answer = nothingWaiting.get(info);
    if (!answer) {
      answer = { ...info, waitingPayment: null };
      nothingWaiting.set(info, answer);
    }
    return answer;
  }
  const waitingPayment = {
    registerId: waiting.registrationId,
    payment: localPaymentView(waiting, deps.billing.config),
  };
  return { ...info, waitingPayment };
}

/**
 * subscribe/info's answer when no payment waits, made once per answer of subscriptionInfo (itself kept while its
 * cached row and status hold): a fresh copy of its sixteen properties on every protected navigation cost about a
 * tenth of the route's CPU, spreading into a literal being one of V8's slow paths.
 */
const nothingWaiting = new WeakMap<SubscriptionInfo, SubscriptionInfo & { waitingPayment: null }>();

/**
 * What paying again costs and how, for the renewal form: the subscription's own price and currency (which may not be
 * the price the pages now show), and the methods that take that currency; 404 without a subscription.
 */
export async function renewalTerms(deps: SubscriptionDeps, userId: string) {
  const subscription = await findSubscription(deps.db, userId);
  if (!subscription) throw new HttpError(404, say('noSubscription'));
  return deps.billing.renewalTerms(subscription);
}

/** Cancels renewals (access is kept until validUntil; cancelling twice changes nothing), told by email once. */
export async function cancelRenewals(deps: SubscriptionDeps, user: User) {
  const now = deps.billing.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    const cancelled = await cancelSubscription(tx, user.id, now);
    if (cancelled?.changed) {
      const locale = user.locale;
      await deps.outbox.queue(tx, {
        idempotencyKey: `cancelled:${cancelled.subscription.id}:${cancelled.subscription.periodIndex}`,
        to: user.email,
        locale,
        ...cancelledEmail(locale, { displayName: user.displayName, validUntil: cancelled.subscription.validUntil }),
      });
    }
    return cancelled;
  });
  if (!result) throw new HttpError(404, say('noSubscription'));
  deps.outbox.kick();
  return subscriptionInfo(result.subscription, now, processorsOf(deps.billing));
}

/** What the dashboard's next step is after a renewal was asked: done, 3-D Secure, or PayPal's button. */
interface RenewAnswer {
  registerId: string;
  payment?: LocalPaymentView;
  requiresAction?: boolean;
  clientSecret?: string;
  orderId?: string;
}

/** A subscriber's ask to pay again, as the renewal dialog sends it. */
export interface RenewAsk {
  method: SandboxMethod | 'local';
  channel?: LocalChannel | undefined;
  card?: CardInput | undefined;
  paymentMethodId?: string | undefined;
  locale?: 'en' | 'id' | undefined;
  registerId?: string | undefined;
  orderId?: string | undefined;
  capture?: boolean | undefined;
}

/**
 * An expired subscriber pays again (sandbox, Stripe or PayPal, as configured) for a new full period from now; 400
 * while access lasts, except a subscription that renews when paid, which may be paid with a local channel from
 * PAY_AHEAD_DAYS before it ends (its next period then starts when this one ends). PayPal takes two calls: the first
 * opens an order, the second (`capture`) captures it.
 */
export async function renewSubscription(deps: SubscriptionDeps, user: User, body: RenewAsk): Promise<RenewAnswer> {
  const now = deps.billing.clock.now();
  const subscription = await findSubscription(deps.db, user.id);
  if (!subscription) throw new HttpError(404, say('noSubscription'));
  // A restart is paid in the subscription's own currency.
  const provider = deps.billing.methodsFor(subscription.currency)[body.method];
  if (!provider) throw new HttpError(400, say('methodUnavailable'));
  const restart = new Restart(deps, user, subscription, now);

  // PayPal's second step: capture the order the subscriber approved for this attempt.
  if (provider === 'paypal' && body.capture) {
    if (!body.registerId || !body.orderId) throw new HttpError(400, say('paypalOrderMissing'));
    return restart.capturePaypal(body.registerId, body.orderId);
  }

  const status = effectiveStatus(subscription, now);
  if (status !== 'expired' && status !== 'unsubscribed') {
    // Still running: only one that renews when paid may be paid ahead (cards renew by themselves).
    const payable =
      body.method === 'local' && (status === 'active' || status === 'trial') && renewsWhenPaid(subscription);
    if (!payable) throw new HttpError(400, say('stillRunning'));
    await refuseSecondPayment(deps.db, subscription, now);
  }
  const locale = body.locale ?? user.locale;
  const attempt = restart.attemptRow(provider, locale);
  const registrationId = attempt.id;

  if (body.method === 'local') {
    if (!body.channel) throw new HttpError(400, say('localChannelMissing'));
    const localProvider = provider as 'midtrans' | 'sandbox';
    await insertRegistration(deps.db, attempt);
    const payment = await startLocalPayment(
      { db: deps.db, outbox: deps.outbox, config: deps.billing.config, midtrans: deps.billing.midtrans, log: deps.log },
      {
        registrationId,
        provider: localProvider,
        channel: body.channel,
        amount: subscription.amount,
        currency: subscription.currency,
        description: 'Kabari subscription, renewed',
        now,
        recordPending: (tx, providerRef) =>
          recordPendingRestart(tx, {
            registrationId,
            userId: user.id,
            subscription,
            provider: localProvider,
            providerRef,
            now,
          }),
      },
    );
    return { registerId: registrationId, payment };
  }

  if (provider === 'stripe') {
    const stripe = deps.billing.stripe!;
    if (body.method === 'paypal' || !body.paymentMethodId || !/^pm_\w+$/.test(body.paymentMethodId)) {
      throw new HttpError(400, say('stripeMethodMissing'));
    }
    await insertRegistration(deps.db, attempt);
    const charge = await stripe.chargeFirst({
      idempotencyKey: restartKey(registrationId),
      registrationId,
      email: user.email,
      name: user.displayName,
      amount: subscription.amount,
      currency: subscription.currency,
      paymentMethodId: body.paymentMethodId,
      kind: 'restart',
      customerRef: subscription.provider === 'stripe' ? subscription.providerCustomerRef : null,
    });
    const { outcome, customerRef, paymentMethodRef } = charge;
    await restart.book(
      registrationId,
      'stripe',
      { outcome, method: body.method, customerRef, paymentMethodRef },
      (tx) =>
        outcome.outcome === 'pending' ? setRegistrationProviderRef(tx, registrationId, outcome.providerRef, now) : null,
    );
    return {
      registerId: registrationId,
      requiresAction: charge.requiresAction,
      ...(charge.clientSecret ? { clientSecret: charge.clientSecret } : {}),
    };
  }

  if (provider === 'paypal') {
    await insertRegistration(deps.db, attempt);
    const orderId = await openPaypalOrder(
      { db: deps.db, paypal: deps.billing.paypal!, log: deps.log },
      {
        registrationId,
        paymentKey: restartKey(registrationId),
        amount: subscription.amount,
        currency: subscription.currency,
        locale,
        description: 'Kabari subscription, renewed after expiry',
        now,
      },
    );
    return { registerId: registrationId, orderId };
  }

  // The sandbox: a card with a bad format is refused (400) before anything is stored.
  const authorization = authorizeSandboxPayment({
    method: body.method as SandboxMethod,
    card: body.card,
    idempotencyKey: restartKey(registrationId),
    locale,
    now,
  });
  const answer = {
    outcome: authorization.outcome,
    method: body.method as SandboxMethod,
    customerRef: null,
    paymentMethodRef: authorization.paymentMethodRef,
  };
  await restart.book(registrationId, 'sandbox', answer, (tx) => insertRegistration(tx, attempt));
  return { registerId: registrationId };
}

/**
 * Paying ahead for a running subscription's next period: from PAY_AHEAD_DAYS before it ends, once. A period already
 * paid ahead, or a payment for it still waiting, is refused so that two payments never stack two periods by mistake.
 */
async function refuseSecondPayment(db: DatabaseExecutor, subscription: Subscription, now: Date): Promise<void> {
  // Its current period starts later than now: this period was itself paid ahead.
  if (subscription.currentPeriodStart.getTime() > now.getTime()) throw new HttpError(409, say('nextPeriodPaid'));
  if (addDays(subscription.validUntil, -PAY_AHEAD_DAYS).getTime() > now.getTime()) {
    throw new HttpError(400, say('tooEarlyToPay'));
  }
  if (await pendingRenewalPayment(db, subscription.id, subscription.periodIndex + 1)) {
    throw new HttpError(409, say('renewalPaymentWaiting'));
  }
}

/** One renewal by hand of one subscriber's ended subscription. */
class Restart {
  constructor(
    private readonly deps: SubscriptionDeps,
    private readonly user: User,
    private readonly subscription: Subscription,
    private readonly now: Date,
  ) {}

  /** The attempt's row, kept like a sign-up's so registerQuery reports it. */
  attemptRow(provider: PaymentProvider, locale: 'en' | 'id') {
    const { user, subscription, now } = this;
    return {
      id: randomUUID(),
      email: user.email,
      displayName: user.displayName,
      phone: user.phone,
      locale,
      provider,
      userId: user.id,
      subscriptionId: subscription.id,
      // Already signed in: no auth code is handed out for a renewal.
      authCodeIssuedAt: now,
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * Books the processor's answer (after `before`, in the same transaction). A renewal that found the subscription
   * renewed meanwhile is owed back (marked in the booking transaction), so it is refunded once committed; a
   * provider failure is retried by the renewal reconciliation passes. registerQuery tells the subscriber
   * (duplicate_payment), and the email follows.
   */
  async book(
    registrationId: string,
    provider: PaymentProvider,
    answer: FirstChargeAnswer,
    before?: (tx: DatabaseExecutor) => Promise<unknown> | null,
  ): Promise<void> {
    const { deps, user, subscription, now } = this;
    const booked: RestartResult | null = await deps.db.transaction(async (tx) => {
      await before?.(tx);
      return bookRestart(
        tx,
        { registrationId, user, subscription, provider, answer },
        { billing: deps.billing.config, outbox: deps.outbox, now },
      );
    });
    deps.outbox.kick();
    if (booked && !booked.restarted) await deps.billing.refundOwedNow(restartKey(registrationId));
  }

  /** Captures the PayPal order the subscriber approved for this attempt (once: a retried approval answers the same). */
  async capturePaypal(registerId: string, orderId: string): Promise<RenewAnswer> {
    const attempt = await findRegistration(this.deps.db, registerId);
    if (
      !attempt ||
      attempt.userId !== this.user.id ||
      attempt.provider !== 'paypal' ||
      attempt.providerRef !== orderId
    ) {
      throw new HttpError(404, say('renewalNotFound'));
    }
    if (attempt.state === 'querying') {
      const capture = await this.deps.billing.paypal!.captureOrder(orderId, `capture:${attempt.id}`);
      const { outcome, customerRef, paymentMethodRef } = capture;
      await this.book(attempt.id, 'paypal', { outcome, method: 'paypal', customerRef, paymentMethodRef });
    }
    return { registerId: attempt.id, orderId };
  }
}

/** The subscriber's payments, newest first (brand and last four at most; never card data). */
export async function paymentHistory(deps: Pick<SubscriptionDeps, 'db'>, userId: string) {
  const rows = await paymentsOf(deps.db, userId);
  return rows.map(paymentView);
}
