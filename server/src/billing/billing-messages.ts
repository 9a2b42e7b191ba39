import { isMessageKey, messagesOf, type Locale } from '../lib/messages';

/** What the billing routes (sign-up, subscription, refunds, account) say to people, in both languages. */
export const sayBilling = messagesOf('billing');

/**
 * Why a payment failed, by the provider's code (Stripe's decline codes, PayPal's issues, the sandbox's codes),
 * in both languages. Codes without a text of ours keep the provider's own text.
 */
const sayDecline = messagesOf('cardDecline');

/** A failed payment's reason in `locale`: ours for a known code, else the provider's text, else a general one. */
export function failureText(code: string | null | undefined, locale: Locale, providerText?: string | null): string {
  if (code && isMessageKey('cardDecline', code)) return sayDecline(code)[locale];
  return providerText || sayDecline('payment_failed')[locale];
}
