import { z } from 'zod';
import { envelope } from '../../lib/envelope';

export const webhookResponse = envelope(
  z.object({
    received: z.literal(true),
    duplicate: z.boolean().describe('True when this event id was handled before: nothing was done again'),
  }),
);

export const stripeHeaders = z.object({
  'stripe-signature': z.string({ message: 'The Stripe-Signature header is missing' }).min(1).max(2000),
});
