import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';
import { TEMPLATE_IDS } from '../../requests/templates';
import { LIVE_END_REASONS, WHATSAPP_FALLBACKS } from '../../db/column-values';
import { DELIVERY_FAILURE_REASONS } from '../../messages/twilio-status';
import { emailField } from '../auth/schemas';
import { countryField, localeField } from '../numbers/schemas';
import { positionSchema } from '../share/schemas';
import { voiceNote, voiceNoteField } from '../voice-notes/schemas';

export const channelField = z.enum(['sms', 'email'], { message: inputMessage('requests.chooseChannel') });
export const templateIdField = z
  .enum(TEMPLATE_IDS, { message: inputMessage('requests.chooseTemplate') })
  .describe(`One of ${TEMPLATE_IDS.join(', ')}`);
// The length and content rules depend on the channel: checked by checkNote in the handler.
export const noteField = z
  .string({ message: inputMessage('requests.noteNotText') })
  .max(2000)
  .default('');

export const locationRequest = z.object({
  id: z.string(),
  channel: z.enum(['sms', 'email', 'link']),
  target: z.string().nullable().describe('E.164 number (sms), email address (email), null (link)'),
  title: z.string().nullable().describe("A link's title"),
  url: z.string().nullable().describe("A link's consent URL (links only: a message's link belongs to its recipient)"),
  status: z.enum(['pending', 'ip_located', 'gps_tracked']),
  consent: z.enum(['none', 'declined', 'sharing', 'stopped', 'withdrawn', 'cancelled']),
  delivery: z
    .enum(['queued', 'sent', 'delivered', 'read', 'failed', 'outbox'])
    .nullable()
    .describe(
      "The message's state (null for a link): queued (waiting or retrying), sent (the SMS or email provider " +
        "accepted it), delivered and read (the provider's delivery receipt said so; for an email, delivered is " +
        "the recipient's mail server accepting it in the SMTP exchange), failed (given up, or the " +
        "provider's receipt said it failed; see deliveryFailure), outbox (no provider configured: kept in the " +
        'local outbox, not sent)',
    ),
  deliveryFailure: z
    .object({ reason: z.enum(DELIVERY_FAILURE_REASONS) })
    .nullable()
    .describe(
      'Why the message did not arrive, when the provider said (its receipt, or its refusal of the message): ' +
        'unreachable (the phone was off or out of coverage), invalid-number (no such number, or it cannot take ' +
        'the message), blocked (the recipient or their carrier refused it), no-whatsapp (the number has no ' +
        'WhatsApp), no-mailbox (an email: the receiving server knows no such address, SMTP 550, 551, 553), ' +
        'mail-refused (an email: any other permanent SMTP refusal), other. Null otherwise.',
    ),
  whatsapp: z
    .object({ fallback: z.enum(WHATSAPP_FALLBACKS).nullable() })
    .nullable()
    .describe(
      'Sent by WhatsApp (null for any other request). fallback: the number had no WhatsApp and the request went ' +
        'by SMS instead (sms: delivery is then the SMS), or could not (limit: the daily SMS limits were reached; ' +
        'opted-out: the number opted out meanwhile); null while WhatsApp is the way.',
    ),
  requestTime: z.string(),
  openedTime: z.string().nullable(),
  locatedTime: z.string().nullable(),
  liveUntil: z.string().nullable(),
  liveEnd: z
    .object({ at: z.string(), reason: z.enum(LIVE_END_REASONS).nullable() })
    .nullable()
    .describe(
      'The last live window ended before its time: when, and why (the recipient’s browser: unsupported, denied, ' +
        'failed, disabled; silent: the page stopped answering, closed or the phone asleep). Null otherwise.',
    ),
  expiresAt: z.string(),
  lastPosition: positionSchema.nullable(),
  voiceNote: voiceNote
    .nullable()
    .describe('The voice note sent with the request (its audio: GET /api/v1/voice-notes/{id}/audio)'),
  voiceReply: voiceNote.nullable().describe("The recipient's voice reply, while they share (the same audio route)"),
});

export const requestResponse = envelope(z.object({ request: locationRequest }));

