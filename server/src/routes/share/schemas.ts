import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';
import { LIVE_END_REASONS, REPORT_REASONS, type LiveEndReason } from '../../db/column-values';
import { LINK_STATES } from '../../sharing/link-states';

/** The reasons a page gives for ending its live window (`silent` is the server's own, for a page gone quiet). */
const PAGE_LIVE_END_REASONS = LIVE_END_REASONS.filter(
  (reason): reason is Exclude<LiveEndReason, 'silent'> => reason !== 'silent',
) as [Exclude<LiveEndReason, 'silent'>, ...Exclude<LiveEndReason, 'silent'>[]];

export const tokenParams = z.object({
  // Tokens are long random strings; anything else is simply not found (404), like an unknown token.
  token: z.string().min(1).max(200),
});

const isoTime = z.string().describe('ISO 8601');

export const linkEventsStream = z
  .string()
  .describe(
    'text/event-stream. Events: `changed` (the request changed: ask for the link again); comment lines are heartbeats.',
  );

export const placeSchema = z
  .object({
    name: z.string().nullable(),
    region: z.string().nullish(),
    countryCode: z.string().nullable().describe('ISO 3166-1 alpha-2'),
    distanceKm: z.number().nullish().describe('Whole kilometres from the named place, when not in it'),
  })
  .describe('The parts of the address, for the reader to write in their language (null on older positions)');

/** A shared position (docs/api-v1.md `Position`): in the share, positions and requests routes alike. */
export const positionSchema = z.object({
  id: z.number().int(),
  source: z.enum(['ip', 'gps']).describe('ip: approximate, from the DB-IP database; gps: the browser'),
  latitude: z.number(),
  longitude: z.number(),
  accuracyMeters: z.number().nullable().describe('Radius of the likely area, in metres'),
  address: z.string().nullable().describe('The nearest named place, in English'),
  place: placeSchema.nullable().optional(),
  recordedAt: isoTime.describe('When the position was taken (ISO 8601)'),
});

export const attributionSchema = z.object({
  text: z.string(),
  url: z.string(),
  license: z.string(),
});

export const linkView = z.object({
  requesterName: z.string(),
  channel: z.enum(['sms', 'email', 'link']),
  state: z.enum(LINK_STATES),
  expiresAt: isoTime,
  liveUntil: isoTime.nullable(),
  canOptOut: z.boolean(),
  shared: z
    .object({ approximate: z.boolean(), precise: z.boolean() })
    .describe('What the recipient has shared through this link so far (nothing after Stop and erase)'),
  voiceNote: z
    .object({ durationMs: z.number().int(), text: z.string().nullable() })
    .nullable()
    .describe('The voice note sent with the request (its audio: GET …/voice-note); null when none, or once ended'),
  voiceReply: z
    .object({ durationMs: z.number().int(), recordedTime: isoTime })
    .nullable()
    .describe("The recipient's own voice reply (its audio: GET …/voice-reply); null when none"),
});

export const linkResponse = envelope(linkView);

export const voiceReplyResponse = envelope(
  z.object({ voiceReply: z.object({ durationMs: z.number().int(), recordedTime: isoTime }) }),
);

export const consentResponse = envelope(
  z.object({
    state: z.enum(LINK_STATES),
    approximate: positionSchema.nullable().describe('The place recorded from the IP address; null when unknown'),
    attribution: attributionSchema,
  }),
);

export const positionBody = z.object({
  latitude: z
    .number({ message: inputMessage('shareInput.latitude') })
    .min(-90)
    .max(90),
  longitude: z
    .number({ message: inputMessage('shareInput.longitude') })
    .min(-180)
    .max(180),
  accuracy: z
    .number({ message: inputMessage('shareInput.accuracy') })
    .min(0)
    .max(1_000_000)
    .describe('metres, as the browser reports it'),
  recordedAt: z.iso.datetime({ offset: true, message: inputMessage('shareInput.recordedAt') }),
});

export const positionResponse = envelope(z.object({ accepted: z.boolean(), liveUntil: isoTime.nullable() }));

export const liveBody = z.object({
  minutes: z.union([z.literal(15), z.literal(60), z.literal(480)], { message: inputMessage('shareInput.minutes') }),
});

export const liveResponse = envelope(z.object({ liveUntil: isoTime }));

const watchedWindow = z.iso
  .datetime({ offset: true, message: inputMessage('shareInput.liveUntil') })
  .describe('The end time of the window the page watches, as the server gave it: a newer window is kept');

export const liveEndBody = z.object({
  liveUntil: watchedWindow,
  reason: z
    .enum(PAGE_LIVE_END_REASONS, {
      message: inputMessage('shareInput.liveEndReason', { reasons: PAGE_LIVE_END_REASONS.join(', ') }),
    })
    .optional()
    .describe('Why the page ended it: the browser has no geolocation, refused, failed, or location is off'),
});

export const liveHeardBody = z.object({ liveUntil: watchedWindow });

export const liveEndResponse = envelope(
  z.object({
    liveUntil: isoTime.nullable().describe('null: no live window is open now; a time: a newer window, kept'),
  }),
);

export const stateResponse = envelope(z.object({ state: z.enum(LINK_STATES) }));

export const optOutResponse = envelope(z.object({ optedOut: z.literal(true) }));

export const reportBody = z.object({
  reason: z.enum(REPORT_REASONS, {
    message: inputMessage('shareInput.reason', { reasons: REPORT_REASONS.join(', ') }),
  }),
  details: z
    .string()
    .trim()
    .max(2000, inputMessage('shareInput.detailsTooLong'))
    .nullish()
    .transform((value) => (value ? value : null)),
});

export const reportResponse = envelope(z.object({ id: z.string() }));

// What a recipient's page is rendered with and hydrates from (server/src/web/recipient-pages.ts): its address and
// the link exactly as GET /api/v1/share/links/{token} answers it, so that both show the same link.
export const recipientLink = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('invalid') }),
  z.object({ kind: z.literal('error') }),
  z.object({ kind: z.literal('ready'), link: linkView }),
]);

/** A form sent without the page's script that was refused: which, and the server's words (remote-share's `failure`). */
export const recipientFailure = z.object({
  action: z.enum(['share', 'decline', 'opt-out', 'report']),
  message: z.string(),
});

/**
 * What this browser shared through the plain form, for the thank-you page to name (remote-share's `shared`, its
 * ShareSummary): the approximate place, in the API's place parts, or that none was found.
 */
export const sharedSummary = z.object({
  approximateAddress: z.string().nullable(),
  approximatePlace: placeSchema.nullable(),
  approximateKnown: z.boolean(),
  preciseAccuracy: z.null(),
});

// Named in the OpenAPI document (components.schemas.RecipientPageData) though no route answers it, and kept here, with
// the link it carries, so that the document names it whether or not this server serves the web app: the host and
// remote-share read the page's data with the types generated from that document.
export const recipientPageData = z
  .object({
    pathname: z.string(),
    search: z.string(),
    link: recipientLink,
    failure: recipientFailure.optional(),
    shared: sharedSummary.optional(),
  })
  .meta({ id: 'RecipientPageData' });
