import type { LocalChannel } from '../db/column-values';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { findLocalPayment, insertLocalPayment, type LocalPaymentRow } from './local-payment-rows';
import { HttpError } from '../lib/envelope';
import type { Logger } from '../lib/logger';
import type { MessageOutbox } from '../messages/message-outbox';
import {
  AMOUNT_MISMATCH,
  LOCAL_EXPIRY_MINUTES,
  localFailure,
  sandboxLocalCharge,
  type LocalCharge,
  type LocalEndCode,
  type LocalGateway,
  type LocalStatus,
} from '../payments/local-payments';
import type { ChargeOutcome } from '../payments/processor';
import { toMajor } from '@kabari/rules/money';
import type { BillingConfig } from './billing-config';
import { sayBilling as say } from './billing-messages';
import { findRegistration, updateRegistrationIn, type RegistrationRow } from './registration-rows';
import { settlePendingPayment, type SettleResult } from './settle';
import { lockPaymentByKey, paymentByKey, updatePayment } from './payment-rows';
import { markRefundOwed, settleOwedRefundedElsewhere } from './refund-rows';
import { recordRefund } from './payment-reversals';
import { SANDBOX_LOCAL_METHOD } from './subscriptions';
import { firstDayKey, restartKey } from './sign-ups';

// Payments the payer completes in their own app (QRIS, an e-wallet, a bank's virtual account), through Midtrans or
// the sandbox: started for an attempt (a sign-up or a renewal by hand), shown while they wait, and ended by the
// gateway's answer (its notification, the reconciliation pass, the sandbox's simulate button) or by their expiry.

/** What the waiting page shows (the API's LocalPayment). */
export interface LocalPaymentView {
  channel: LocalChannel;
  amount: number;
  currencyCode: string;
  merchantName: string;
  expiresAt: string;
  qrString?: string;
  deeplinkUrl?: string;
  vaNumber?: string;
  billerCode?: string;
}

/** What the local payment rules use of the server. */
export interface LocalPaymentDeps {
  db: Database;
  outbox: MessageOutbox;
  config: BillingConfig;
  /** Midtrans when configured (the sandbox needs no gateway). */
  midtrans: LocalGateway | undefined;
  log: Logger;
}

/** The sandbox's merchant name beside its code: says plainly that nothing is paid. */
const SANDBOX_MERCHANT = 'Kabari (sandbox)';

export function localPaymentView(row: LocalPaymentRow, config: BillingConfig): LocalPaymentView {
  return {
    channel: row.channel,
    amount: toMajor(row.amount, row.currency),
    currencyCode: row.currency,
    merchantName: config.midtrans?.merchantName ?? SANDBOX_MERCHANT,
    expiresAt: row.expiresAt.toISOString(),
    ...(row.qrString ? { qrString: row.qrString } : {}),
    ...(row.deeplinkUrl ? { deeplinkUrl: row.deeplinkUrl } : {}),
    ...(row.vaNumber ? { vaNumber: row.vaNumber } : {}),
    ...(row.billerCode ? { billerCode: row.billerCode } : {}),
  };
}

/**
 * The key of an attempt's payment: its first day's, or its restart's (an expired subscriber paying again). A
 * restart's row holds its user and subscription from the start, but a first sign-up's gains them once paid, so a row
 * with both is told apart by the restart's payment, which is stored when the restart starts.
 */
export async function attemptPaymentKey(
  db: DatabaseExecutor,
  registration: Pick<RegistrationRow, 'id' | 'userId' | 'subscriptionId'>,
): Promise<string> {
  if (registration.userId === null || registration.subscriptionId === null) return firstDayKey(registration.id);
  const key = restartKey(registration.id);
  return (await paymentByKey(db, key)) ? key : firstDayKey(registration.id);
}

/**
 * Asks the gateway (Midtrans, or the sandbox) for the payment of an attempt whose row is stored, then records what
 * the page shows and the pending payment (by `recordPending`) in one transaction. A gateway that fails ends the
 * attempt (the payer is told to try again: 502) and the order is expired at Midtrans in case it was made after all.
 */
