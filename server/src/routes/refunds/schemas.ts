import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { emailField } from '../auth/schemas';

export const refundBody = z.object({
  email: emailField,
  reason: z
    .string({ message: 'Please tell us why you ask for a refund' })
    .trim()
    .min(1, 'Please tell us why you ask for a refund')
    .max(2000, 'The reason is too long (2000 characters at most)'),
  locale: z.enum(['en', 'id']).default('en'),
  verificationCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Please enter the verification code')
    .optional()
    .describe('From POST /api/v1/auth/sendCode type 2; not needed when signed in as this email'),
});

export const refundResponse = envelope(z.object({ id: z.string().uuid() }));
