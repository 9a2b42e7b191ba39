import type Stripe from 'stripe';
import { minorDigits, stripeDigits } from '@kabari/rules/money';
import type { ChargeOutcome } from './processor';

// What Stripe's answers mean for us, apart from the SDK itself: the webhooks and the reconciliation jobs read
// these, and only a configured Stripe loads the SDK (see plugins/billing.ts).

/** Our minor units → Stripe's (Stripe counts rupiah in hundredths, Kabari in whole rupiah). */
export function stripeAmount(amount: number, currency: string): number {
  return amount * 10 ** Math.max(0, stripeDigits(currency) - minorDigits(currency));
}

export interface StripeFirstCharge {
  outcome: ChargeOutcome;
  paymentIntentId: string | null;
  clientSecret: string | null;
  requiresAction: boolean;
  customerRef: string | null;
  paymentMethodRef: string | null;
}

function cardOf(intent: Stripe.PaymentIntent): { brand: string | null; last4: string | null } {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  return { brand: card?.brand ?? null, last4: card?.last4 ?? null };
}

/** The id of an expandable Stripe field (a string, or the expanded object). */
export function refOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** What a PaymentIntent's state means for us. */
export function intentOutcome(intent: Stripe.PaymentIntent): ChargeOutcome {
  if (intent.status === 'succeeded') {
    const card = cardOf(intent);
    return { outcome: 'succeeded', providerRef: intent.id, cardBrand: card.brand, cardLast4: card.last4 };
  }
  if (intent.status === 'canceled' || intent.status === 'requires_payment_method') {
    const error = intent.last_payment_error;
    return {
      outcome: 'failed',
      providerRef: intent.id,
      failureCode: error?.decline_code ?? error?.code ?? 'payment_failed',
      failureMessage: error?.message ?? 'The payment did not go through. Please use another payment method.',
    };
  }
  return { outcome: 'pending', providerRef: intent.id };
}
