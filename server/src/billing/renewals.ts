import { renewsWhenPaid } from './subscriptions';
import type { User } from '../auth/users';
import type { Database, DatabaseExecutor } from '../db/open-database';
import type { Logger } from '../lib/logger';
import type { MessageOutbox } from '../messages/message-outbox';
import type { ChargeOutcome } from '../payments/processor';
import type { PaymentProcessors } from '../payments/processors';
import type { BillingConfig } from './billing-config';
import { failureText } from './billing-messages';
import { addDays } from './clock';
import {
  methodLabel,
  receiptEmail,
  renewalFailedEmail,
  renewalReminderEmail,
  renewByHandEmail,
  sandboxEndedEmail,
} from './emails';
import {
  endSubscription,
  expireEndedCancellations,
  extendSubscription,
  lockNextReminderDue,
  lockNextRenewalDue,
  markReminderSent,
} from './renewal-rows';
import { bookPaymentByKey, paymentByKey, type Payment } from './payment-rows';
import type { Subscription } from './subscription-rows';
import { sendPayReminders } from './pay-reminders';

export interface RenewalDeps {
  db: Database;
  outbox: MessageOutbox;
  config: BillingConfig;
  processors: PaymentProcessors;
  log: Logger;
  /** The configured public address (PUBLIC_URL), for the links in reminders to pay. */
  publicUrl: string;
}

export interface RenewalReport {
  expired: number;
  reminded: number;
  renewed: number;
  failed: number;
  /** Due, but waiting: the provider has not answered yet, or is not configured on this instance. */
  waiting: number;
}

const BATCH_LIMIT = 200;

/** The idempotency key of a period's renewal: the payments row's unique key and the provider's key. */
export function renewalKey(subscriptionId: string, periodIndex: number): string {
  return `renewal:${subscriptionId}:${periodIndex}`;
}

/**
 * One reminder per period, sent when the renewal is at most reminderDays away; not to a subscription that renews only
 * when paid (it gets the reminders to pay instead).
 */
async function sendReminders(deps: RenewalDeps, at: Date, userId?: string): Promise<number> {
  if (deps.config.reminderDays === 0) return 0;
  const horizon = addDays(at, deps.config.reminderDays);
  // A subscription the sandbox took will not renew once the sandbox is off: no "it renews" reminder for it.
  const notRenewing = sandboxOff(deps) ? (['sandbox'] as const) : [];
  let sent = 0;
  for (let index = 0; index < BATCH_LIMIT; index += 1) {
    const done = await deps.db.transaction(async (tx) => {
      const row = await lockNextReminderDue(tx, at, horizon, userId, notRenewing);
      if (!row) return true;
      const { subscription, user } = row;
      const locale = user.locale;
      await deps.outbox.queue(tx, {
        idempotencyKey: `renewal-reminder:${subscription.id}:${subscription.periodIndex}`,
        to: user.email,
        locale,
        ...renewalReminderEmail(locale, {
          displayName: user.displayName,
          amount: subscription.amount,
          currency: subscription.currency,
          renewsAt: subscription.validUntil,
          byHand: subscription.provider === 'paypal' && !subscription.providerPaymentMethodRef,
        }),
      });
      await markReminderSent(tx, subscription);
      sent += 1;
      return false;
    });
    if (done) break;
  }
  return sent;
}

type RenewalStep = 'none' | 'renewed' | 'failed' | 'waiting';

/** The sandbox is off here (a deployment without PAYMENTS_SANDBOX, or with a real provider's keys). */
function sandboxOff(deps: RenewalDeps): boolean {
  return deps.processors.sandbox === undefined;
}

/**
 * Renews one due subscription, if any is due and not locked by another instance. The row stays locked (select
 * … for update skip locked) through the provider call and the bookkeeping, so no other instance charges it;
 * the payment's unique idempotency key, sent to the provider too, makes a retry after a crash the same charge.
 */
