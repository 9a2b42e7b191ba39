import type { Database } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import type { Logger } from '../lib/logger';
import type { PaypalProcessor } from '../payments/paypal';
import { sayBilling } from './billing-messages';
import { setRegistrationProviderRef, updateRegistration } from './registration-rows';

/** What may be logged of a provider's error: never its request (it carries the access token). */
export function providerErrorSummary(error: unknown): { status?: number; message: string } {
  const status = (error as { statusCode?: unknown }).statusCode;
  return {
    ...(typeof status === 'number' ? { status } : {}),
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * The PayPal order of an attempt already stored (a sign-up or a renew after expiry), for the PayPal button: made
 * with the request id `order:<attempt>` and the payment's key as custom_id, and kept on the attempt (a capture and
 * the reconciliation job find it there). PayPal unreachable: the attempt ends as sign_failed and the caller gets
 * 502 in both languages.
 */
export async function openPaypalOrder(
  deps: { db: Database; paypal: PaypalProcessor; log: Logger },
  input: {
    registrationId: string;
    paymentKey: string;
    amount: number;
    currency: string;
    locale: 'en' | 'id';
    description: string;
    now: Date;
  },
): Promise<string> {
  const { registrationId, now } = input;
  let orderId: string;
  try {
    orderId = await deps.paypal.createOrder({
      requestId: `order:${registrationId}`,
      paymentKey: input.paymentKey,
      amount: input.amount,
      currency: input.currency,
      locale: input.locale,
      description: input.description,
    });
  } catch (error) {
    deps.log.error({ paypal: providerErrorSummary(error) }, 'PayPal did not create the order');
    await updateRegistration(deps.db, registrationId, {
      state: 'sign_failed',
      failureCode: 'order_failed',
      failureMessage: sayBilling('paypalUnavailable').en,
      passwordHash: null,
      updatedAt: now,
    });
    throw new HttpError(502, sayBilling('paypalUnavailable'));
  }
  await setRegistrationProviderRef(deps.db, registrationId, orderId, now);
  return orderId;
}
