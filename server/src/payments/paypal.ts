import {
  ApiError,
  CheckoutPaymentIntent,
  Client,
  Environment,
  OrdersController,
  PaymentsController,
  PaypalExperienceUserAction,
  PaypalPaymentTokenUsageType,
  PaypalWalletContextShippingPreference,
  StoreInVaultInstruction,
  VaultController,
  type CapturedPayment,
  type Order,
  type OrderRequest,
} from '@paypal/paypal-server-sdk';
import type { PaypalSettings } from './provider-settings';
import type { ChargeOutcome, PaymentProcessor, SavedChargeRequest, SavedCustomer } from './processor';
import { isRefusal, RefundRefused, refusalCode } from './refund-refused';
import {
  orderOutcome,
  paypalAmount,
  paypalApiBase,
  vaultOf,
  type PaypalCapture,
  type WebhookHeaders,
} from './paypal-outcomes';

/** A decline PayPal answers with an error (422 INSTRUMENT_DECLINED and the like), as a failed outcome. */
function failureFromError(error: unknown, providerRef: string | null): ChargeOutcome | null {
  if (!(error instanceof ApiError) || error.statusCode !== 422) return null;
  const result = error.result as { details?: { issue?: string }[] } | undefined;
  const issue = result?.details?.[0]?.issue ?? 'UNPROCESSABLE_ENTITY';
  return { outcome: 'failed', providerRef, failureCode: issue, failureMessage: 'PayPal declined the payment.' };
}

/**
 * PayPal through its server SDK: an order per first charge (captured once the buyer approves it), the PayPal
 * account vaulted on success so renewals can charge it (merchant-initiated orders with the vault id), and
 * webhooks checked by PayPal's verify-webhook-signature API. Every call carries a PayPal-Request-Id: a retry is
 * the same call.
 */
export class PaypalProcessor implements PaymentProcessor {
  readonly provider = 'paypal' as const;
  readonly client: Client;
  private readonly orders: OrdersController;
  private readonly payments: PaymentsController;
  private readonly fetchFn: typeof fetch;
  private token: { value: string; expiresAt: number } | null = null;

  constructor(
    readonly settings: PaypalSettings,
    /** Tests: every HTTP call of the SDK and of the webhook check goes through this fetch. */
    fetchFn?: typeof fetch,
  ) {
    this.fetchFn = fetchFn ?? fetch;
    this.client = new Client({
      clientCredentialsAuthCredentials: {
        oAuthClientId: settings.clientId,
        oAuthClientSecret: settings.clientSecret,
      },
      environment: settings.environment === 'production' ? Environment.Production : Environment.Sandbox,
      timeout: 30_000,
      ...(fetchFn ? { unstable_httpClientOptions: { adapter: 'fetch', env: { fetch: fetchFn } } } : {}),
    });
    this.orders = new OrdersController(this.client);
    this.payments = new PaymentsController(this.client);
  }

  /** The first-day order, to be approved in the PayPal button; the PayPal account is vaulted when captured. */
  async createOrder(input: {
    requestId: string;
    /** The payment's idempotency key: webhooks find the payment by it (custom_id). */
    paymentKey: string;
    amount: number;
    currency: string;
    locale: 'en' | 'id';
    description: string;
  }): Promise<string> {
    const body: OrderRequest = {
      intent: CheckoutPaymentIntent.Capture,
      purchaseUnits: [
        {
          amount: { currencyCode: input.currency, value: paypalAmount(input.amount, input.currency) },
          customId: input.paymentKey,
          description: input.description,
        },
      ],
      paymentSource: {
        paypal: {
          experienceContext: {
            locale: input.locale === 'id' ? 'id-ID' : 'en-US',
            shippingPreference: PaypalWalletContextShippingPreference.NoShipping,
            userAction: PaypalExperienceUserAction.PayNow,
          },
          attributes: {
            vault: { storeInVault: StoreInVaultInstruction.OnSuccess, usageType: PaypalPaymentTokenUsageType.Merchant },
          },
        },
      },
    };
    const { result } = await this.orders.createOrder({ body, paypalRequestId: input.requestId });
    if (!result.id) throw new Error('PayPal answered an order without an id');
    return result.id;
  }

  /** Captures an approved order. A decline is an outcome, not an error. */
  async captureOrder(orderId: string, requestId: string): Promise<PaypalCapture> {
    try {
      const { result } = await this.orders.captureOrder({
        id: orderId,
        paypalRequestId: requestId,
        prefer: 'return=representation',
      });
      return { outcome: orderOutcome(result), ...vaultOf(result) };
    } catch (error) {
      const outcome = failureFromError(error, orderId);
      if (!outcome) throw error;
      return { outcome, customerRef: null, paymentMethodRef: null };
    }
  }

  /** The vault an order saved (a webhook's capture does not carry it). Nothing when PayPal cannot say. */
  async orderVault(orderId: string): Promise<{ customerRef: string | null; paymentMethodRef: string | null }> {
    try {
      const { result } = await this.orders.getOrder({ id: orderId });
      return vaultOf(result);
    } catch {
      return { customerRef: null, paymentMethodRef: null };
    }
  }

