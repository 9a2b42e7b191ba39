import type { Database } from '../db/open-database';
import type { PaymentProvider } from '../db/column-values';
import { HttpError } from '../lib/envelope';
import type { PaymentProcessors } from '../payments/processors';
import { RefundRefused } from '../payments/refund-refused';
import { recordRefundRefused } from '../billing/refund-rows';
import { refundKeyOf } from '../billing/refunds-owed';
import { recordOperatorAction } from '../operators/audit-log-rows';
import {
  latestRefundablePaymentOf,
  openRefundRequestById,
  openRefundRequests,
  queuedPaymentById,
  queuedPayments,
  recordPaymentRefunded,
  recordRequestRefunded,
  type PaymentRow,
} from './refund-queue-rows';
import { sayDesk } from './desk-messages';
import type { ActingOperator } from './suspensions';

// The refunds the operator owes or was asked for, in one queue: the refund form's requests, payments owed back
// (a suspension, a taken email, a late or duplicate charge, a local payment of another amount than asked), refunds a processor refused for good, and disputes.
// A refund is made through the processor that took the payment, with the same idempotency key the automatic passes
// use (billing/refunds-owed.ts), so two clicks or a pass at the same time give the money back once; or it is marked
// refunded with the operator's reference when they gave it back by hand.

export type RefundSource =
  | 'refund_form'
  | 'suspension'
  | 'dispute'
  | 'email_in_use'
  | 'late_renewal'
  | 'duplicate_payment'
  | 'amount_mismatch'
  | 'refused';

export interface RefundOwedView {
  id: string;
  source: RefundSource;
  email: string | null;
  amountMinor: number | null;
  currency: string | null;
  provider: PaymentProvider | null;
  createdAt: string;
  state: 'owed' | 'refused' | 'disputed';
  /** The processor can give it back from here: a payment found, its processor configured, no dispute beside it. */
  canRefund: boolean;
  /** The refund form's reason, or the processor's refusal code. */
  detail: string | null;
}

export interface RefundQueueDeps {
  db: Database;
  processors: PaymentProcessors;
}

function paymentSource(payment: PaymentRow): RefundSource {
  if (payment.state === 'disputed') return 'dispute';
  if (!payment.refundOwedAt) return 'refused';
  return payment.refundReason ?? 'refused';
}

const refundable = (deps: RefundQueueDeps, payment: PaymentRow | undefined) =>
  payment !== undefined &&
  payment.state !== 'disputed' &&
  payment.refundOwedAt !== null &&
  deps.processors[payment.provider] !== undefined;

/** The queue, newest first: the refund form's open requests, then the payments. */
export async function refundsOwed(deps: RefundQueueDeps): Promise<RefundOwedView[]> {
  const [requests, owed] = await Promise.all([openRefundRequests(deps.db, 200), queuedPayments(deps.db, 200)]);
  const fromForm = await Promise.all(
    requests.map(async (request): Promise<RefundOwedView> => {
      const payment = request.userId ? await latestRefundablePaymentOf(deps.db, request.userId) : undefined;
      return {
        id: request.id,
        source: 'refund_form',
        email: request.email,
        amountMinor: payment?.amount ?? null,
        currency: payment?.currency ?? null,
        provider: payment?.provider ?? null,
        createdAt: request.createdAt.toISOString(),
        state: 'owed',
        canRefund: payment !== undefined && deps.processors[payment.provider] !== undefined,
        detail: request.reason,
      };
    }),
  );
  const fromPayments = owed.map(({ payment, email }): RefundOwedView => ({
    id: payment.id,
    source: paymentSource(payment),
    email,
    amountMinor: payment.amount,
    currency: payment.currency,
    provider: payment.provider,
    createdAt: (
      payment.refundOwedAt ??
      payment.disputedAt ??
      payment.refundFailedAt ??
      payment.createdAt
    ).toISOString(),
    state: payment.state === 'disputed' ? 'disputed' : payment.refundOwedAt ? 'owed' : 'refused',
    canRefund: refundable(deps, payment),
    detail: payment.refundFailure,
  }));
  return [...fromForm, ...fromPayments].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** What a refund gives back: the payment, and the refund form's request it answers (if it is one). */
async function refundTarget(deps: RefundQueueDeps, id: string) {
  const request = await openRefundRequestById(deps.db, id);
  if (request) {
    const payment = request.userId ? await latestRefundablePaymentOf(deps.db, request.userId) : undefined;
    return { requestId: request.id, payment };
  }
  const payment = await queuedPaymentById(deps.db, id);
  if (!payment) throw new HttpError(404, sayDesk('refundNotFound'));
  return { requestId: null, payment: refundable(deps, payment) ? payment : undefined };
}

/**
 * Gives the money back through the processor that took it, then records it and the operator's action. 404 when
 * nothing is owed under this id; 409 when the processor cannot (none here, a dispute beside it, or it refused for
 * good: then it is recorded as refused, for a refund by hand); 502 when the processor failed now (try again).
 */
export async function refundThroughProcessor(
  deps: RefundQueueDeps,
  operator: ActingOperator,
  id: string,
  note: string | null,
): Promise<{ id: string; refunded: true }> {
  const { requestId, payment } = await refundTarget(deps, id);
  const processor = payment && deps.processors[payment.provider];
  if (!payment || !processor) throw new HttpError(409, sayDesk('refundNotPossible'));
  try {
    await processor.refund(payment.providerRef, refundKeyOf(payment));
  } catch (error) {
    if (error instanceof RefundRefused) {
      await deps.db.transaction(async (tx) => {
        if (payment.refundOwedAt) await recordRefundRefused(tx, payment.id, error.code, new Date());
      });
      throw new HttpError(409, sayDesk('refundRefused', { code: error.code }));
    }
    throw new HttpError(502, sayDesk('refundFailed'));
  }
  await deps.db.transaction(async (tx) => {
    await recordPaymentRefunded(tx, payment, null);
    if (requestId) await recordRequestRefunded(tx, requestId, new Date(), null);
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: 'refund.refund',
      objectType: requestId ? 'refund_request' : 'payment',
      objectId: id,
      note,
    });
  });
  return { id, refunded: true };
}

/** Records a refund the operator made by hand, with their reference; 404 when nothing is owed under this id. */
export async function markRefunded(
  db: Database,
  operator: ActingOperator,
  id: string,
  reference: string,
  note: string | null,
): Promise<{ id: string; refunded: true }> {
  await db.transaction(async (tx) => {
    const request = await openRefundRequestById(tx, id, true);
    if (request) {
      await recordRequestRefunded(tx, request.id, new Date(), reference);
    } else {
      const payment = await queuedPaymentById(tx, id, true);
      if (!payment) throw new HttpError(404, sayDesk('refundNotFound'));
      await recordPaymentRefunded(tx, payment, reference);
    }
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: 'refund.mark_refunded',
      objectType: request ? 'refund_request' : 'payment',
      objectId: id,
      note: note ? `${reference}: ${note}` : reference,
    });
  });
  return { id, refunded: true };
}
