import type { RenderedEmail } from '../messages/templates';
import { longDate, messagesIn, type Locale } from '../lib/messages';
import { formatMoney, toMajor } from '@kabari/rules/money';
import { emailHtml, linkHtml, paragraphHtml, SIGNATURE } from '../messages/email-document';

/** Paragraphs, then a link where given (its text, then the address), then the signature; as text and as HTML. */
function render(
  locale: Locale,
  subject: string,
  paragraphs: string[],
  link?: { text: string; url: string },
): RenderedEmail {
  const blocks = link ? [...paragraphs, `${link.text}\n${link.url}`] : paragraphs;
  const text = [...blocks, '', SIGNATURE].join('\n\n');
  const html = paragraphs.map(paragraphHtml).join('\n') + (link ? `\n${linkHtml(link)}` : '');
  return { subject, text, html: emailHtml(locale, html) };
}

/** A billing email's text in the subscriber's language (server/src/i18n, section billingEmail). */
const text = messagesIn('billingEmail');

const hello = (locale: Locale, name: string) => text(locale, 'hello', { name });

/** An amount in minor units, written as the subscriber's pages write it. */
const money = (minor: number, currency: string, locale: Locale) =>
  formatMoney(toMajor(minor, currency), currency, locale);

export interface ChargeFacts {
  displayName: string;
  amount: number;
  currency: string;
  kind: 'first_day' | 'renewal';
  paidAt: Date;
  paymentId: string;
  method: string;
  validUntil: Date;
  nextAmount: number;
  sandbox: boolean;
  /** The account's password was not chosen at sign-up: say how to set it. */
  needsPassword?: boolean;
  /** Paid with QRIS, an e-wallet or a transfer: nothing renews it, its owner pays for the next period. */
  renewsWhenPaid?: boolean;
}

/** The receipt for every successful charge. */
export function receiptEmail(locale: Locale, facts: ChargeFacts): RenderedEmail {
  const paid = money(facts.amount, facts.currency, locale);
  return render(locale, text(locale, 'receiptSubject', { paid }), [
    hello(locale, facts.displayName),
    text(locale, facts.kind === 'first_day' ? 'receiptFirstDay' : 'receiptRenewal', { paid }),
    text(locale, 'receiptDetails', {
      date: longDate(facts.paidAt, locale),
      method: facts.method,
      paymentId: facts.paymentId,
    }),
    text(locale, facts.renewsWhenPaid ? 'receiptPaidUntilPay' : 'receiptPaidUntil', {
      until: longDate(facts.validUntil, locale),
      next: money(facts.nextAmount, facts.currency, locale),
    }),
    text(locale, 'howToCancel'),
    ...(facts.needsPassword ? [text(locale, 'receiptSetPassword')] : []),
    ...(facts.sandbox ? [text(locale, 'sandboxNote')] : []),
  ]);
}

/** Sent before each renewal; `byHand`: nothing is charged automatically (PayPal without a saved account). */
export function renewalReminderEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; renewsAt: Date; byHand?: boolean },
): RenderedEmail {
  const amount = money(facts.amount, facts.currency, locale);
  const date = longDate(facts.renewsAt, locale);
  if (facts.byHand) {
    return render(locale, text(locale, 'byHandEndsSubject', { date }), [
      hello(locale, facts.displayName),
      text(locale, 'byHandEndsPaypal', { date }),
      text(locale, 'byHandEndsHowTo', { amount }),
    ]);
  }
  return render(locale, text(locale, 'reminderSubject', { date }), [
    hello(locale, facts.displayName),
    text(locale, 'reminderCharge', { date, amount }),
    text(locale, 'reminderCancel', { howToCancel: text(locale, 'howToCancel') }),
  ]);
}

/**
 * A subscription paid with QRIS, an e-wallet or a transfer ends on `endsAt` unless its owner pays: sent 7 days, then
 * 1 day before, with the link to the payment choices. `last`: the second reminder of the period.
 */