async function renewOne(deps: RenewalDeps, at: Date, skip: Set<string>, userId?: string): Promise<RenewalStep> {
  return deps.db.transaction(async (tx) => {
    const row = await lockNextRenewalDue(tx, at, skip, userId);
    if (!row) return 'none';
    const { subscription, user } = row;
    // At most one period per subscription per pass, even when the pass runs long after several were due.
    skip.add(subscription.id);
    const locale = user.locale;
    const periodIndex = subscription.periodIndex + 1;
    const idempotencyKey = renewalKey(subscription.id, periodIndex);

    const existing = await paymentByKey(tx, idempotencyKey);
    if (existing?.state === 'pending') {
      // The provider answers by webhook; until then the period is neither renewed nor failed.
      return 'waiting';
    }
    if (subscription.provider === 'paypal' && !subscription.providerPaymentMethodRef) {
      // PayPal did not vault this account, so nothing can be charged without the subscriber: the period ends
      // here, and the notice says how to renew (pay again from the expired dialog). Nothing is recorded as paid.
      await endSubscription(tx, subscription.id, at);
      await deps.outbox.queue(tx, {
        idempotencyKey: `renewal-failed:${subscription.id}:${periodIndex}`,
        to: user.email,
        locale,
        ...renewByHandEmail(locale, {
          displayName: user.displayName,
          amount: subscription.amount,
          currency: subscription.currency,
        }),
      });
      return 'failed';
    }
    if (subscription.provider === 'sandbox' && sandboxOff(deps)) {
      // Paid with pretend money while the sandbox was on: once it is off, nothing can renew it for real, and
      // renewing it for free would give the service away. It ends with its paid period, and its owner is told how
      // to continue (paying again, with whatever this site now takes).
      await endSubscription(tx, subscription.id, at);
      await deps.outbox.queue(tx, {
        idempotencyKey: `renewal-failed:${subscription.id}:${periodIndex}`,
        to: user.email,
        locale,
        ...sandboxEndedEmail(locale, {
          displayName: user.displayName,
          amount: subscription.amount,
          currency: subscription.currency,
        }),
      });
      return 'failed';
    }
    const processor = deps.processors[subscription.provider];
    // Paid with QRIS, an e-wallet or a transfer: nothing to charge, it renews when its owner pays (and ends on time).
    if (renewsWhenPaid(subscription)) return 'waiting';
    if (!processor || !subscription.providerPaymentMethodRef) {
      deps.log.warn(
        { subscriptionId: subscription.id, provider: subscription.provider },
        'A renewal is due but its provider is not configured here (or no payment method is saved)',
      );
      return 'waiting';
    }

    const outcome =
      existing?.state === 'succeeded'
        ? {
            outcome: 'succeeded' as const,
            providerRef: existing.providerRef ?? '',
            cardBrand: existing.cardBrand,
            cardLast4: existing.cardLast4,
          }
        : await processor.chargeSaved({
            idempotencyKey,
            amount: subscription.amount,
            currency: subscription.currency,
            customerRef: subscription.providerCustomerRef,
            paymentMethodRef: subscription.providerPaymentMethodRef,
            description: `Kabari subscription, period ${periodIndex}`,
            locale,
          });

    const base = {
      userId: user.id,
      subscriptionId: subscription.id,
      kind: 'renewal',
      periodIndex,
      idempotencyKey,
      provider: subscription.provider,
      currency: subscription.currency,
      amount: subscription.amount,
    } as const;
    const state = outcome.outcome;
    const values = {
      ...base,
      providerRef: outcome.providerRef,
      state,
      failureCode: state === 'failed' ? outcome.failureCode : null,
      cardBrand: state === 'succeeded' ? outcome.cardBrand : null,
      cardLast4: state === 'succeeded' ? outcome.cardLast4 : null,
      settledAt: state === 'pending' ? null : at,
    };
    const payment = await bookPaymentByKey(tx, { ...values, createdAt: at }, values);

    if (outcome.outcome === 'pending') {
      return 'waiting';
    }
    return settleRenewal(tx, deps.outbox, { subscription, user, payment }, outcome, at);
  });
}

/**
 * A period's renewal charge has an answer (now, or later by webhook): a failure ends the subscription with a
 * notice by email; a success extends it by a period from where it ended, with a receipt.
 */
export async function settleRenewal(
  tx: DatabaseExecutor,
  outbox: MessageOutbox,
  facts: { subscription: Subscription; user: User; payment: Payment },
  outcome: Exclude<ChargeOutcome, { outcome: 'pending' }>,
  at: Date,
): Promise<'renewed' | 'failed'> {
  const { subscription, user, payment } = facts;
  const locale = user.locale;
  const periodIndex = payment.periodIndex;
  if (outcome.outcome === 'failed') {
    await endSubscription(tx, subscription.id, at);
    await outbox.queue(tx, {
      idempotencyKey: `renewal-failed:${subscription.id}:${periodIndex}`,
      to: user.email,
      locale,
      ...renewalFailedEmail(locale, {
        displayName: user.displayName,
        amount: subscription.amount,
        currency: subscription.currency,
        reason: failureText(outcome.failureCode, locale, outcome.failureMessage),
      }),
    });
    return 'failed';
  }

  const validUntil = addDays(subscription.validUntil, subscription.periodDays);
  await extendSubscription(
    tx,
    subscription.id,
    { periodIndex, currentPeriodStart: subscription.validUntil, validUntil },
    at,
  );
  await outbox.queue(tx, {
    idempotencyKey: `receipt:${payment.id}`,
    to: user.email,
    locale,
    ...receiptEmail(locale, {
      displayName: user.displayName,
      amount: payment.amount,
      currency: payment.currency,
      kind: 'renewal',
      paidAt: at,
      paymentId: payment.id,
      method: methodLabel(locale, payment),
      validUntil,
      nextAmount: subscription.amount,
      sandbox: subscription.provider === 'sandbox',
    }),
  });
  return 'renewed';
}

/**
 * One pass of the renewal job at moment `at`: expire ended cancellations, send reminders, charge what is due.
 * Safe to run on several instances at once and to re-run after a crash. `userId` limits it to one account
 * (the development tool).
 */
export async function runRenewals(deps: RenewalDeps, at: Date, userId?: string): Promise<RenewalReport> {
  const report: RenewalReport = { expired: 0, reminded: 0, renewed: 0, failed: 0, waiting: 0 };
  report.expired = await expireEndedCancellations(deps.db, at, userId);
  const skip = new Set<string>();
  for (let index = 0; index < BATCH_LIMIT; index += 1) {
    const step = await renewOne(deps, at, skip, userId);
    if (step === 'none') break;
    report[step] += 1;
  }
  // After the charges: a subscription just renewed is reminded of its next renewal only when that is near.
  report.reminded = await sendReminders(deps, at, userId);
  // A subscription the sandbox took ends with its own notice once the sandbox is off: no reminder to pay for it.
  report.reminded += await sendPayReminders(deps, at, userId, sandboxOff(deps) ? ['sandbox'] : []);
  return report;
}
