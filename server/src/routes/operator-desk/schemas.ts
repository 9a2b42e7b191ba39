import { z } from 'zod';
import {
  CONSENT_STATES,
  CONTACT_TOPICS,
  OUTBOX_CHANNELS,
  PAYMENT_PROVIDERS,
  REPORT_OUTCOMES,
  REPORT_REASONS,
  REQUEST_CHANNELS,
  REQUEST_STATUSES,
} from '../../db/column-values';
import { envelope } from '../../lib/envelope';
import { inputMessage, LOCALES } from '../../lib/messages';

const id = z.uuid({ message: inputMessage('safetyDesk.reportNotFound') });
export const idParams = z.object({ id });

const at = z.string().describe('ISO 8601');
const reportState = z.enum(['open', 'closed']);

const requiredNote = z
  .string({ message: inputMessage('safetyDesk.noteNeeded') })
  .trim()
  .min(1, inputMessage('safetyDesk.noteNeeded'))
  .max(1000, inputMessage('safetyDesk.noteTooLong'));
const optionalNote = z
  .string()
  .trim()
  .max(1000, inputMessage('safetyDesk.noteTooLong'))
  .optional()
  .transform((note) => note || null);

export const requiredNoteBody = z.object({ note: requiredNote });
export const optionalNoteBody = z.object({ note: optionalNote }).default({ note: null });
export const markRefundedBody = z.object({
  reference: z
    .string({ message: inputMessage('safetyDesk.referenceNeeded') })
    .trim()
    .min(1, inputMessage('safetyDesk.referenceNeeded'))
    .max(200, inputMessage('safetyDesk.referenceNeeded')),
  note: optionalNote,
});

export const reportsQuery = z.object({
  state: reportState.default('open'),
  before: z.string().max(200).optional().describe('The `next` of the previous page'),
});

export const reportsResponse = envelope(
  z.object({
    reports: z.array(
      z.object({
        id: z.uuid(),
        createdAt: at,
        reason: z.enum(REPORT_REASONS),
        state: reportState,
        outcome: z.enum(REPORT_OUTCOMES).nullable(),
        requester: z.object({ id: z.uuid(), displayName: z.string() }).nullable(),
      }),
    ),
    next: z.string().nullable(),
  }),
);

export const reportResponse = envelope(
  z.object({
    report: z.object({
      id: z.uuid(),
      createdAt: at,
      reason: z.enum(REPORT_REASONS),
      details: z.string().nullable(),
      state: reportState,
      outcome: z.enum(REPORT_OUTCOMES).nullable(),
      closedAt: at.nullable(),
      operatorNote: z.string().nullable(),
      voiceNote: z
        .object({ id: z.uuid(), durationMs: z.number().int(), text: z.string().nullable() })
        .nullable()
        .describe('The copy of the note the recipient heard; its audio at …/voice-note'),
    }),
    request: z
      .object({
        id: z.uuid(),
        channel: z.enum(REQUEST_CHANNELS),
        maskedTarget: z.string().nullable(),
        messageText: z.string().nullable(),
        createdAt: at,
        openedAt: at.nullable(),
        decidedAt: at.nullable(),
        cancelledAt: at.nullable(),
        expiresAt: at,
        status: z.enum(REQUEST_STATUSES),
        consent: z.enum(CONSENT_STATES),
      })
      .nullable()
      .describe('null once the requester deleted the request'),
    requester: z
      .object({
        id: z.uuid(),
        displayName: z.string(),
        createdAt: at,
        accountAgeDays: z.number().int(),
        country: z.string().nullable().describe("ISO 3166 alpha-2 of the account's phone number, when it gave one"),
        locale: z.enum(LOCALES),
        requestsPerDay: z.array(
          z.object({
            day: z.string(),
            sms: z.number().int(),
            email: z.number().int(),
            link: z.number().int(),
          }),
        ),
        otherReports: z.array(
          z.object({ id: z.uuid(), createdAt: at, reason: z.enum(REPORT_REASONS), state: reportState }),
        ),
        smsSpent: z.object({
          today: z.number().int(),
          total: z.number().int(),
          todayMinor: z.number().int().nullable(),
          totalMinor: z.number().int().nullable(),
          currency: z
            .string()
            .nullable()
            .describe('null (and no amounts) when neither SMS_PRICE_MINOR nor WHATSAPP_PRICE_MINOR is set'),
        }),
        suspension: z.object({ id: z.uuid(), suspendedAt: at, note: z.string(), refundOwed: z.boolean() }).nullable(),
      })
      .nullable()
      .describe('null once the account was deleted'),
  }),
);