export async function startLocalPayment(
  deps: LocalPaymentDeps,
  input: {
    registrationId: string;
    provider: 'midtrans' | 'sandbox';
    channel: LocalChannel;
    amount: number;
    currency: string;
    description: string;
    now: Date;
    recordPending: (tx: DatabaseExecutor, providerRef: string) => Promise<void>;
  },
): Promise<LocalPaymentView> {
  const expiryMinutes = LOCAL_EXPIRY_MINUTES[input.channel];
  const request = {
    orderId: input.registrationId,
    channel: input.channel,
    amount: input.amount,
    currency: input.currency,
    description: input.description,
    expiryMinutes,
  };
  let charge: LocalCharge;
  if (input.provider === 'sandbox') {
    charge = sandboxLocalCharge(request);
  } else {
    const gateway = deps.midtrans;
    try {
      if (!gateway) throw new Error('Midtrans is not configured on this instance');
      charge = await gateway.charge(request);
    } catch (error) {
      deps.log.error(
        { registrationId: input.registrationId, channel: input.channel, message: (error as Error).message },
        'Midtrans could not start a payment',
      );
      await updateRegistrationIn(deps.db, input.registrationId, ['querying'], {
        state: 'sign_failed',
        failureCode: 'payment_failed',
        passwordHash: null,
        updatedAt: input.now,
      });
      await gateway?.expire(input.registrationId).catch(() => undefined);
      throw new HttpError(502, say('localPaymentUnavailable'));
    }
  }
  const row = await deps.db.transaction(async (tx) => {
    const stored = await insertLocalPayment(tx, {
      registrationId: input.registrationId,
      channel: input.channel,
      currency: input.currency,
      amount: input.amount,
      qrString: charge.qrString,
      deeplinkUrl: charge.deeplinkUrl,
      vaNumber: charge.vaNumber,
      billerCode: charge.billerCode,
      expiresAt: new Date(input.now.getTime() + expiryMinutes * 60_000),
      createdAt: input.now,
    });
    await input.recordPending(tx, charge.providerRef);
    return stored;
  });
  return localPaymentView(row, deps.config);
}

/** How a check of one waiting local payment ended. */
export type LocalCheck = 'settled' | 'ended' | 'waiting';

const PAID: (providerRef: string) => Extract<ChargeOutcome, { outcome: 'succeeded' }> = (providerRef) => ({
  outcome: 'succeeded',
  providerRef,
  cardBrand: null,
  cardLast4: null,
});

/**
 * A local payment's definite answer from the gateway: paid as asked, paid with another amount or currency than
 * asked (`amount` in our minor units, null when the gateway's could not be read), or ended unpaid.
 */
export type LocalAnswer =
  | { kind: 'paid' }
  | { kind: 'mismatch'; amount: number | null; currency: string }
  | { kind: 'ended'; code: LocalEndCode };

/**
 * Paid with another amount or currency than asked (a tampered or mistaken order): it never counts. The attempt
 * fails with payment_amount_mismatch, and the money taken is recorded as a succeeded payment of what was paid, owed
 * back (refund reason amount_mismatch) for the operator to return from the refund queue. No pass returns it by
 * itself: an order that does not match is for a person to look at. A replay finds the payment settled already and
 * changes nothing; the owed mark is set once.
 */
async function settleMismatch(
  tx: DatabaseExecutor,
  registration: RegistrationRow,
  paid: { amount: number | null; currency: string },
  deps: Pick<LocalPaymentDeps, 'config' | 'outbox'> & { now: Date },
): Promise<SettleResult> {
  const paymentKey = await attemptPaymentKey(tx, registration);
  const result = await settlePendingPayment(
    tx,
    paymentKey,
    localFailure(AMOUNT_MISMATCH, registration.id, registration.locale),
    { method: 'local', customerRef: null, paymentMethodRef: null },
    { billing: deps.config, outbox: deps.outbox, now: deps.now },
  );
  if (!result.settled) return result;
  const payment = await lockPaymentByKey(tx, paymentKey);
  if (!payment) return result;
  await updatePayment(tx, payment.id, {
    state: 'succeeded',
    failureCode: null,
    ...(paid.amount !== null && { amount: paid.amount, currency: paid.currency.toUpperCase() }),
  });
  await markRefundOwed(tx, payment.id, 'amount_mismatch', deps.now);
  return result;
}

