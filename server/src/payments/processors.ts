import type { PaymentProvider } from '../db/column-values';
import type { PaymentProcessor } from './processor';
import { sandboxProcessor } from './sandbox-processor';

export type PaymentProcessors = Partial<Record<PaymentProvider, PaymentProcessor>>;

/**
 * The processors this instance has: the sandbox only while it is on, Stripe, PayPal and Midtrans when configured.
 * A subscription the sandbox took before it was turned off then finds no processor: nothing renews it for free,
 * and nothing refunds or forgets through it.
 */
export function processorsOf(configured: {
  sandbox: boolean;
  stripe: PaymentProcessor | undefined;
  paypal: PaymentProcessor | undefined;
  midtrans?: PaymentProcessor | undefined;
}): PaymentProcessors {
  // Set one by one: spreading conditional literals takes V8's slow path, and subscribe/info asks for this on every
  // protected navigation.
  const processors: PaymentProcessors = {};
  if (configured.sandbox) processors.sandbox = sandboxProcessor;
  if (configured.stripe) processors.stripe = configured.stripe;
  if (configured.paypal) processors.paypal = configured.paypal;
  if (configured.midtrans) processors.midtrans = configured.midtrans;
  return processors;
}
