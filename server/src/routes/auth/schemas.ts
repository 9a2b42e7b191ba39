import { z } from 'zod';
import { inputMessage } from '../../lib/messages';
import { envelope } from '../../lib/envelope';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from '../../lib/email-address';

// An email: non-space text, an at sign, more text, a dot and more text, no spaces.
export const emailField = z
  .string({ message: inputMessage('common.enterEmail') })
  .trim()
  .toLowerCase()
  .min(1, inputMessage('common.enterEmail'))
  .max(EMAIL_MAX_LENGTH, inputMessage('common.enterValidEmail'))
  .regex(EMAIL_PATTERN, inputMessage('common.enterValidEmail'));

/** The password as jsencrypt sends it: RSA PKCS#1 v1.5 under GET /api/v1/auth/publicKey, base64. */
export const encryptedPassword = (missing: string) =>
  z
    .string({ message: missing })
    .trim()
    .min(1, missing)
    .max(2048, inputMessage('common.passwordTooLong'))
    .describe('The password encrypted with the public key from GET /api/v1/auth/publicKey (jsencrypt), base64');

export const localeField = z
  .enum(['en', 'id'])
  .describe('Language of the email; default: Accept-Language, else the account');

export const loginBody = z.object({
  email: emailField,
  password: encryptedPassword(inputMessage('billing.enterPassword')),
});

export const sendCodeBody = z.object({
  email: emailField,
  type: z
    .union([z.literal(1), z.literal(2), z.literal(3)], {
      message: 'type must be 1 (password reset), 2 (refund request) or 3 (account deletion)',
    })
    .describe('1: password reset, 2: refund request, 3: account deletion'),
  locale: localeField.optional(),
});

export const resetPasswordBody = z.object({
  email: emailField,
  password: encryptedPassword(inputMessage('billing.enterNewPassword')),
  verificationCode: z
    .string({ message: inputMessage('common.enterYourCode') })
    .trim()
    .min(1, inputMessage('common.enterYourCode'))
    .regex(/^\d{6}$/, inputMessage('billing.enterTheCode')),
});

export const loginByAuthCodeBody = z.object({
  authCode: z
    .string({ message: 'authCode is required' })
    .trim()
    .min(16, 'authCode is not valid')
    .max(256, 'authCode is not valid')
    .describe('A one-time code the server issued to sign this account in (for example after sign-up)'),
});

export const userCacheInfoSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  phone: z.string().nullable(),
  locale: z.enum(['en', 'id']),
  createdAt: z.string().describe('ISO timestamp'),
});

export const loginResponse = envelope(
  z
    .object({ user: z.object({ userCacheInfo: userCacheInfoSchema }) })
    .describe(
      'The session token is not in the body: it comes as the HttpOnly `token` cookie (Set-Cookie). A client ' +
        'that is not a browser sends that cookie back, or its value as the Authorization header.',
    ),
);

export const successResponse = envelope(z.object({ success: z.literal(true) }));

export const publicKeyResponse = envelope(
  z.object({ publicKey: z.string().describe('PEM (BEGIN PUBLIC KEY), for jsencrypt setPublicKey') }),
);

export const sessionResponse = envelope(z.object({ userCacheInfo: userCacheInfoSchema }));
