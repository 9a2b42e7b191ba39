import { apiPost } from '@kabari/shared/api/api-client';
import type { ApiBody } from '@kabari/shared/api/api-types';
import type { CardDetails } from '@kabari/shared/payments/card-validation';
import type { PaymentHandlers, PaymentMethod } from '@kabari/shared/payments/payment-form';

/**
 * The account part of POST /api/v1/auth/registerAndSign/*: termsVersion is the accepted terms' "last updated" date
 * (terms-version.ts); the password is RSA-encrypted like the login's, and absent when the user sets one later by
 * the emailed code.
 */
export type AccountFields = Omit<ApiBody<'/api/v1/auth/registerAndSign/v5pay', 'post'>, 'method' | 'card'>;

// The dialog shows the server's sentence itself (or the email field's message for a 409).
const quiet = { toastErrors: false, handledStatuses: [400, 402, 409, 422, 429] } as const;

export function registerWithSandbox(account: AccountFields, payment: { method: PaymentMethod; card?: CardDetails }) {
  return apiPost('/api/v1/auth/registerAndSign/v5pay', { ...account, ...payment }, quiet);
}

export function registerWithStripe(
  account: AccountFields,
  payment: { method: 'card' | 'wallet'; paymentMethodId: string },
) {
  return apiPost('/api/v1/auth/registerAndSign/stripe', { ...account, ...payment }, quiet);
}

export function registerWithPaypal(
  account: AccountFields,
  order: { registerId?: string; orderId?: string; capture?: boolean },
) {
  return apiPost('/api/v1/auth/registerAndSign/paypal', { ...account, method: 'paypal', ...order }, quiet);
}

/** The payment form's handlers for a new account. */
export function signUpHandlers(account: AccountFields): PaymentHandlers {
  return {
    sandbox: async (payment) => (await registerWithSandbox(account, payment)).registerId,
    stripe: (payment) => registerWithStripe(account, payment),
    paypal: {
      create: () => registerWithPaypal(account, {}),
      capture: async (registerId, orderId) =>
        (await registerWithPaypal(account, { registerId, orderId, capture: true })).registerId,
    },
  };
}
