import { apiPost } from '@kabari/shared/api/api-client';
import type { ApiBody } from '@kabari/shared/api/api-types';
import type { CardDetails } from '@kabari/shared/payments/card-validation';
import type { LocalChannel } from '@kabari/shared/payments/local-payment';
import type { PaymentHandlers, PaymentMethod } from '@kabari/shared/payments/payment-form';
import type { SignUpAttempt } from './sign-up-attempt';

/**
 * The account part of POST /api/v1/auth/registerAndSign/*: termsVersion is the accepted terms' "last updated" date
 * (terms-version.ts); the password is RSA-encrypted like the login's, and absent when the user sets one later by
 * the emailed code.
 */
export type AccountFields = Omit<
  ApiBody<'/api/v1/auth/registerAndSign/v5pay', 'post'>,
  'method' | 'card' | 'attemptId'
>;

/** The account fields of one submission: with the id of the try it belongs to. */
type AttemptFields = AccountFields & { attemptId: string };

// The dialog shows the server's sentence itself (or the email field's message for a 409).
const quiet = { toastErrors: false, handledStatuses: [400, 402, 409, 422, 429] } as const;

export function registerWithSandbox(account: AttemptFields, payment: { method: PaymentMethod; card?: CardDetails }) {
  return apiPost('/api/v1/auth/registerAndSign/v5pay', { ...account, ...payment }, quiet);
}

export function registerWithStripe(
  account: AttemptFields,
  payment: { method: 'card' | 'wallet'; paymentMethodId: string },
) {
  return apiPost('/api/v1/auth/registerAndSign/stripe', { ...account, ...payment }, quiet);
}

export function registerWithPaypal(
  account: AccountFields & { attemptId?: string },
  order: { registerId?: string; orderId?: string; capture?: boolean },
) {
  return apiPost('/api/v1/auth/registerAndSign/paypal', { ...account, method: 'paypal', ...order }, quiet);
}

/** QRIS, an e-wallet or a bank transfer: the answer's payment is what the register result page shows to pay. */
function registerWithLocal(account: AttemptFields, channel: LocalChannel) {
  return apiPost('/api/v1/auth/registerAndSign/local', { ...account, channel }, quiet);
}

/**
 * The payment form's handlers for a new account. Each payment is sent as a try of `attempt` (sign-up-attempt.ts): a
 * submission sent again because its answer was lost never pays twice.
 */
export function signUpHandlers(account: AccountFields, attempt: SignUpAttempt): PaymentHandlers {
  return {
    sandbox: async (payment) =>
      (await attempt.send((attemptId) => registerWithSandbox({ ...account, attemptId }, payment))).registerId,
    stripe: (payment) => attempt.send((attemptId) => registerWithStripe({ ...account, attemptId }, payment)),
    local: async (channel) =>
      (await attempt.send((attemptId) => registerWithLocal({ ...account, attemptId }, channel))).registerId,
    paypal: {
      create: () => attempt.send((attemptId) => registerWithPaypal({ ...account, attemptId }, {})),
      capture: async (registerId, orderId) =>
        (await registerWithPaypal(account, { registerId, orderId, capture: true })).registerId,
    },
  };
}
