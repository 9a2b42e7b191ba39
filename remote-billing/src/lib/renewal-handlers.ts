import type { PaymentHandlers } from '@kabari/shared/payments/payment-form';
import { renewSubscription } from './subscription-api';

/**
 * How the payment step pays through POST subscribe/renew: an expired subscription paid again, or (QRIS, an e-wallet
 * or a transfer only) a subscription that renews when paid, paid for its next period.
 */
export const renewalHandlers: PaymentHandlers = {
  sandbox: async (payment) => (await renewSubscription(payment)).registerId,
  stripe: async (payment) => {
    const result = await renewSubscription(payment);
    return {
      registerId: result.registerId,
      clientSecret: result.clientSecret,
      requiresAction: !!result.requiresAction,
    };
  },
  // QRIS, an e-wallet or a bank transfer: the renewal waits for the subscriber to pay in their own app.
  local: async (channel) => (await renewSubscription({ method: 'local', channel })).registerId,
  // PayPal: the order is made for this attempt, then captured once the subscriber approves it.
  paypal: {
    create: async () => {
      const result = await renewSubscription({ method: 'paypal' });
      // The server always answers a PayPal renewal with its order; without one there is nothing to approve.
      if (!result.orderId) throw new Error('The renewal came back without a PayPal order');
      return { registerId: result.registerId, orderId: result.orderId };
    },
    capture: async (registerId, orderId) =>
      (await renewSubscription({ method: 'paypal', registerId, orderId, capture: true })).registerId,
  },
};
