import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { emailField } from '../auth/schemas';
import { subscriptionInfoSchema } from '../subscription/schemas';

export const expireBody = z.object({ email: emailField });

export const expireResponse = envelope(subscriptionInfoSchema);

export const runRenewalsBody = z.object({
  at: z.iso
    .datetime({ offset: true, message: 'at: expected an ISO time such as 2030-01-31T10:00:00Z' })
    .optional()
    .describe('The moment the pass runs at (default: now)'),
  email: emailField.optional().describe("Only this account's subscription (default: every account)"),
});

export const runRenewalsResponse = envelope(
  z.object({
    expired: z.number().int(),
    reminded: z.number().int(),
    renewed: z.number().int(),
    failed: z.number().int(),
    waiting: z.number().int(),
  }),
);
