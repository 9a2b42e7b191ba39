// Each payment provider's keys, as the environment gives them (billing/billing-config.ts reads and checks them).

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

export interface PaypalSettings {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  environment: 'sandbox' | 'production';
}

export interface MidtransSettings {
  serverKey: string;
  environment: 'sandbox' | 'production';
  /** The merchant's name as Midtrans registered it: payers see it in their app, so the page shows it by the QR. */
  merchantName: string;
  /** Tests only: the local fake of Midtrans's API instead of api(.sandbox).midtrans.com (refused with PUBLIC_URL). */
  apiUrl: string | undefined;
}
