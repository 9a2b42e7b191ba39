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
