import type { PaymentProvider } from '../db/column-values';
import type { PaymentProcessor } from './processor';
import { sandboxProcessor } from './sandbox-processor';

export type PaymentProcessors = Partial<Record<PaymentProvider, PaymentProcessor>>;

/** The processors this instance has: the sandbox always, Stripe and PayPal when they are configured. */
export function processorsOf(configured: {
  stripe: PaymentProcessor | undefined;
  paypal: PaymentProcessor | undefined;
}): PaymentProcessors {
  return {
    sandbox: sandboxProcessor,
    ...(configured.stripe ? { stripe: configured.stripe } : {}),
    ...(configured.paypal ? { paypal: configured.paypal } : {}),
  };
}