/**
 * Books a local payment's definite answer in the caller's transaction, by its attempt's payment key: paid completes
 * the sign-up (or restarts the subscription), ended fails the attempt with its reason, another amount fails it and
 * owes the money back. Nothing for an attempt settled already (a replay, a late notification).
 */
export async function settleLocalAnswer(
  tx: DatabaseExecutor,
  registration: RegistrationRow,
  answer: LocalAnswer,
  deps: Pick<LocalPaymentDeps, 'config' | 'outbox'> & { now: Date },
): Promise<SettleResult> {
  if (answer.kind === 'mismatch') return settleMismatch(tx, registration, answer, deps);
  const providerRef = registration.id;
  const outcome =
    answer.kind === 'paid' ? PAID(providerRef) : localFailure(answer.code, providerRef, registration.locale);
  return settlePendingPayment(
    tx,
    await attemptPaymentKey(tx, registration),
    outcome,
    {
      method: 'local',
      customerRef: null,
      paymentMethodRef: registration.provider === 'sandbox' ? SANDBOX_LOCAL_METHOD : null,
    },
    { billing: deps.config, outbox: deps.outbox, now: deps.now },
  );
}

/** Books `answer` for the attempt in its own transaction; true when it changed the attempt. */
async function book(
  deps: LocalPaymentDeps,
  registration: RegistrationRow,
  answer: LocalAnswer,
  at: Date,
): Promise<boolean> {
  const result = await deps.db.transaction((tx) => settleLocalAnswer(tx, registration, answer, { ...deps, now: at }));
  deps.outbox.kick();
  return result.settled;
}

/**
 * Midtrans reports the order refunded, in full or in part: by our own refund, or by hand in its dashboard. An attempt
 * that still waits (the settlement's notification has not come, or comes later) was paid first: it is booked as the
 * settlement would have booked it (paid, or paid with another amount), then the refund is recorded on its payment as
 * any provider's refund is (payment-reversals.ts): the amount refunded only grows, and a full refund of the payment of
 * the current period ends the subscription, as a refund in Stripe's or PayPal's dashboard does. A refund in full of a
 * payment owed back that only the operator returns is no longer owed. `refunded` null (a part, not saying how much):
 * only the payment is booked. Replays change nothing.
 */
export async function settleLocalRefund(
  tx: DatabaseExecutor,
  registration: RegistrationRow,
  row: Pick<LocalPaymentRow, 'amount' | 'currency'>,
  status: LocalStatus & { state: { kind: 'refunded' } },
  deps: Pick<LocalPaymentDeps, 'config' | 'outbox'> & { now: Date },
): Promise<SettleResult> {
  // A completed sign-up's row names its account as a restart's does: the key is the one its payment was booked with.
  const paymentKey = (await paymentByKey(tx, firstDayKey(registration.id)))
    ? firstDayKey(registration.id)
    : restartKey(registration.id);
  const payment = await paymentByKey(tx, paymentKey);
  if (!payment) return { settled: false, missing: true };
  const booked: SettleResult =
    payment.state === 'pending'
      ? await settleLocalAnswer(
          tx,
          registration,
          paidAsAsked(row, status)
            ? { kind: 'paid' }
            : { kind: 'mismatch', amount: status.amount, currency: status.currency },
          deps,
        )
      : { settled: false };
  if (booked.settled === false && booked.missing) return booked;
  const refunded = status.state.refunded;
  if (refunded === null) return booked;
  const result = await recordRefund(tx, deps.outbox, { paymentKey }, { total: refunded }, deps.now);
  if (result.recorded && result.state === 'refunded') await settleOwedRefundedElsewhere(tx, paymentKey);
  return booked;
}

/**
 * Whether the gateway's amount and currency are the ones asked: a payment of another amount never counts (a
 * tampered or mistaken order); its attempt ends and the money is owed back (settleMismatch).
 */
export function paidAsAsked(
  row: Pick<LocalPaymentRow, 'amount' | 'currency'>,
  status: { amount: number | null; currency: string },
): boolean {
  return status.amount === row.amount && status.currency.toUpperCase() === row.currency.toUpperCase();
}

