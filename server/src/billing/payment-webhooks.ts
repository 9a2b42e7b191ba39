import type Stripe from 'stripe';
import { findRegistration } from './registration-rows';
import { firstDayKey } from './sign-ups';
import { settleSignUpAnswer } from './sign-up-reconciliation';
import { minorDigits } from '@kabari/rules/money';
import { recordDispute, recordDisputeWon, recordRefund } from './payment-reversals';
import { settlePendingPayment } from './settle';
import { firstDelivery } from './webhook-event-rows';
import type { Database, DatabaseExecutor } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import type { Billing } from './billing-services';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import type { PaypalProcessor } from '../payments/paypal';
import type { MidtransProcessor } from '../payments/midtrans';
import {
  attemptPaymentKey,
  paidAsAsked,
  settleLocalAnswer,
  settleLocalRefund,
  type LocalAnswer,
} from './local-payments';
import { AMOUNT_MISMATCH } from '../payments/local-payments';
import { findLocalPayment } from './local-payment-rows';
import type { Logger } from '../lib/logger';
import { intentOutcome, refOf, stripeAmount } from '../payments/stripe-outcomes';

// What a provider's verified event changes: a pending payment settled, a sign-up completed or failed, a refund or a
// dispute recorded. Each event id is recorded in the same transaction as its effect, so a replay changes nothing.

/** What the webhook rules use of the server: the database, the outbox, billing. */
export interface WebhookDeps {
  db: Database;
  outbox: MessageOutbox;
  billing: Pick<Billing, 'clock' | 'config' | 'refundOwedNow'>;
  log: Logger;
}

/** The fields of a Midtrans HTTP notification that Kabari reads (its signature covers the first three). */
export interface MidtransNotification {
  order_id: string;
  status_code: string;
  gross_amount: string;
  signature_key: string;
  transaction_status?: string;
}

/** What the webhooks answer (read by the providers and in their dashboards; both languages as everywhere). */
export const say = messagesOf('webhooks');

/** The parts of a PayPal capture (or refund) event we read. */
export interface PaypalCaptureEvent {
  id: string;
  event_type: string;
  resource?: {
    id?: string;
    status?: string;
    custom_id?: string;
    status_details?: { reason?: string };
    supplementary_data?: { related_ids?: { order_id?: string } };
    /** Refunds and reversals: this refund's amount, the capture's total refunded, the capture ("up"). */
    amount?: { value?: string; currency_code?: string };
    seller_payable_breakdown?: { total_refunded_amount?: { value?: string } };
    links?: { rel?: string; href?: string }[];
  };
}