export function payReminderEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; endsAt: Date; last: boolean; payUrl: string },
): RenderedEmail {
  const amount = money(facts.amount, facts.currency, locale);
  const date = longDate(facts.endsAt, locale);
  const subject = text(locale, facts.last ? 'payReminderLastSubject' : 'payReminderSubject', { date });
  return render(
    locale,
    subject,
    [
      hello(locale, facts.displayName),
      text(locale, 'payReminderWhy', { date }),
      text(locale, 'payReminderHowTo', { amount }),
    ],
    { text: text(locale, 'payReminderLink'), url: facts.payUrl },
  );
}

/** A PayPal subscription PayPal did not save for renewals has reached its end: nothing was charged. */
export function renewByHandEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string },
): RenderedEmail {
  return render(locale, text(locale, 'renewByHandSubject'), [
    hello(locale, facts.displayName),
    text(locale, 'renewByHandWhy'),
    text(locale, 'renewByHandHowTo', { amount: money(facts.amount, facts.currency, locale) }),
  ]);
}

/**
 * A subscription paid in the sandbox reached its end after the sandbox was turned off: it was not renewed and
 * nothing was charged.
 */
export function sandboxEndedEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string },
): RenderedEmail {
  return render(locale, text(locale, 'sandboxEndedSubject'), [
    hello(locale, facts.displayName),
    text(locale, 'sandboxEndedWhy'),
    text(locale, 'sandboxEndedHowTo', { amount: money(facts.amount, facts.currency, locale) }),
  ]);
}

/** A renewal charge failed: the subscription has ended. */
export function renewalFailedEmail(
  locale: Locale,
  facts: {
    displayName: string;
    amount: number;
    currency: string;
    reason: string;
    /**
     * The provider never confirmed the charge either way (the reconciliation job's long limit): we cannot say
     * nothing was charged, and if it does go through later the period is renewed after all.
     */
    unconfirmed?: boolean;
  },
): RenderedEmail {
  return render(locale, text(locale, 'renewalFailedSubject'), [
    hello(locale, facts.displayName),
    text(locale, 'renewalFailedWhy', {
      amount: money(facts.amount, facts.currency, locale),
      reason: facts.reason,
    }),
    text(locale, facts.unconfirmed ? 'renewalFailedUnconfirmed' : 'renewalFailedNothingCharged'),
  ]);
}

/**
 * A charge that paid the current period was refunded in full, or any charge was disputed: the subscription has
 * ended at once and nothing more will be charged.
 */
export function reversalEndedEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; paidAt: Date; reason: 'refunded' | 'disputed' },
): RenderedEmail {
  const params = { amount: money(facts.amount, facts.currency, locale), date: longDate(facts.paidAt, locale) };
  return render(locale, text(locale, 'reversalSubject'), [
    hello(locale, facts.displayName),
    text(locale, facts.reason === 'refunded' ? 'reversalRefunded' : 'reversalDisputed', params),
    text(locale, 'reversalNothingMore'),
  ]);
}

/** The operator won the dispute of a charge: the subscription the dispute ended is back as it was. */
export function disputeWonEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; paidAt: Date; validUntil: Date; renews: boolean },
): RenderedEmail {
  return render(locale, text(locale, 'disputeWonSubject'), [
    hello(locale, facts.displayName),
    text(locale, 'disputeWonDecided', {
      amount: money(facts.amount, facts.currency, locale),
      date: longDate(facts.paidAt, locale),
    }),
    text(locale, facts.renews ? 'disputeWonRenews' : 'disputeWonCancelled', {
      until: longDate(facts.validUntil, locale),
    }),
  ]);
}

/**
 * A renewal charge the provider confirmed only after its period had moved on (the subscription had expired
 * unconfirmed and was paid again by hand): nothing was given for it, so it was refunded in full.
 */
export function lateChargeRefundedEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; chargedAt: Date },
): RenderedEmail {
  const amount = money(facts.amount, facts.currency, locale);
  return render(locale, text(locale, 'lateChargeSubject', { amount }), [
    hello(locale, facts.displayName),
    text(locale, 'lateChargeWhy', { amount, date: longDate(facts.chargedAt, locale) }),
    text(locale, 'refundedInFull'),
    text(locale, 'lateChargeNotAffected'),
  ]);
}