/**
 * What a payment the gateway reports paid books: paid as asked, or paid with another amount or currency (logged as
 * an error: the attempt ends and the money is owed back).
 */
export function paidAnswer(
  row: Pick<LocalPaymentRow, 'amount' | 'currency'>,
  status: { amount: number | null; currency: string },
  log: Logger,
  registrationId: string,
): Extract<LocalAnswer, { kind: 'paid' | 'mismatch' }> {
  if (paidAsAsked(row, status)) return { kind: 'paid' };
  log.error(
    { registrationId, asked: row.amount, paid: status.amount, currency: status.currency },
    'Midtrans reports a payment of another amount than asked: the attempt ends and the money is owed back',
  );
  return { kind: 'mismatch', amount: status.amount, currency: status.currency };
}

/**
 * Asks about one waiting local payment (the reconciliation pass, and registerQuery once it has expired): paid at the
 * gateway settles it as the notification would (paid with another amount ends it, the money owed back; refunded
 * there books it paid, then the refund); ended there ends the attempt; past its expiry unpaid, it is expired
 * at the gateway (so it can no longer be paid) and the attempt fails with payment_expired. The sandbox has no
 * gateway to ask: its payment only expires. A gateway that cannot be reached leaves it waiting.
 */
export async function checkLocalPayment(
  deps: LocalPaymentDeps,
  registration: RegistrationRow,
  at: Date,
): Promise<LocalCheck> {
  const row = await findLocalPayment(deps.db, registration.id);
  if (!row) return 'waiting';
  const expired = at.getTime() >= row.expiresAt.getTime();
  const end = async (code: LocalEndCode) =>
    (await book(deps, registration, { kind: 'ended', code }, at)) ? 'ended' : 'waiting';
  if (registration.provider === 'sandbox') return expired ? end('payment_expired') : 'waiting';
  const gateway = deps.midtrans;
  if (!gateway) return 'waiting';
  try {
    let status = await gateway.status(registration.id);
    if (expired && (!status || status.state.kind === 'waiting')) {
      await gateway.expire(registration.id);
      // Paid in the last moment: Midtrans refused to expire it, and its status says so.
      status = await gateway.status(registration.id);
    }
    if (!status) return expired ? end('payment_expired') : 'waiting';
    const state = status.state;
    if (state.kind === 'paid') {
      const answer = paidAnswer(row, status, deps.log, registration.id);
      const booked = await book(deps, registration, answer, at);
      return booked ? (answer.kind === 'paid' ? 'settled' : 'ended') : 'waiting';
    }
    if (state.kind === 'ended') return end(state.code);
    if (state.kind === 'refunded') {
      const refundedState = state;
      const booked = await deps.db.transaction((tx) =>
        settleLocalRefund(tx, registration, row, { ...status, state: refundedState }, { ...deps, now: at }),
      );
      deps.outbox.kick();
      return booked.settled ? 'settled' : 'waiting';
    }
    if (expired && state.kind === 'waiting') return end('payment_expired');
    return 'waiting';
  } catch (error) {
    deps.log.warn(
      { registrationId: registration.id, message: (error as Error).message },
      'Midtrans could not be asked about a waiting payment; asked again later',
    );
    return 'waiting';
  }
}

/**
 * The sandbox's "simulate payment": marks a waiting sandbox local payment paid, as Midtrans's notification would.
 * Paid already: the same answer. Not a sandbox local payment, or unknown: 404.
 */
export async function paySandboxLocalPayment(
  deps: LocalPaymentDeps,
  registrationId: string,
  now: Date,
): Promise<{ state: RegistrationRow['state'] }> {
  const registration = await findRegistration(deps.db, registrationId);
  const row = registration?.provider === 'sandbox' ? await findLocalPayment(deps.db, registrationId) : undefined;
  if (!registration || !row) throw new HttpError(404, say('sandboxPaymentNotFound'));
  if (registration.state === 'querying') {
    if (now.getTime() >= row.expiresAt.getTime())
      await book(deps, registration, { kind: 'ended', code: 'payment_expired' }, now);
    else await book(deps, registration, { kind: 'paid' }, now);
  }
  const after = await findRegistration(deps.db, registrationId);
  return { state: after!.state };
}