export const decisionResponse = envelope(
  z.object({
    id: z.uuid(),
    state: z.literal('closed'),
    outcome: z.enum(REPORT_OUTCOMES),
    suspensionId: z.uuid().nullable(),
  }),
);

const suspension = z.object({
  id: z.uuid(),
  userId: z.uuid().nullable(),
  displayName: z.string().nullable(),
  reportId: z.uuid().nullable(),
  suspendedAt: at,
  note: z.string(),
  refundOwed: z.boolean(),
  liftedAt: at.nullable(),
  liftNote: z.string().nullable(),
});
export const suspensionResponse = envelope(z.object({ suspension }));
export const suspensionsResponse = envelope(z.object({ suspensions: z.array(suspension) }));

export const refundsResponse = envelope(
  z.object({
    refunds: z.array(
      z.object({
        id: z.uuid(),
        source: z.enum([
          'refund_form',
          'suspension',
          'dispute',
          'email_in_use',
          'late_renewal',
          'duplicate_payment',
          'amount_mismatch',
          'refused',
        ]),
        email: z.string().nullable(),
        amountMinor: z.number().int().nullable(),
        currency: z.string().nullable(),
        provider: z.enum(PAYMENT_PROVIDERS).nullable(),
        createdAt: at,
        state: z.enum(['owed', 'refused', 'disputed']),
        canRefund: z.boolean(),
        detail: z.string().nullable().describe("The refund form's reason, or the processor's refusal code"),
      }),
    ),
  }),
);
export const refundedResponse = envelope(z.object({ id: z.uuid(), refunded: z.literal(true) }));

export const contactQuery = z.object({ state: z.enum(['open', 'answered']).default('open') });
const contactMessage = z.object({
  id: z.uuid(),
  createdAt: at,
  name: z.string(),
  email: z.string(),
  topic: z.enum(CONTACT_TOPICS),
  message: z.string(),
  locale: z.enum(LOCALES),
  readAt: at.nullable(),
  answeredAt: at.nullable(),
  answerNote: z.string().nullable(),
});
export const contactMessagesResponse = envelope(z.object({ messages: z.array(contactMessage) }));
export const contactMessageResponse = envelope(z.object({ message: contactMessage }));

export const failedMessagesResponse = envelope(
  z.object({
    messages: z.array(
      z.object({
        id: z.uuid(),
        channel: z.enum(OUTBOX_CHANNELS),
        recipient: z.string().nullable().describe('Masked; null for a push notification'),
        subject: z.string().nullable(),
        attempts: z.number().int(),
        lastError: z.string().nullable(),
        createdAt: at,
        retryable: z.boolean(),
      }),
    ),
  }),
);
export const retryResponse = envelope(z.object({ id: z.uuid(), state: z.enum(['queued', 'sent', 'failed']) }));

const minor = z.number().int().nullable();
export const smsSpendResponse = envelope(
  z.object({
    day: z.string(),
    currency: z
      .string()
      .nullable()
      .describe('null (and no amounts) when neither SMS_PRICE_MINOR nor WHATSAPP_PRICE_MINOR is set'),
    caps: z.object({
      dailyBudget: z.number().int(),
      perAccountPerDay: z.number().int(),
      countries: z.array(z.string()),
    }),
    total: z
      .object({ count: z.number().int(), spentMinor: minor, capMinor: minor })
      .describe('Every SMS and WhatsApp message of the day (both count in the budget); spent: each at its own price'),
    sms: z.object({ count: z.number().int(), spentMinor: minor }).describe('The SMS of the day, at SMS_PRICE_MINOR'),
    whatsapp: z
      .object({ count: z.number().int(), spentMinor: minor })
      .describe('The WhatsApp requests of the day, at WHATSAPP_PRICE_MINOR (null: that price is not set)'),
    perCountry: z.array(
      z.object({
        country: z.string(),
        count: z.number().int(),
        whatsappCount: z.number().int().describe('Of count, sent by WhatsApp'),
        spentMinor: minor,
        allowed: z.boolean(),
      }),
    ),
    perAccount: z.array(
      z.object({
        userId: z.string(),
        displayName: z.string().nullable(),
        count: z.number().int(),
        whatsappCount: z.number().int().describe('Of count, sent by WhatsApp'),
        spentMinor: minor,
        cap: z.number().int(),
      }),
    ),
  }),
);
