import { z } from 'zod';
import { envelope } from '../../lib/envelope';

// `deleted`: the requester deleted the request (or their account); only opt-out and report still work.
export const LINK_STATES = [
  'open',
  'sharing',
  'declined',
  'stopped',
  'withdrawn',
  'cancelled',
  'expired',
  'deleted',
] as const;
export type LinkState = (typeof LINK_STATES)[number];

export const LIVE_MINUTES = [15, 60, 480] as const;

export const REPORT_REASONS = ['unknown_requester', 'harassment', 'stalking', 'spam', 'other'] as const;

export const tokenParams = z.object({
  // Tokens are long random strings; anything else is simply not found (404), like an unknown token.
  token: z.string().min(1).max(200),
});

const isoTime = z.string().describe('ISO 8601');

export const placeSchema = z
  .object({
    name: z.string().nullable(),
    region: z.string().nullish(),
    countryCode: z.string().nullable().describe('ISO 3166-1 alpha-2'),
    distanceKm: z.number().nullish().describe('Whole kilometres from the named place, when not in it'),
  })
  .describe('The parts of the address, for the reader to write in their language (null on older positions)');

export const positionSchema = z.object({
  id: z.number().int(),
  source: z.enum(['ip', 'gps']),
  latitude: z.number(),
  longitude: z.number(),
  accuracyMeters: z.number().nullable(),
  address: z.string().nullable(),
  place: placeSchema.nullable().optional(),
  recordedAt: isoTime,
});

export const attributionSchema = z.object({
  text: z.string(),
  url: z.string(),
  license: z.string(),
});

export const linkResponse = envelope(
  z.object({
    requesterName: z.string(),
    channel: z.enum(['sms', 'email', 'link']),
    state: z.enum(LINK_STATES),
    expiresAt: isoTime,
    liveUntil: isoTime.nullable(),
    canOptOut: z.boolean(),
    shared: z
      .object({ approximate: z.boolean(), precise: z.boolean() })
      .describe('What the recipient has shared through this link so far (nothing after Stop and erase)'),
  }),
);

export const consentResponse = envelope(
  z.object({
    state: z.enum(LINK_STATES),
    approximate: positionSchema.nullable().describe('The place recorded from the IP address; null when unknown'),
    attribution: attributionSchema,
  }),
);

export const positionBody = z.object({
  latitude: z.number({ message: 'latitude must be a number' }).min(-90).max(90),
  longitude: z.number({ message: 'longitude must be a number' }).min(-180).max(180),
  accuracy: z
    .number({ message: 'accuracy must be a number of metres' })
    .min(0)
    .max(1_000_000)
    .describe('metres, as the browser reports it'),
  recordedAt: z.iso.datetime({ offset: true, message: 'recordedAt must be an ISO timestamp' }),
});

export const positionResponse = envelope(z.object({ accepted: z.boolean(), liveUntil: isoTime.nullable() }));

export const liveBody = z.object({
  minutes: z.union([z.literal(15), z.literal(60), z.literal(480)], { message: 'minutes must be 15, 60 or 480' }),
});

export const liveResponse = envelope(z.object({ liveUntil: isoTime }));

export const liveEndBody = z.object({
  liveUntil: z.iso
    .datetime({ offset: true, message: 'liveUntil must be the ISO time of the live window to end' })
    .describe('The end time of the window the page is ending, as the server gave it: a newer window is kept'),
});

export const liveEndResponse = envelope(
  z.object({
    liveUntil: isoTime.nullable().describe('null: no live window is open now; a time: a newer window, kept'),
  }),
);

export const stateResponse = envelope(z.object({ state: z.enum(LINK_STATES) }));

export const optOutResponse = envelope(z.object({ optedOut: z.literal(true) }));

export const reportBody = z.object({
  reason: z.enum(REPORT_REASONS, { message: `reason must be one of ${REPORT_REASONS.join(', ')}` }),
  details: z
    .string()
    .trim()
    .max(2000, 'details are longer than 2000 characters')
    .nullish()
    .transform((value) => (value ? value : null)),
});

export const reportResponse = envelope(z.object({ id: z.string() }));
