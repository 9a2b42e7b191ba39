import { z } from 'zod';
import { inputMessage } from '../../lib/messages';
import { displayNameField } from '../../auth/display-name';
import { envelope } from '../../lib/envelope';
import { REQUESTER_NOTICES, type RequesterNotice } from '../../db/column-values';
import { emailField, encryptedPassword, userCacheInfoSchema } from '../auth/schemas';

const verificationCode = z
  .string({ message: inputMessage('billing.enterTheCode') })
  .trim()
  .regex(/^\d{6}$/, inputMessage('billing.enterTheCode'));

export const deleteAccountBody = z
  .object({
    password: encryptedPassword(inputMessage('billing.enterPassword')).optional(),
    verificationCode: verificationCode.optional().describe('The code from POST /api/v1/auth/sendCode type 3'),
  })
  .refine((body) => body.password !== undefined || body.verificationCode !== undefined, {
    message: inputMessage('billing.confirmDeletion'),
  });

export const profileBody = z.object({ displayName: displayNameField });

/** Step one of a change of email: the password, and the new address the code goes to. */
export const emailBody = z.object({
  newEmail: emailField,
  password: encryptedPassword(inputMessage('billing.enterPassword')),
});

/** Step two: the same new address and the code that reached it. */
export const emailConfirmBody = z.object({
  newEmail: emailField,
  verificationCode: verificationCode.describe('The code emailed to the new address by POST account/email'),
});

export const passwordBody = z.object({
  password: encryptedPassword(inputMessage('billing.enterPassword')),
  newPassword: encryptedPassword(inputMessage('billing.enterNewPassword')),
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

/** One switch per notice a requester can get (true: sent). */
const noticeSwitches = z.object(
  Object.fromEntries(REQUESTER_NOTICES.map((notice) => [notice, z.boolean()])) as Record<RequesterNotice, z.ZodBoolean>,
);

/** The notices to turn on or off; those not named stay as they are. */
export const noticesBody = z
  .object({ email: noticeSwitches.partial().strict(), push: noticeSwitches.partial().strict() })
  .partial()
  .strict()
  .refine((body) => body.email !== undefined || body.push !== undefined, {
    message: inputMessage('account.noticeChannels'),
    path: ['email'],
  });

export const noticesResponse = envelope(
  z.object({
    email: noticeSwitches.describe('By email'),
    push: noticeSwitches.describe('As a notification, in every browser where notifications are on'),
  }),
);
