import type { Locale } from '../lib/messages';
import { sayBilling } from './billing-messages';
import type { Billing } from './billing-services';

export interface PaymentsRefusal {
  status: 400 | 503;
  message: string;
}

/**
 * Why a payment cannot be taken here at all, or null when it can: with no processor configured (a deployment
 * without provider keys and without PAYMENTS_SANDBOX) 503 "payments are not configured". `sandboxOnly`: the
 * sandbox's own route, refused in the same way whenever the sandbox is not the processor.
 */
export function paymentsRefusal(
  billing: Pick<Billing, 'configured' | 'sandbox'>,
  locale: Locale,
  options: { sandboxOnly?: boolean } = {},
): PaymentsRefusal | null {
  if (!billing.configured) return { status: 503, message: sayBilling('paymentsNotConfigured')[locale] };
  if (options.sandboxOnly && !billing.sandbox) return { status: 400, message: sayBilling('methodUnavailable')[locale] };
  return null;
}
