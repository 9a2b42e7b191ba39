import type { Order } from '@paypal/paypal-server-sdk';
import type { PaypalSettings } from './provider-settings';
import { minorDigits } from '@kabari/rules/money';
import type { ChargeOutcome } from './processor';

// What PayPal's answers mean for us, apart from the SDK itself: the reconciliation jobs read these, and only a
// configured PayPal loads the SDK (see plugins/billing.ts).

/**
 * The currencies PayPal takes payments in (https://developer.paypal.com/api/rest/reference/currency-codes/). Rupiah
 * is not one of them: a price in IDR is offered without PayPal.
 */
const PAYPAL_CURRENCIES: ReadonlySet<string> = new Set([
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'ILS',
  'JPY',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PHP',
  'PLN',
  'SEK',
  'SGD',
  'THB',
  'TWD',
  'USD',
]);

export const paypalTakes = (currency: string): boolean => PAYPAL_CURRENCIES.has(currency);

/** Where the SDK sends its calls (it has no setting for another host; tests pass a fetch that redirects). */
export function paypalApiBase(environment: PaypalSettings['environment']): string {
  return environment === 'production' ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com';
}

/** Our minor units → PayPal's decimal string (PayPal uses the ISO number of decimals, as we do). */
export function paypalAmount(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}

export interface PaypalCapture {
  outcome: ChargeOutcome;
  /** PayPal's customer id for the saved (vaulted) PayPal account, when PayPal vaulted it. */
  customerRef: string | null;
  /** The vault's payment token: what renewals charge. Null when PayPal did not vault (the merchant is not enabled). */
  paymentMethodRef: string | null;
}

/** PayPal's answer to a capture or a vaulted order, as our outcome. */
export function orderOutcome(order: Order): ChargeOutcome {
  const capture = order.purchaseUnits?.[0]?.payments?.captures?.[0];
  const ref = capture?.id ?? order.id ?? 'unknown';
  if (capture?.status === 'COMPLETED') {
    return { outcome: 'succeeded', providerRef: ref, cardBrand: null, cardLast4: null };
  }
  if (capture?.status === 'PENDING' || (!capture && order.status !== 'VOIDED')) {
    return { outcome: 'pending', providerRef: ref };
  }
  return {
    outcome: 'failed',
    providerRef: ref,
    failureCode: capture?.statusDetails?.reason ?? capture?.status ?? order.status ?? 'DECLINED',
    failureMessage: 'PayPal declined the payment.',
  };
}

export function vaultOf(order: Order): { customerRef: string | null; paymentMethodRef: string | null } {
  const vault = order.paymentSource?.paypal?.attributes?.vault;
  const saved = vault?.status === 'VAULTED' && vault.id;
  return { customerRef: saved ? (vault.customer?.id ?? null) : null, paymentMethodRef: saved ? vault.id! : null };
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;
