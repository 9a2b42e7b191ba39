import Stripe from 'stripe';
import type { StripeSettings } from './provider-settings';
import type { ChargeOutcome, PaymentProcessor, SavedChargeRequest, SavedCustomer } from './processor';
import { isRefusal, RefundRefused, refusalCode } from './refund-refused';
import { intentOutcome, refOf, stripeAmount, type StripeFirstCharge } from './stripe-outcomes';

function failureFromError(error: unknown): ChargeOutcome | null {
  if (error instanceof Stripe.errors.StripeCardError) {
    const intent = (error.raw as { payment_intent?: { id?: string } }).payment_intent;
    return {
      outcome: 'failed',
      providerRef: intent?.id ?? null,
      failureCode: error.decline_code ?? error.code ?? 'card_declined',
      failureMessage: error.message,
    };
  }
  return null;
}

/** Stripe: PaymentIntents with idempotency keys, a customer with the saved payment method for renewals. */
export class StripeProcessor implements PaymentProcessor {
  readonly provider = 'stripe' as const;
  readonly client: Stripe;

  constructor(
    readonly settings: StripeSettings,
    httpClient?: ReturnType<typeof Stripe.createFetchHttpClient>,
  ) {
    this.client = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      ...(httpClient ? { httpClient } : {}),
    });
  }

  /**
   * The first-day charge: a customer, then a confirmed PaymentIntent saving the method for off-session renewals.
   * Card details never come here: `paymentMethodId` is from Stripe Elements or the payment request.
   */
  async chargeFirst(input: {
    idempotencyKey: string;
    registrationId: string;
    email: string;
    name: string;
    amount: number;
    currency: string;
    paymentMethodId: string;
    /** 'restart': an expired subscriber pays again (subscribe/renew); the webhook finds it by its payment key. */
    kind?: 'first_day' | 'restart';
    /** The subscriber's Stripe customer when there is one already (a restart). */
    customerRef?: string | null;
  }): Promise<StripeFirstCharge> {
    const kind = input.kind ?? 'first_day';
    const customer = input.customerRef
      ? { id: input.customerRef }
      : await this.client.customers.create(
          { email: input.email, name: input.name, metadata: { registrationId: input.registrationId } },
          { idempotencyKey: `customer:${input.registrationId}` },
        );
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount: stripeAmount(input.amount, input.currency),
          currency: input.currency.toLowerCase(),
          customer: customer.id,
          payment_method: input.paymentMethodId,
          confirm: true,
          setup_future_usage: 'off_session',
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description:
            kind === 'restart' ? 'Kabari subscription, renewed after expiry' : 'Kabari subscription, first day',
          metadata: { registrationId: input.registrationId, kind, idempotencyKey: input.idempotencyKey },
          expand: ['latest_charge'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const outcome = intentOutcome(intent);
      return {
        outcome,
        paymentIntentId: intent.id,
        clientSecret: intent.status === 'requires_action' ? intent.client_secret : null,
        requiresAction: intent.status === 'requires_action',
        customerRef: customer.id,
        paymentMethodRef: refOf(intent.payment_method) ?? input.paymentMethodId,
      };
    } catch (error) {
      const outcome = failureFromError(error);
      if (!outcome) throw error;
      return {
        outcome,
        paymentIntentId: outcome.providerRef,
        clientSecret: null,
        requiresAction: false,
        customerRef: customer.id,
        paymentMethodRef: null,
      };
    }
  }

  async chargeSaved(request: SavedChargeRequest): Promise<ChargeOutcome> {
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount: stripeAmount(request.amount, request.currency),
          currency: request.currency.toLowerCase(),
          ...(request.customerRef ? { customer: request.customerRef } : {}),
          payment_method: request.paymentMethodRef,
          off_session: true,
          confirm: true,
          description: request.description,
          metadata: { idempotencyKey: request.idempotencyKey, kind: 'renewal' },
          expand: ['latest_charge'],
        },
        { idempotencyKey: request.idempotencyKey },
      );
      const outcome = intentOutcome(intent);
      // Off-session, nobody can complete 3-D Secure: the renewal fails and the subscriber renews by hand.
      if (outcome.outcome === 'pending' && intent.status === 'requires_action') {
        return {
          outcome: 'failed',
          providerRef: intent.id,
          failureCode: 'authentication_required',
          failureMessage: 'Your bank asked to confirm the payment, which cannot be done automatically.',
        };
      }
      return outcome;
    } catch (error) {
      const outcome = failureFromError(error);
      if (outcome) return outcome;
      throw error;
    }
  }

  /**
   * Money taken that we did not earn (refunds-owed.ts): given back in full. A retry is the same refund (the key);
   * one made after Stripe forgot the key (24 hours) finds the charge refunded already, which is done too. A 4xx
   * about the payment (charge_expired_for_refund, a disputed charge…) is a RefundRefused; rate limits, Stripe's
   * api_error, 5xx and the network are thrown as they are, to be tried again.
   */
  async refund(paymentIntentId: string | null, idempotencyKey: string): Promise<void> {
    if (!paymentIntentId) throw new RefundRefused('no_provider_reference', undefined);
    try {
      await this.client.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded') return;
      if (
        error instanceof Stripe.errors.StripeError &&
        !(error instanceof Stripe.errors.StripeRateLimitError || error instanceof Stripe.errors.StripeAPIError) &&
        isRefusal(error.statusCode)
      ) {
        throw new RefundRefused(refusalCode(error.code ?? error.rawType, error.statusCode), error.statusCode);
      }
      throw error;
    }
  }

  /**
   * The subscriber deleted their account: the customer goes at Stripe too, and with it the saved payment
   * methods. A customer Stripe no longer knows is already forgotten.
   */
  async forgetCustomer(customerRef: string): Promise<void> {
    try {
      await this.client.customers.del(customerRef);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return;
      throw error;
    }
  }

  /** A deleted account's customer at the provider, from what its subscription kept. */
  async forgetSavedCustomer(saved: SavedCustomer): Promise<void> {
    if (saved.customerRef) await this.forgetCustomer(saved.customerRef);
  }

  /** A PaymentIntent as Stripe has it now: the reconciliation job asks when the webhook is late. */
  async retrieveIntent(paymentIntentId: string): Promise<Stripe.PaymentIntent> {
    return this.client.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
  }

  /** Cancels a PaymentIntent the payer left unfinished (3-D Secure never completed): it can no longer be paid. */
  async cancelIntent(paymentIntentId: string, idempotencyKey: string): Promise<Stripe.PaymentIntent> {
    return this.client.paymentIntents.cancel(paymentIntentId, { cancellation_reason: 'abandoned' }, { idempotencyKey });
  }

  /** Verifies Stripe's signature (and its timestamp tolerance); throws on anything else. */
  verifyWebhook(rawBody: Buffer, signature: string): Stripe.Event {
    return this.client.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
  }
}
