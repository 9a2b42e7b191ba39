import Stripe from 'stripe';
import { PaypalProcessor } from '../../src/payments/paypal';
import { processorsOf } from '../../src/payments/processors';
import { RefundRefused } from '../../src/payments/refund-refused';
import { sandboxProcessor } from '../../src/payments/sandbox-processor';
import { StripeProcessor } from '../../src/payments/stripe';

/** A fetch that fails the test if a provider is called: none of these cases may reach one. */
const noNetwork = (() => {
  throw new Error('no provider may be called');
}) as unknown as typeof fetch;

const stripe = new StripeProcessor(
  { secretKey: 'sk_test_kabari', publishableKey: 'pk_test_kabari', webhookSecret: 'whsec_kabari' },
  // The SDK's fetch client, on the fetch that refuses.
  Stripe.createFetchHttpClient(noNetwork),
);
const paypal = new PaypalProcessor(
  { clientId: 'kabari-client', clientSecret: 'kabari-secret', webhookId: 'WH-KABARI', environment: 'sandbox' },
  noNetwork,
);

describe('the payment processors, after the first payment', () => {
  it('lists the sandbox only while it is on, and Stripe and PayPal only when configured', () => {
    expect(Object.keys(processorsOf({ sandbox: true, stripe: undefined, paypal: undefined }))).toEqual(['sandbox']);
    expect(processorsOf({ sandbox: false, stripe: undefined, paypal: undefined })).toEqual({});
    expect(processorsOf({ sandbox: false, stripe, paypal })).toEqual({ stripe, paypal });
  });

  it('refuses for good a refund with no payment to refund by, without asking the provider', async () => {
    for (const processor of [stripe, paypal]) {
      const refused = processor.refund(null, 'refund:key');
      await expect(refused).rejects.toBeInstanceOf(RefundRefused);
      await expect(refused).rejects.toMatchObject({ code: 'no_provider_reference' });
    }
  });

  it('forgets nothing at the provider when the subscription kept nothing there', async () => {
    for (const processor of [stripe, paypal, sandboxProcessor]) {
      await expect(
        processor.forgetSavedCustomer({ customerRef: null, paymentMethodRef: null }),
      ).resolves.toBeUndefined();
    }
  });

  it('has nothing to give back or forget in the sandbox: no money moved, nothing was kept elsewhere', async () => {
    await expect(sandboxProcessor.refund('sandbox_1', 'refund:key')).resolves.toBeUndefined();
    await expect(
      sandboxProcessor.forgetSavedCustomer({ customerRef: null, paymentMethodRef: 'sandbox:card:ok:visa:4242' }),
    ).resolves.toBeUndefined();
  });
});
