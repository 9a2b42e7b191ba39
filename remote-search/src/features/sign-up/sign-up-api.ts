import { apiPost } from '@kabari/shared/api/api-client';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { CardDetails } from '@kabari/shared/payments/card-validation';
import type { PaymentHandlers, PaymentMethod, StripeOutcome } from '@kabari/shared/payments/payment-form';

/** The account part of POST /api/v1/auth/registerAndSign/* (docs/api-v1.md). */
export interface AccountFields {
  email: string;
  displayName: string;
  phone?: string;
  locale: Locale;
  ageConfirmed: true;
  termsAccepted: true;
  /** Which terms were accepted: their "last updated" date (terms-version.ts). */
  termsVersion: string;
  /** RSA-encrypted like the login's; absent: the user sets one later by the emailed code. */
  password?: string;
}

const registerPath = '/api/v1/auth/registerAndSign';
// The dialog shows the server's sentence itself (or the email field's message for a 409).
const quiet = { toastErrors: false, handledStatuses: [400, 402, 409, 422, 429] } as const;

export function registerWithSandbox(account: AccountFields, payment: { method: PaymentMethod; card?: CardDetails }) {
  return apiPost<{ registerId: string }>(`${registerPath}/v5pay`, { ...account, ...payment }, quiet);
}

export function registerWithStripe(
  account: AccountFields,
  payment: { method: 'card' | 'wallet'; paymentMethodId: string },
) {
  return apiPost<StripeOutcome>(`${registerPath}/stripe`, { ...account, ...payment }, quiet);
}

export function registerWithPaypal(
  account: AccountFields,
  order: { registerId?: string; orderId?: string; capture?: boolean },
) {
  return apiPost<{ registerId: string; orderId: string }>(
    `${registerPath}/paypal`,
    { ...account, method: 'paypal', ...order },
    quiet,
  );
}

/** The payment form's handlers for a new account. */
export function signUpHandlers(account: AccountFields): PaymentHandlers {
  return {
    v5pay: async (payment) => (await registerWithSandbox(account, payment)).registerId,
    stripe: (payment) => registerWithStripe(account, payment),
    paypal: {
      create: () => registerWithPaypal(account, {}),
      capture: async (registerId, orderId) =>
        (await registerWithPaypal(account, { registerId, orderId, capture: true })).registerId,
    },
  };
}
