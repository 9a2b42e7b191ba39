import { z } from 'zod';
import { PAYMENT_PROVIDERS } from '../../db/column-values';
import { inputMessage } from '../../lib/messages';
import { envelope } from '../../lib/envelope';
import { localChannel, localPaymentSchema, paypalOrderId, sandboxCard } from '../registration/schemas';

export const subscriptionInfoSchema = z.object({
  status: z.enum(['trial', 'active', 'cancelled', 'expired', 'unsubscribed']),
  expiredStatus: z.union([z.literal(0), z.literal(1)]).describe('1 when access has ended'),
  validUntil: z.string().describe('ISO time access is paid until'),
  periodStart: z
    .string()
    .describe('ISO time the period running to validUntil starts: later than now when that period was paid ahead'),
  nextPeriodPaid: z
    .boolean()
    .describe(
      'Access lasts and the period running to validUntil has not begun: the period after the current one is paid ' +
        '(paying ahead is refused with 409)',
    ),
  nextDebitDay: z.string().nullable().describe('ISO time of the next charge; null when it will not renew'),
  renewsWhenPaid: z
    .boolean()
    .optional()
    .describe(
      'Paid with QRIS, an e-wallet or a bank transfer: never charged by itself (nextDebitDay null); it renews when ' +
        'its owner pays again (subscribe/renew), and ends at validUntil otherwise. Always sent by this server',
    ),
  amount: z.number().describe('Charged every period (major unit)'),
  firstDayDebitAmount: z.number(),
  currencyCode: z.string(),
  period: z.number().int().describe('Days per renewal'),
  provider: z.enum(PAYMENT_PROVIDERS),
  sandbox: z.boolean().describe('Paid through the sandbox processor: no money moved'),
  cancelledAt: z.string().nullable(),
  createdAt: z.string(),
});

export const subscriptionInfoResponse = envelope(subscriptionInfoSchema);

export const subscriptionNowResponse = envelope(
  subscriptionInfoSchema.extend({
    waitingPayment: z
      .object({
        registerId: z.string().uuid().describe('The attempt to poll with registerQuery, as after subscribe/renew'),
        payment: localPaymentSchema,
      })
      .nullable()
      .describe(
        'A QRIS, e-wallet or virtual account payment its owner started (a renewal, or the next period paid ahead) ' +
          'that still waits and is payable: what to show again (the code, the number, the deep link) until ' +
          'expiresAt; null when there is none',
      ),
  }),
);

export const paymentItem = z.object({
  id: z.string(),
  kind: z.enum(['first_day', 'renewal']),
  amount: z.number(),
  currencyCode: z.string(),
  state: z
    .enum(['pending', 'succeeded', 'failed', 'refunded', 'partly_refunded', 'disputed'])
    .describe('refunded, partly_refunded, disputed: what the provider reported after the charge'),
  ended: z
    .enum(['cancelled', 'expired'])
    .nullable()
    .describe('A failed payment the payer cancelled, or left unpaid until it expired (QRIS, e-wallet, transfer)'),
  refundedAmount: z.number().describe('Given back so far (major unit); 0 when nothing was'),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  createdAt: z.string(),
});

export const paymentsResponse = envelope(z.object({ items: z.array(paymentItem) }));

export const renewBody = z.object({
  method: z.enum(['card', 'wallet', 'paypal', 'local']),
  channel: localChannel
    .optional()
    .describe('With method local: QRIS, an e-wallet or a bank virtual account (a subscription in rupiah)'),
  card: sandboxCard.optional().describe('Sandbox only: checked and used once, never stored or logged'),
  paymentMethodId: z.string().trim().max(255).optional().describe('Stripe: from Elements or the payment request'),
  locale: z.enum(['en', 'id']).optional(),
  registerId: z
    .string()
    .uuid(inputMessage('billing.renewalNotFound'))
    .optional()
    .describe('PayPal capture: the attempt the order was made for'),
  orderId: paypalOrderId.optional().describe('PayPal capture: the order the subscriber approved'),
  capture: z.boolean().optional().describe('PayPal: true captures the approved order'),
});

export const renewResponse = envelope(
  z.object({
    registerId: z.string().uuid(),
    requiresAction: z.boolean().optional().describe('Stripe: complete 3-D Secure with clientSecret'),
    clientSecret: z.string().optional(),
    orderId: z.string().optional().describe('PayPal: the order for the PayPal button'),
    payment: localPaymentSchema
      .optional()
      .describe('Method local: what the page shows while the payment waits; then poll registerQuery'),
  }),
);

export const cancelWaitingPaymentBody = z.object({
  registerId: z
    .string()
    .uuid(inputMessage('billing.waitingPaymentNotFound'))
    .describe("The waiting payment's attempt, as subscribe/info's waitingPayment names it"),
});