  /**
   * An order as PayPal has it now (the reconciliation job asks when the webhook is late); null when PayPal no
   * longer knows it (an order never approved expires and is gone).
   */
  async getOrder(orderId: string): Promise<Order | null> {
    try {
      const { result } = await this.orders.getOrder({ id: orderId });
      return result;
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /**
   * A capture as PayPal has it now (GET /v2/payments/captures/{id}): a renewal's capture left PENDING, asked
   * about when its webhook is late. Null when PayPal knows no capture by this id.
   */
  async getCapture(captureId: string): Promise<CapturedPayment | null> {
    try {
      const { result } = await this.payments.getCapturedPayment({ captureId });
      return result;
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /** A renewal: an order paid from the vaulted PayPal account, without the buyer. */
  async chargeSaved(request: SavedChargeRequest): Promise<ChargeOutcome> {
    try {
      const { result } = await this.orders.createOrder({
        body: {
          intent: CheckoutPaymentIntent.Capture,
          purchaseUnits: [
            {
              amount: { currencyCode: request.currency, value: paypalAmount(request.amount, request.currency) },
              customId: request.idempotencyKey,
              description: request.description,
            },
          ],
          paymentSource: { paypal: { vaultId: request.paymentMethodRef } },
        },
        paypalRequestId: request.idempotencyKey,
        prefer: 'return=representation',
      });
      // A vaulted order is usually captured at once; when PayPal leaves it approved, capture it here.
      if (result.status === 'APPROVED' && result.id) {
        return (await this.captureOrder(result.id, `${request.idempotencyKey}:capture`)).outcome;
      }
      // Nobody is there to approve it: PayPal wanting the payer means this renewal cannot be charged.
      if (result.status === 'PAYER_ACTION_REQUIRED') {
        return {
          outcome: 'failed',
          providerRef: result.id ?? null,
          failureCode: 'PAYER_ACTION_REQUIRED',
          failureMessage: 'PayPal needs the payer to approve this payment.',
        };
      }
      return orderOutcome(result);
    } catch (error) {
      const outcome = failureFromError(error, null);
      if (outcome) return outcome;
      throw error;
    }
  }

  /**
   * Money taken that we did not earn (refunds-owed.ts): the capture given back in full. A retry is the same refund
   * (the PayPal-Request-Id); a capture PayPal says is fully refunded already is done too. A 4xx about the capture
   * (422 TRANSACTION_REFUSED, a capture too old to refund, 404…) is a RefundRefused with PayPal's issue; 5xx, 429
   * and the network are thrown as they are, to be tried again.
   */
  async refund(captureId: string | null, requestId: string): Promise<void> {
    if (!captureId) throw new RefundRefused('no_provider_reference', undefined);
    try {
      await this.payments.refundCapturedPayment({ captureId, paypalRequestId: requestId });
    } catch (error) {
      if (error instanceof ApiError) {
        const result = error.result as { name?: string; details?: { issue?: string }[] } | undefined;
        if (error.statusCode === 422 && result?.details?.some((detail) => detail.issue === 'CAPTURE_FULLY_REFUNDED')) {
          return;
        }
        if (isRefusal(error.statusCode)) {
          const code = result?.details?.[0]?.issue ?? result?.name;
          throw new RefundRefused(refusalCode(code, error.statusCode), error.statusCode);
        }
      }
      throw error;
    }
  }

  /**
   * The subscriber deleted their account: the vaulted PayPal account (DELETE /v3/vault/payment-tokens/{id})
   * goes too. A token PayPal no longer knows is already forgotten.
   */
  async forgetPaymentToken(paymentTokenId: string): Promise<void> {
    try {
      await new VaultController(this.client).deletePaymentToken(paymentTokenId);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) return;
      throw error;
    }
  }

  /** A deleted account's customer at the provider, from what its subscription kept. */
  async forgetSavedCustomer(saved: SavedCustomer): Promise<void> {
    if (saved.paymentMethodRef) await this.forgetPaymentToken(saved.paymentMethodRef);
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const token = await this.client.clientCredentialsAuthManager.fetchToken();
    const lifetimeSeconds = Number(token.expiresIn ?? 300n);
    // A minute's margin: a token never expires between this check and PayPal reading it.
    this.token = { value: token.accessToken, expiresAt: Date.now() + Math.max(0, lifetimeSeconds - 60) * 1000 };
    return token.accessToken;
  }

  /**
   * Asks PayPal whether this delivery is genuine (POST /v1/notifications/verify-webhook-signature; the SDK has
   * no call for it). The event goes back byte for byte, as received. True only for SUCCESS.
   */
  async verifyWebhook(headers: WebhookHeaders, rawBody: Buffer): Promise<boolean> {
    const header = (name: string) => {
      const value = headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const fields = {
      auth_algo: header('paypal-auth-algo'),
      cert_url: header('paypal-cert-url'),
      transmission_id: header('paypal-transmission-id'),
      transmission_sig: header('paypal-transmission-sig'),
      transmission_time: header('paypal-transmission-time'),
      webhook_id: this.settings.webhookId,
    };
    if (Object.values(fields).some((value) => value === undefined)) return false;
    const event = rawBody.toString('utf8');
    const body = `${JSON.stringify(fields).slice(0, -1)},"webhook_event":${event}}`;
    const response = await this.fetchFn(
      `${paypalApiBase(this.settings.environment)}/v1/notifications/verify-webhook-signature`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await this.accessToken()}` },
        body,
      },
    );
    if (!response.ok) throw new Error(`PayPal's webhook check answered ${response.status}`);
    const answer = (await response.json()) as { verification_status?: string };
    return answer.verification_status === 'SUCCESS';
  }
}
