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

/** Charges a saved payment method without the customer present (renewals). */
export interface RenewalCharger {
  provider: PaymentProvider;
  chargeSaved(request: SavedChargeRequest): Promise<ChargeOutcome>;
}