export const cancelResponse = envelope(
  z.object({
    request: locationRequest,
    cancelled: z
      .boolean()
      .describe('true: cancelled now; false: it had already ended (declined, withdrawn or cancelled) and is unchanged'),
  }),
);

export const limitRuleField = z
  .enum(['target', 'link', 'account-day', 'sms-budget'])
  .describe(
    "target: the number or address's 3-hour slot; link: the requester's 3-hour link slot; account-day: the " +
      "account's daily SMS or email limit; sms-budget: everyone's SMS for the day (SMS_DAILY_BUDGET) are spent",
  );

/** 429: the send limit, with when the next send is possible. */
export const limitedResponse = envelope(
  z.object({ nextAllowedAt: z.string(), rule: limitRuleField.optional() }).nullable(),
).describe(
  'A send limit: data.nextAllowedAt says when the next send is possible (also in Retry-After), data.rule which ' +
    'limit it was. data is null when the per-address request rate was exceeded instead.',
);

export const templatesQuery = z.object({
  channel: channelField.default('sms'),
  locale: localeField.default('en'),
});

export const templatesResponse = envelope(
  z.object({
    items: z.array(
      z.object({
        id: templateIdField,
        channel: channelField,
        locale: localeField,
        name: z.string(),
        defaultNote: z.string(),
      }),
    ),
    noteMaxLength: z
      .number()
      .int()
      .describe("The longest personal note the channel takes (after trimming): the client's limit and counter"),
  }),
);

export const previewBody = z.object({
  channel: channelField,
  templateId: templateIdField,
  note: noteField,
  locale: localeField,
});

export const previewResponse = envelope(
  z.object({
    subject: z.string().optional().describe('Email only'),
    text: z.string().describe('The exact message; the link token shows as … until the request is sent'),
  }),
);

export const limitQuery = z.object({
  channel: z.enum(['sms', 'email', 'link'], { message: inputMessage('requests.chooseAnyChannel') }),
  number: z.string().max(64).optional(),
  country: countryField.optional(),
  email: z.string().max(254).optional(),
});

export const limitResponse = envelope(
  z.object({
    nextAllowedAt: z.string().nullable().describe('null: a send is possible now'),
    optedOut: z.boolean(),
    refusal: z
      .object({
        rule: z.enum(['country', 'account-day', 'sms-budget']),
        message: z.string().describe("What the requester is told, in the caller's language"),
        nextAllowedAt: z.string().nullable().describe('When it lifts (the next day, UTC); null for a country'),
      })
      .optional()
      .describe(
        'Only when a send would be refused today for another reason than the 3-hour slot: the number is in a ' +
          'country Kabari does not send SMS to (SMS_COUNTRIES), or the daily limits are reached',
      ),
    linkExpiryDays: z
      .number()
      .int()
      .optional()
      .describe('channel=link: how many days a new link works (LINK_EXPIRY_DAYS)'),
    whatsapp: z
      .boolean()
      .optional()
      .describe(
        'channel=sms: whether the request may go by WhatsApp (POST /api/v1/requests/sms with channel whatsapp): ' +
          'a WhatsApp sender is configured, or, without Twilio, the local outbox keeps it as it keeps SMS. ' +
          'channel=link answers it too, for a page that has no number yet',
      ),
  }),
);

export const smsBody = z.object({
  channel: z
    .enum(['sms', 'whatsapp'], { message: inputMessage('requests.chooseNumberChannel') })
    .default('sms')
    .describe('How the request goes to the number: sms, or whatsapp where the limit check says whatsapp: true'),
  number: z.string({ message: inputMessage('common.enterNumber') }).max(64, inputMessage('common.enterValidMobile')),
  country: countryField.optional(),
  templateId: templateIdField,
  note: noteField,
  locale: localeField,
  voiceNote: voiceNoteField,
});

export const emailBody = z.object({
  email: emailField,
  templateId: templateIdField,
  note: noteField,
  locale: localeField,
  voiceNote: voiceNoteField,
});

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
});

export const listResponse = envelope(
  z.object({
    items: z.array(locationRequest),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
);

export const requestIdParams = z.object({ id: z.uuid({ message: inputMessage('common.requestNotFound') }) });

export const successResponse = envelope(z.object({ success: z.literal(true) }));
