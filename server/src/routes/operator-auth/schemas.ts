import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';
import { emailField, encryptedPassword } from '../auth/schemas';

const enrolmentToken = z
  .string({ message: inputMessage('operators.enrolmentLinkInvalid') })
  .trim()
  .min(1, inputMessage('operators.enrolmentLinkInvalid'))
  .max(100, inputMessage('operators.enrolmentLinkInvalid'))
  .describe('The token from the enrolment link (the part after #token=)');

// Encrypted like a subscriber's; the operators' rules check it once decrypted (operators/operator-password.ts).
const password = encryptedPassword(inputMessage('operators.enterPassword'));

const code = z
  .string({ message: inputMessage('operators.enterCode') })
  .trim()
  .min(6, inputMessage('operators.enterCode'))
  .max(32, inputMessage('operators.enterCode'));

export const enrolmentBeginBody = z.object({ token: enrolmentToken });

export const enrolmentBeginResponse = envelope(
  z.object({
    email: z.string(),
    secret: z.string().describe('The authenticator secret in base32, for typing in by hand'),
    otpauthUrl: z.string().describe('otpauth://totp/… for a QR code an authenticator app scans'),
  }),
);

export const enrolmentFinishBody = z.object({
  token: enrolmentToken,
  password,
  code: code.describe('A current 6-digit code of the secret enrolment/begin gave'),
});

export const enrolmentFinishResponse = envelope(
  z
    .object({ recoveryCodes: z.array(z.string()).describe('10 one-time codes, shown this once') })
    .describe('The operator is signed in: the session comes as the HttpOnly kabari_operator cookie.'),
);

export const signInBody = z.object({
  email: emailField,
  password,
  code: code.describe("The authenticator's 6-digit code, or a recovery code (which is then used up)"),
});

const operatorSchema = z.object({ id: z.string(), email: z.string() });

export const signInResponse = envelope(
  z
    .object({ operator: operatorSchema, expiresAt: z.string().describe('ISO timestamp: the 12-hour limit') })
    .describe('The session comes as the HttpOnly kabari_operator cookie, sent only to /api/v1/operator.'),
);

export const sessionResponse = envelope(
  z.object({
    operator: operatorSchema,
    expiresAt: z.string().describe('ISO timestamp: the 12-hour limit'),
    idleExpiresAt: z.string().describe('ISO timestamp: when the session ends without another request'),
  }),
);

export const signedOutResponse = envelope(z.object({ success: z.literal(true) }));

export const auditLogQuery = z.object({
  before: z
    .string()
    .regex(/^\d{1,18}$/, 'before must be a cursor from a previous page')
    .optional()
    .describe("The previous page's `next`"),
});

export const auditLogResponse = envelope(
  z.object({
    entries: z.array(
      z.object({
        id: z.number().int(),
        at: z.string().describe('ISO timestamp'),
        operatorEmail: z.string(),
        action: z.string(),
        objectType: z.string(),
        objectId: z.string().nullable(),
        note: z.string().nullable(),
      }),
    ),
    next: z.string().nullable().describe('The cursor of the next (older) page, or null at the end'),
  }),
);
