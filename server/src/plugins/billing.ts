import fp from 'fastify-plugin';
import type { Config } from '../config';
import type * as MidtransModule from '../payments/midtrans';
import type * as PaypalModule from '../payments/paypal';
import type * as StripeModule from '../payments/stripe';
import { paypalTakes } from '../payments/paypal-outcomes';
import { processorsOf } from '../payments/processors';
import { stripeAmount } from '../payments/stripe-outcomes';
import { runRenewals } from '../billing/renewals';
import { reconcileRenewals } from '../billing/renewal-reconciliation';
import type { ReconciliationDeps } from '../billing/reconciliation';
import { reconcileSignUps } from '../billing/sign-up-reconciliation';
import type { BillingConfig } from '../billing/billing-config';
import { BillingClock, addDays } from '../billing/clock';
import { toMajor } from '@kabari/rules/money';
import { refundOwedFor } from '../billing/refunds-owed';
import type { Billing, PaymentMethods, PaymentTerms } from '../billing/billing-services';
import { LOCAL_CHANNELS } from '../db/column-values';

declare module 'fastify' {
  interface FastifyInstance {
    billing: Billing;
  }
}

/**
 * Which processor takes which method for a price in `currency`. The sandbox, when on, takes all three (it is never
 * on beside a real provider: real and pretend payments must not mix). Otherwise a method whose provider is missing,
 * or does not take the currency (PayPal and rupiah), is null; with no provider at all, every method is null:
 * payments are not configured.
 */
export function paymentMethods(config: BillingConfig, currency: string): PaymentMethods {
  // QRIS, the e-wallets and the virtual accounts take rupiah only.
  const rupiah = currency === 'IDR';
  if (config.sandbox)
    return { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox', local: rupiah ? 'sandbox' : null };
  return {
    card: config.stripe ? 'stripe' : null,
    wallet: config.stripe ? 'stripe' : null,
    paypal: config.paypal && paypalTakes(currency) ? 'paypal' : null,
    local: config.midtrans && rupiah ? 'midtrans' : null,
  };
}

export default fp(
  async (app, options: { config: Config }) => {
    const config = options.config.billing;
    const clock = new BillingClock();
    const sandbox = config.sandbox;
    const configured = sandbox || !!config.stripe || !!config.paypal || !!config.midtrans;
    if (config.paypal) {
      for (const [locale, price] of Object.entries(config.prices)) {
        if (!paypalTakes(price.currency)) {
          app.log.warn(
            `PayPal does not take ${price.currency}: the ${locale} price (PRICE_${locale.toUpperCase()}_CURRENCY) is offered without PayPal`,
          );
        }
      }
    }

    // A provider's SDK loads only when it is configured: each takes a few hundred milliseconds to load, and a
    // server with the sandbox (or with only one of them) never calls the other.
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded lazily, see above */
    const stripe = config.stripe
      ? new (require('../payments/stripe') as typeof StripeModule).StripeProcessor(config.stripe)
      : undefined;
    const paypal = config.paypal
      ? new (require('../payments/paypal') as typeof PaypalModule).PaypalProcessor(config.paypal)
      : undefined;
    const midtrans = config.midtrans
      ? new (require('../payments/midtrans') as typeof MidtransModule).MidtransProcessor(config.midtrans)
      : undefined;
    /* eslint-enable @typescript-eslint/no-require-imports */

    // Read at call time: tests swap in processors with fake HTTP clients.
    const reconciliationDeps = (): ReconciliationDeps => ({
      db: app.db,
      outbox: app.outbox,
      config,
      stripe: app.billing.stripe,
      paypal: app.billing.paypal,
      midtrans: app.billing.midtrans,
      log: app.log,
      operatorEmail: options.config.operatorEmail,
    });

    /** What a payment form shows and offers for `price`, in its currency, with the keys of the providers. */
    const paymentTerms = (
      price: { currency: string; firstDayAmount: number; amount: number },
      periodDays: number,
      nextDebitDay: Date,
    ): PaymentTerms => {
      const methods = paymentMethods(config, price.currency);
      return {
        currencyCode: price.currency,
        firstDayDebitAmount: toMajor(price.firstDayAmount, price.currency),
        amount: toMajor(price.amount, price.currency),
        period: periodDays,
        nextDebitDay: nextDebitDay.toISOString(),
        methods,
        localChannels: methods.local ? [...LOCAL_CHANNELS] : [],
        sandbox,
        paymentsConfigured: configured,
        ...(config.stripe
          ? {
              stripePublishableKey: config.stripe.publishableKey,
              stripeAmounts: {
                firstDayDebitAmount: stripeAmount(price.firstDayAmount, price.currency),
                amount: stripeAmount(price.amount, price.currency),
              },
            }
          : {}),
        ...(config.paypal ? { paypalClientId: config.paypal.clientId } : {}),
      };
    };

    app.decorate('billing', {
      config,
      stripe,
      paypal,
      midtrans,
      runRenewals(at, userId) {
        return runRenewals(
          {
            db: app.db,
            outbox: app.outbox,
            config,
            processors: processorsOf(app.billing),
            log: app.log,
            publicUrl: options.config.publicUrl,
          },
          at ?? clock.now(),
          userId,
        );
      },
      reconcileSignUps(at) {
        return reconcileSignUps(reconciliationDeps(), at ?? clock.now());
      },
      reconcileRenewals(at) {
        return reconcileRenewals(reconciliationDeps(), at ?? clock.now());
      },
      refundOwedNow(paymentKey) {
        return refundOwedFor(reconciliationDeps(), paymentKey, clock.now());
      },
      clock,
      sandbox,
      configured,
      methodsFor: (currency) => paymentMethods(config, currency),
      terms(locale) {
        const price = config.prices[locale];
        // The first-day charge covers one day; the first renewal is then due.
        return paymentTerms(price, config.periodDays, addDays(clock.now(), 1));
      },
      renewalTerms(subscription) {
        // Paying again charges a whole period of the subscription's own price, today; the next renewal follows it.
        const { currency, amount, periodDays } = subscription;
        return paymentTerms({ currency, firstDayAmount: amount, amount }, periodDays, addDays(clock.now(), periodDays));
      },
    } satisfies Billing);

    // The renewal job, then the sign-up and renewal reconciliation jobs: every RENEWAL_INTERVAL_SECONDS on every instance; row
    // locks keep them from colliding.
    if (config.renewalIntervalSeconds > 0) {
      const everyMs = config.renewalIntervalSeconds * 1000;
      app.scheduler.add('renewals', { everyMs, firstAfterMs: everyMs }, async ({ closing }) => {
        // Each pass on its own: one failing leaves the next to run.
        const renewed = await app.billing
          .runRenewals()
          .catch((error: unknown) => app.log.error({ err: error }, 'Renewal job failed'));
        if (renewed && renewed.renewed + renewed.failed + renewed.expired > 0) {
          app.log.info({ report: renewed }, 'Renewal job pass');
        }
        for (const [pass, reconcile] of [
          ['Sign-up reconciliation', app.billing.reconcileSignUps],
          ['Renewal reconciliation', app.billing.reconcileRenewals],
        ] as const) {
          if (closing()) return;
          const report = await reconcile().catch((error: unknown) => app.log.error({ err: error }, `${pass} failed`));
          if (report && report.checked + report.refunded + report.refundsFailed > 0) {
            app.log.info({ report }, `${pass} pass`);
          }
        }
      });
    }
  },
  { name: 'billing', dependencies: ['database', 'outbox', 'scheduler'] },
);
