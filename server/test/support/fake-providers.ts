import { PaypalProcessor } from '../../src/payments/paypal';
import { StripeProcessor } from '../../src/payments/stripe';
import type { FakePaypal } from './fake-paypal';
import {
  fakeStripeApi,
  type IntentStatus,
  type RecordedStripeCall,
  type RetrievedStatus,
  type StripeRefundAnswer,
} from './fake-stripe';
import type { TestApp } from './test-app';

/** Both providers configured, the jobs left to the test (it runs their passes itself). */
export const FAKE_PROVIDERS_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_kabari',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_kabari',
  STRIPE_WEBHOOK_SECRET: 'whsec_kabari_test',
  PAYPAL_CLIENT_ID: 'kabari-client',
  PAYPAL_CLIENT_SECRET: 'kabari-secret',
  PAYPAL_WEBHOOK_ID: 'WH-KABARI',
  RENEWAL_INTERVAL_SECONDS: '0',
};

/**
 * Points a test app's Stripe and PayPal at the fakes: Stripe records its calls in `stripeCalls` and answers with
 * the statuses the getters give at call time; PayPal is the (started) fake's HTTP API.
 */
export function connectFakeProviders(
  testApp: TestApp,
  fakes: {
    stripeCalls: RecordedStripeCall[];
    created: () => IntentStatus;
    retrieved: () => RetrievedStatus;
    paypal: FakePaypal;
    refund?: () => StripeRefundAnswer;
  },
): void {
  const billing = testApp.app.billing;
  const stripe = new StripeProcessor(
    testApp.config.billing.stripe!,
    fakeStripeApi(fakes.stripeCalls, fakes.created, { retrieved: fakes.retrieved, refund: fakes.refund }),
  );
  billing.stripe = stripe;
  const paypal = new PaypalProcessor(testApp.config.billing.paypal!, fakes.paypal.fetch);
  billing.paypal = paypal;
}