/** Builds the rules of one app's webhooks. */
export function webhookRules(deps: WebhookDeps) {
  /**
   * The event names a payment not recorded yet (it overtook the call that records it): refused without being
   * recorded, so the provider delivers it again.
   */
  const notRecordedYet = () => new HttpError(503, say('notRecordedYet'));

  async function settleStripeIntent(tx: DatabaseExecutor, intent: Stripe.PaymentIntent) {
    const kind = intent.metadata?.kind;
    if (kind === 'renewal' || kind === 'restart') {
      // A renewal by the job, or a renew after expiry: the payment recorded as pending, found by its key.
      const paymentKey = intent.metadata?.idempotencyKey;
      const outcome = intentOutcome(intent);
      if (!paymentKey || outcome.outcome === 'pending') return;
      const result = await settlePendingPayment(
        tx,
        paymentKey,
        outcome,
        {
          method: 'card',
          customerRef: refOf(intent.customer),
          paymentMethodRef: refOf(intent.payment_method),
        },
        { billing: deps.billing.config, outbox: deps.outbox, now: deps.billing.clock.now() },
      );
      if (!result.settled && result.missing) throw notRecordedYet();
      return;
    }
    const registrationId = intent.metadata?.registrationId;
    if (!registrationId || kind !== 'first_day') return;
    const registration = await findRegistration(tx, registrationId);
    if (!registration || registration.provider !== 'stripe') return;
    const outcome = intentOutcome(intent);
    if (outcome.outcome === 'pending') return;
    // A sign-up: settled exactly as the reconciliation job settles it (the amount recorded for the attempt).
    await settleSignUpAnswer(
      tx,
      {
        registration,
        outcome,
        saved: { customerRef: refOf(intent.customer), paymentMethodRef: refOf(intent.payment_method) },
        at: deps.billing.clock.now(),
      },
      { config: deps.billing.config, outbox: deps.outbox },
    );
  }

  /** The key of the payment a Stripe intent event is about (the renewal's, the restart's or the sign-up's). */
  function stripePaymentKey(intent: Stripe.PaymentIntent): string | undefined {
    const kind = intent.metadata?.kind;
    if (kind === 'renewal' || kind === 'restart') return intent.metadata?.idempotencyKey;
    const registrationId = intent.metadata?.registrationId;
    return kind === 'first_day' && registrationId ? firstDayKey(registrationId) : undefined;
  }

  /**
   * After the settling transaction committed (or on a redelivery of an event handled already): a refund owed on
   * the payment (a charge for a taken email, a late renewal) is made now. If the provider fails, the event is
   * refused so it is delivered again; the reconciliation jobs retry too.
   */
  async function refundOwedAfterCommit(paymentKey: string | undefined) {
    if (!paymentKey) return;
    const attempt = await deps.billing.refundOwedNow(paymentKey);
    if (attempt === 'failed') throw new HttpError(502, say('refundNotYet'));
  }

  /** A PayPal decimal amount in our minor units, or null when it is not one. */
  function paypalMinor(value: string | undefined, currency: string | undefined): number | null {
    if (!value || !currency || !/^\d+(\.\d+)?$/.test(value)) return null;
    return Math.round(Number(value) * 10 ** minorDigits(currency));
  }

  /** A PayPal refund or reversal: recorded on the capture's payment (the capture is its "up" link). */
  async function recordPaypalReversal(tx: DatabaseExecutor, event: PaypalCaptureEvent) {
    const resource = event.resource;
    const up = resource?.links?.find((link) => link.rel === 'up')?.href;
    const captureId = up ? /\/captures\/([\w-]+)$/.exec(up)?.[1] : undefined;
    const find = { providerRef: captureId ?? null, paymentKey: resource?.custom_id ?? null };
    const now = deps.billing.clock.now();
    if (event.event_type === 'PAYMENT.CAPTURE.REVERSED') {
      // PayPal took the money back for the payer (a dispute or chargeback they won).
      await recordDispute(tx, deps.outbox, find, now);
      return;
    }
    const currency = resource?.amount?.currency_code;
    const total = paypalMinor(resource?.seller_payable_breakdown?.total_refunded_amount?.value, currency);
    const amount = paypalMinor(resource?.amount?.value, currency);
    if (total === null && amount === null) return;
    await recordRefund(tx, deps.outbox, find, total !== null ? { total } : { amount: amount! }, now);
  }

  const PAYPAL_SETTLING = new Set(['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.DENIED', 'PAYMENT.CAPTURE.DECLINED']);
  const PAYPAL_REVERSING = new Set(['PAYMENT.CAPTURE.REFUNDED', 'PAYMENT.CAPTURE.REVERSED']);

  return {
    /**
     * A Midtrans notification whose signature was checked: handled once per order and status, and never on its
     * word alone. Midtrans's status call says what is true now (so a late 'pending' after 'settlement', or a
     * replay, changes nothing), and a payment counts only with the amount and currency asked (another amount ends the
     * attempt and owes the money back). A refund, ours or one made in Midtrans's dashboard, is recorded on the
     * payment as other providers' refunds are (settleLocalRefund). An order that is not
     * a Midtrans attempt of ours (the dashboard's test notification) is ignored.
     */
    async applyMidtransNotification(
      midtrans: MidtransProcessor,
      notification: MidtransNotification,
    ): Promise<{ duplicate: boolean }> {
      const orderId = notification.order_id;
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId);
      const registration = uuid ? await findRegistration(deps.db, orderId) : undefined;
      const local = registration?.provider === 'midtrans' ? await findLocalPayment(deps.db, orderId) : undefined;
      if (!registration || !local) return { duplicate: false };
      let status;
      try {
        status = await midtrans.status(orderId);
      } catch (error) {
        deps.log.error(
          { orderId, message: (error as Error).message },
          'Midtrans could not be asked to confirm a notification',
        );
        throw new HttpError(502, say('midtransCheckUnavailable'));
      }
      const state = status?.state;
      const mismatch = state?.kind === 'paid' && !paidAsAsked(local, status!);
      const paid = state?.kind === 'paid' && !mismatch;
      if (mismatch) {
        deps.log.error(
          { orderId, asked: local.amount, paid: status!.amount, currency: status!.currency },
          'Midtrans reports a payment of another amount than asked: the attempt ends and the money is owed back',
        );
      }
      // Handled once per state Midtrans confirms (not per state a notification claims): a notification that ran
      // ahead of the status call leaves the real one to come.
      const confirmed = !state
        ? 'unknown'
        : state.kind === 'ended'
          ? state.code
          : state.kind === 'refunded'
            ? `refunded:${state.refunded ?? 'part'}`
            : mismatch
              ? AMOUNT_MISMATCH
              : paid
                ? 'paid'
                : state.kind;
      const eventId = `${orderId}:${confirmed}`;
      const duplicate = !(await deps.db.transaction(async (tx) => {
        if (!(await firstDelivery(tx, 'midtrans', eventId, notification.transaction_status ?? confirmed))) {
          return false;
        }
        const now = deps.billing.clock.now();
        if (state?.kind === 'refunded') {
          const result = await settleLocalRefund(
            tx,
            registration,
            local,
            { ...status!, state },
            {
              config: deps.billing.config,
              outbox: deps.outbox,
              now,
            },
          );
          if (!result.settled && result.missing) throw notRecordedYet();
          return true;
        }
        const answer: LocalAnswer | undefined = paid
          ? { kind: 'paid' }
          : mismatch
            ? { kind: 'mismatch', amount: status!.amount, currency: status!.currency }
            : state?.kind === 'ended'
              ? state
              : undefined;
        if (!answer) return true;
        const result = await settleLocalAnswer(tx, registration, answer, {
          config: deps.billing.config,
          outbox: deps.outbox,
          now,
        });
        if (!result.settled && result.missing) throw notRecordedYet();
        return true;
      }));
      deps.outbox.kick();
      // A refund owed on a payment as asked (a taken email) is made now; one paid with another amount waits for the
      // operator.
      const refundedAsAsked = state?.kind === 'refunded' && paidAsAsked(local, status!);
      if (paid || refundedAsAsked) await refundOwedAfterCommit(await attemptPaymentKey(deps.db, registration));
      return { duplicate };
    },

    /** A verified Stripe event, applied once; `duplicate` when its id was seen before. */
    async applyStripeEvent(event: Stripe.Event): Promise<{ duplicate: boolean }> {
      const duplicate = !(await deps.db.transaction(async (tx) => {
        if (!(await firstDelivery(tx, 'stripe', event.id, event.type))) return false;
        if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
          await settleStripeIntent(tx, event.data.object);
        } else if (event.type === 'charge.refunded') {
          const charge = event.data.object;
          const currency = charge.currency.toUpperCase();
          await recordRefund(
            tx,
            deps.outbox,
            { providerRef: refOf(charge.payment_intent) },
            // Stripe's units back to ours (Stripe counts rupiah in hundredths, for example).
            { total: Math.round(charge.amount_refunded / stripeAmount(1, currency)) },
            deps.billing.clock.now(),
          );
        } else if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.closed') {
          const dispute = event.data.object;
          const find = { providerRef: refOf(dispute.payment_intent) };
          const now = deps.billing.clock.now();
          if (event.type === 'charge.dispute.created') await recordDispute(tx, deps.outbox, find, now);
          // Won: the payment counts again. Lost: the money went back to the payer, and the subscription stays ended.
          else if (dispute.status === 'won') await recordDisputeWon(tx, deps.outbox, find, now);
        }
        return true;
      }));
      deps.outbox.kick();
      if (event.type === 'payment_intent.succeeded') await refundOwedAfterCommit(stripePaymentKey(event.data.object));
      return { duplicate };
    },

    /**
     * A verified PayPal event, applied once; `duplicate` when its id was seen before. A completed capture asks
     * PayPal for its order's vault first (the event does not carry it), outside the transaction.
     */
    async applyPaypalEvent(paypal: PaypalProcessor, event: PaypalCaptureEvent): Promise<{ duplicate: boolean }> {
      const resource = event.resource;
      const paymentKey = resource?.custom_id;
      const settling = PAYPAL_SETTLING.has(event.event_type) && typeof paymentKey === 'string' && !!resource?.id;
      // A completed capture: ask PayPal for its order's vault (the event does not carry it), before the transaction.
      const orderId = resource?.supplementary_data?.related_ids?.order_id;
      const saved =
        settling && event.event_type === 'PAYMENT.CAPTURE.COMPLETED' && orderId
          ? await paypal.orderVault(orderId)
          : { customerRef: null, paymentMethodRef: null };

      const duplicate = !(await deps.db.transaction(async (tx) => {
        if (!(await firstDelivery(tx, 'paypal', event.id, event.event_type))) return false;
        if (PAYPAL_REVERSING.has(event.event_type)) {
          await recordPaypalReversal(tx, event);
          return true;
        }
        if (!settling) return true;
        const captureId = resource!.id!;
        const outcome =
          event.event_type === 'PAYMENT.CAPTURE.COMPLETED'
            ? { outcome: 'succeeded' as const, providerRef: captureId, cardBrand: null, cardLast4: null }
            : {
                outcome: 'failed' as const,
                providerRef: captureId,
                failureCode: resource?.status_details?.reason ?? resource?.status ?? 'DECLINED',
                failureMessage: 'PayPal declined the payment.',
              };
        const result = await settlePendingPayment(
          tx,
          paymentKey!,
          outcome,
          { method: 'paypal', ...saved },
          { billing: deps.billing.config, outbox: deps.outbox, now: deps.billing.clock.now() },
        );
        if (!result.settled && result.missing) throw notRecordedYet();
        return true;
      }));
      deps.outbox.kick();
      if (settling && event.event_type === 'PAYMENT.CAPTURE.COMPLETED') await refundOwedAfterCommit(paymentKey);
      return { duplicate };
    },
  };
}
