import type { PaymentProvider } from '../db/column-values';

/** What a provider said about one charge. Never card data beyond brand and last four. */
export type ChargeOutcome =
  | { outcome: 'succeeded'; providerRef: string; cardBrand: string | null; cardLast4: string | null }
  | { outcome: 'failed'; providerRef: string | null; failureCode: string; failureMessage: string }
  /** The provider will tell us later (a webhook), or the customer must act (3-D Secure). */
  | { outcome: 'pending'; providerRef: string };

export interface SavedChargeRequest {
  /** Sent to the provider: retrying the same period never charges twice. */
  idempotencyKey: string;
  amount: number;
  currency: string;
  customerRef: string | null;
  paymentMethodRef: string;
  description: string;
  locale: 'en' | 'id';
}

/** What a subscription keeps of its customer at the provider. */
export interface SavedCustomer {
  customerRef: string | null;
  paymentMethodRef: string | null;
}

/**
 * What Kabari asks of a payment provider once the customer has paid, the same for every provider: charge the saved
 * method for a renewal, give a payment back, forget a deleted account's customer. (A first payment is the one
 * place the providers stay apart: the customer takes part differently in each.)
 */
export interface PaymentProcessor {
  provider: PaymentProvider;
  /** Charges a saved payment method without the customer present (renewals). */
  chargeSaved(request: SavedChargeRequest): Promise<ChargeOutcome>;
  /**
   * Gives a payment back in full (`providerRef`: the payment at the provider). A retry with the same key is the
   * same refund; RefundRefused when the provider never will (payments/refund-refused.ts).
   */
  refund(providerRef: string | null, idempotencyKey: string): Promise<void>;
  /** A deleted account's customer and saved methods go at the provider too; one it no longer knows is gone. */
  forgetSavedCustomer(saved: SavedCustomer): Promise<void>;
}