/**
 * A renewal by hand booked after the subscription had been renewed meanwhile (a late renewal charge, or another
 * attempt, paid the period first): the second payment bought nothing, so it was refunded in full.
 */
export function duplicatePaymentRefundedEmail(
  locale: Locale,
  facts: { displayName: string; amount: number; currency: string; chargedAt: Date },
): RenderedEmail {
  const amount = money(facts.amount, facts.currency, locale);
  return render(locale, text(locale, 'duplicateSubject', { amount }), [
    hello(locale, facts.displayName),
    text(locale, 'duplicateWhy', { amount, date: longDate(facts.chargedAt, locale) }),
    text(locale, 'refundedInFull'),
    text(locale, 'duplicateNotAffected'),
  ]);
}

/**
 * To the operator (English): a refund we owe that the provider refused for good, to be made by hand in the
 * provider's dashboard. What identifies the payment and the refusal only: no name or address of the payer.
 */
export function refundRefusedOperatorEmail(facts: {
  paymentId: string;
  provider: string;
  providerRef: string | null;
  amount: number;
  currency: string;
  reason: string | null;
  code: string;
}): RenderedEmail {
  const amount = money(facts.amount, facts.currency, 'en');
  return render('en', `Kabari: a refund of ${amount} needs to be made by hand`, [
    `The payment provider refused a refund Kabari owes, and it will not be tried again. Please refund it by hand in the ${facts.provider} dashboard, or contact the payer.`,
    `Payment: ${facts.paymentId} · Provider: ${facts.provider} · Provider reference: ${facts.providerRef ?? 'none'}`,
    `Amount: ${amount} · Why it is owed: ${facts.reason ?? 'unknown'} · Provider's error: ${facts.code}`,
    'The payment stays recorded as succeeded; the subscriber was not told it was refunded.',
  ]);
}

export function cancelledEmail(locale: Locale, facts: { displayName: string; validUntil: Date }): RenderedEmail {
  return render(locale, text(locale, 'cancelledSubject'), [
    hello(locale, facts.displayName),
    text(locale, 'cancelledUntil', { date: longDate(facts.validUntil, locale) }),
  ]);
}

export function billingCodeEmail(
  locale: Locale,
  purpose: 'refund_request' | 'delete_account',
  code: string,
): RenderedEmail {
  return render(locale, text(locale, 'codeSubject'), [
    text(locale, 'codeIs', { code }),
    text(locale, purpose === 'refund_request' ? 'codeUseRefund' : 'codeUseDelete'),
    text(locale, 'codeNotAsked'),
  ]);
}

export function refundRequestEmail(
  locale: Locale,
  facts: { requestId: string; cancelled: boolean; validUntil: Date | null },
): RenderedEmail {
  return render(locale, text(locale, 'refundRequestSubject'), [
    text(locale, 'helloNoName'),
    text(locale, 'refundRequestReceived', { requestId: facts.requestId }),
    facts.cancelled && facts.validUntil
      ? text(locale, 'refundRequestCancelled', { date: longDate(facts.validUntil, locale) })
      : text(locale, 'refundRequestNoSubscription'),
  ]);
}

export function accountDeletedEmail(locale: Locale, displayName: string): RenderedEmail {
  return render(locale, text(locale, 'accountDeletedSubject'), [
    hello(locale, displayName),
    text(locale, 'accountDeletedBody'),
  ]);
}

export function methodLabel(
  locale: Locale,
  payment: { provider: string; cardBrand: string | null; cardLast4: string | null; method?: string | null },
): string {
  // "Sandbox" is the word the Indonesian pages use as well.
  const sandbox = payment.provider === 'sandbox' ? ' (sandbox)' : '';
  if (payment.cardLast4) return `${payment.cardBrand ?? text(locale, 'card')} •••• ${payment.cardLast4}${sandbox}`;
  if (payment.method === 'paypal' || payment.provider === 'paypal') return `PayPal${sandbox}`;
  if (payment.method === 'wallet') return `${text(locale, 'wallet')}${sandbox}`;
  if (payment.method === 'local' || payment.provider === 'midtrans') return `${text(locale, 'localPayment')}${sandbox}`;
  return `${payment.provider}${sandbox}`;
}
