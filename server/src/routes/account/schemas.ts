import { z } from 'zod';
import { displayNameField } from '../../auth/display-name';
import { envelope } from '../../lib/envelope';
import { emailField, userCacheInfoSchema } from '../auth/schemas';

const encrypted = (missing: string) =>
  z
    .string({ message: missing })
    .trim()
    .min(1, missing)
    .max(2048, 'The encrypted password is too long')
    .describe('Encrypted like login (jsencrypt under GET /api/v1/auth/publicKey)');

const verificationCode = z
  .string({ message: 'Please enter the verification code' })
  .trim()
  .regex(/^\d{6}$/, 'Please enter the verification code');

export const deleteAccountBody = z
  .object({
    password: encrypted('Please input a your password').optional(),
    verificationCode: verificationCode.optional().describe('The code from POST /api/v1/auth/sendCode type 3'),
  })
  .refine((body) => body.password !== undefined || body.verificationCode !== undefined, {
    message: 'Confirm with your password or the emailed code',
  });

export const profileBody = z.object({ displayName: displayNameField });

/** Step one of a change of email: the password, and the new address the code goes to. */
export const emailBody = z.object({ newEmail: emailField, password: encrypted('Please input a your password') });

/** Step two: the same new address and the code that reached it. */
export const emailConfirmBody = z.object({
  newEmail: emailField,
  verificationCode: verificationCode.describe('The code emailed to the new address by POST account/email'),
});

export const passwordBody = z.object({
  password: encrypted('Please input a your password'),
  newPassword: encrypted('Please input a your new password'),
});

export const userResponse = envelope(z.object({ user: z.object({ userCacheInfo: userCacheInfoSchema }) }));

export const successResponse = envelope(z.object({ success: z.literal(true) }));

export const sessionsResponse = envelope(
  z.object({
    items: z.array(
      z.object({
        id: z.string(),
        userAgent: z.string().nullable(),
        createdAt: z.string(),
        lastSeenAt: z.string(),
        current: z.boolean(),
      }),
    ),
  }),
);

export const sessionParams = z.object({ id: z.string().uuid('Unknown session') });
