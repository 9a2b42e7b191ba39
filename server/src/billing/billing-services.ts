import type { LocalChannel } from '../db/column-values';
import type { MidtransProcessor } from '../payments/midtrans';
import type { PaypalProcessor } from '../payments/paypal';
import type { StripeProcessor } from '../payments/stripe';
import type { Locale } from '../lib/messages';
import type { BillingConfig } from './billing-config';
import type { BillingClock } from './clock';
import type { RenewalReport } from './renewals';
import type { RenewalReconciliationReport } from './renewal-reconciliation';
import type { ReconciliationReport } from './sign-up-reconciliation';
import type { RefundAttempt } from './refunds-owed';
import type { Subscription } from './subscription-rows';

// What the server holds for payments (the billing plugin builds it at start); the rules take the part they use.

export interface PaymentMethods {
  card: 'stripe' | 'sandbox' | null;
  wallet: 'stripe' | 'sandbox' | null;
  paypal: 'paypal' | 'sandbox' | null;
  /** QRIS, e-wallets and virtual accounts: only for a price in rupiah. */
  local: 'midtrans' | 'sandbox' | null;
}

export interface PaymentTerms {
  currencyCode: string;
  firstDayDebitAmount: number;
  amount: number;
  period: number;
  nextDebitDay: string;
  methods: PaymentMethods;
  /** The local channels offered, in the order the payment step shows them; empty when methods.local is null. */
  localChannels: LocalChannel[];
  sandbox: boolean;
  /** false: no processor at all; the payment form says so and asks for nothing. */
  paymentsConfigured: boolean;
  stripePublishableKey?: string;
  /** The first day's charge and a renewal's as Stripe counts them, for the wallet's sheet: with the Stripe key. */
  stripeAmounts?: { firstDayDebitAmount: number; amount: number };
  paypalClientId?: string;
}

export interface Billing {
  config: BillingConfig;
  clock: BillingClock;
  /** The sandbox processor takes every payment (see BillingConfig.sandbox). */
  sandbox: boolean;
  /** Some processor takes payments: the sandbox, Stripe or PayPal. */
  configured: boolean;
  /** Which processor takes each method for a price in `currency`. */
  methodsFor(currency: string): PaymentMethods;
  /** A new subscriber's terms: the price for the page's language. */
  terms(locale: Locale): PaymentTerms;
  /** An expired subscriber's terms for paying again: the subscription's own price and currency. */
  renewalTerms(subscription: Pick<Subscription, 'currency' | 'amount' | 'periodDays'>): PaymentTerms;
  /** Stripe when configured (tests may swap in one with a fake HTTP client). */
  stripe: StripeProcessor | undefined;
  /** PayPal when configured (tests may swap in one pointed at a fake PayPal API). */
  paypal: PaypalProcessor | undefined;
  /** Midtrans when configured (tests point it at a local fake of its API). */
  midtrans: MidtransProcessor | undefined;
  /** One pass of the renewal job at `at` (default: the billing clock), optionally for one user only. */
  runRenewals(at?: Date, userId?: string): Promise<RenewalReport>;
  /** One pass of the sign-up reconciliation job at `at` (default: the billing clock): late webhooks. */
  reconcileSignUps(at?: Date): Promise<ReconciliationReport>;
  /** One pass of the renewal reconciliation job at `at`: scheduled renewals left pending by their provider. */
  reconcileRenewals(at?: Date): Promise<RenewalReconciliationReport>;
  /**
   * The refund owed on the payment with this key, if any, tried now: right after the transaction that marked it
   * (a sign-up for a taken email, a duplicate renewal by hand, a webhook). A failure stays owed for the passes.
   */
  refundOwedNow(paymentKey: string): Promise<RefundAttempt>;
}
