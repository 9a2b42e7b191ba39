import { z } from 'zod';
import { inputMessage } from '../../lib/messages';
import { envelope } from '../../lib/envelope';
import { emailField } from '../auth/schemas';

export const refundBody = z.object({
  email: emailField,
  reason: z
    .string({ message: inputMessage('billing.refundReason') })
    .trim()
    .min(1, inputMessage('billing.refundReason'))
    .max(2000, inputMessage('billing.reasonTooLong')),
  locale: z.enum(['en', 'id']).default('en'),
  verificationCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/, inputMessage('billing.enterTheCode'))
    .optional()
    .describe('From POST /api/v1/auth/sendCode type 2; not needed when signed in as this email'),
});

export const refundResponse = envelope(z.object({ id: z.string().uuid() }));
