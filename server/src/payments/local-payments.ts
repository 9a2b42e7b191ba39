import { createHash } from 'node:crypto';
import type { LocalChannel } from '../db/column-values';
import { messagesOf, type Locale } from '../lib/messages';
import type { ChargeOutcome } from './processor';

// Payments the payer completes in their own app (QRIS, an e-wallet, a bank's virtual account): what is asked of the
// gateway, what it answers, and the sandbox's own version of them.

/**
 * How long a payment may wait for its payer. QRIS and the e-wallets are paid on the spot, with the phone in hand:
 * 15 minutes, as Midtrans's own default for QRIS, so a code left on a screen does not stay payable. A virtual account
 * is paid from an ATM or a bank's app, often later the same day: 24 hours, Midtrans's default for bank transfers.
 */
export const LOCAL_EXPIRY_MINUTES: Record<LocalChannel, number> = {
  qris: 15,
  gopay: 15,
  shopeepay: 15,
  bca_va: 24 * 60,
  bni_va: 24 * 60,
  bri_va: 24 * 60,
  mandiri_bill: 24 * 60,
};

export interface LocalChargeRequest {
  /** The attempt's id: Midtrans's order id, taken once. */
  orderId: string;
  channel: LocalChannel;
  /** Minor units (rupiah has none). */
  amount: number;
  currency: string;
  description: string;
  expiryMinutes: number;
}

/** What the gateway gave for the payer: the page shows it while the payment waits. */
export interface LocalCharge {
  providerRef: string;
  qrString: string | null;
  deeplinkUrl: string | null;
  /** A bank's virtual account number, or Mandiri's bill key. */
  vaNumber: string | null;
  billerCode: string | null;
}

/** Why a local payment ended without being paid (the codes registerQuery answers, in cardDecline's catalogue). */
export type LocalEndCode = 'payment_expired' | 'payment_cancelled' | 'payment_denied';

/**
 * Why an attempt ends although the gateway took money: paid with another amount or currency than asked (a tampered
 * or mistaken order). The money is owed back (billing/local-payments.ts).
 */
export const AMOUNT_MISMATCH = 'payment_amount_mismatch';

/**
 * A payment as the gateway has it now. `amount` null: the gateway's answer had none we could read. Refunded (in full
 * or in part, by us or in the gateway's dashboard): `refunded` is everything given back so far, in minor units, null
 * when the answer says a part but not how much.
 */
export interface LocalStatus {
  state:
    | { kind: 'paid' }
    | { kind: 'waiting' }
    | { kind: 'ended'; code: LocalEndCode }
    | { kind: 'refunded'; refunded: number | null };
  amount: number | null;
  currency: string;
  providerRef: string;
  paymentType: string | null;
}

/** What the payment flows ask of Midtrans (MidtransProcessor), so tests and the flows share one shape. */
export interface LocalGateway {
  charge(request: LocalChargeRequest): Promise<LocalCharge>;
  status(orderId: string): Promise<LocalStatus | null>;
  expire(orderId: string): Promise<void>;
}

const sayDecline = messagesOf('cardDecline');

/** A local payment's failure as a charge outcome, with its reason in `locale`. */
export function localFailure(
  code: LocalEndCode | typeof AMOUNT_MISMATCH | 'renews_when_paid',
  providerRef: string | null,
  locale: Locale,
): Extract<ChargeOutcome, { outcome: 'failed' }> {
  return { outcome: 'failed', providerRef, failureCode: code, failureMessage: sayDecline(code)[locale] };
}

/** Digits derived from the attempt's id: the same attempt always shows the same sandbox number. */
function digitsOf(orderId: string, length: number): string {
  const hash = createHash('sha256').update(orderId).digest();
  let digits = '';
  for (const byte of hash) {
    digits += String(byte % 10);
    if (digits.length === length) break;
  }
  return digits;
}

/** The prefix each sandbox account number starts with (made up: no bank knows them). */
const SANDBOX_VA_PREFIX: Partial<Record<LocalChannel, string>> = { bca_va: '9990', bni_va: '9880', bri_va: '9770' };

/**
 * The sandbox's answer to a local charge: no money can move, so the code and numbers say SANDBOX and pay nothing
 * anywhere; the waiting page's "simulate payment" button settles it. The QR string is a readable text, not a QRIS
 * payload, so no banking app would take it for a real one. No deep link: it would open a real e-wallet app.
 */
export function sandboxLocalCharge(request: LocalChargeRequest): LocalCharge {
  const { channel, orderId } = request;
  const qr = channel === 'qris' || channel === 'gopay' || channel === 'shopeepay';
  return {
    providerRef: orderId,
    qrString: qr ? `KABARI SANDBOX ${channel.toUpperCase()} ${orderId} ${request.amount} ${request.currency}` : null,
    deeplinkUrl: null,
    vaNumber: qr
      ? null
      : channel === 'mandiri_bill'
        ? digitsOf(orderId, 12)
        : `${SANDBOX_VA_PREFIX[channel]}${digitsOf(orderId, 12)}`,
    billerCode: channel === 'mandiri_bill' ? '70012' : null,
  };
}
