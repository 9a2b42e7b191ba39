import { z } from 'zod';
import { REQUEST_CHANNELS } from '../../db/column-values';
import { envelope } from '../../lib/envelope';
import { LOCALES, inputMessage } from '../../lib/messages';
import { LINK_STATES } from '../../sharing/link-states';

// The consent overview's shapes ("Who can see me", /my-requests): an address proven by a code, then the requests
// sent to it.

export { requestIdParams as overviewRequestParams } from '../requests/schemas';
export { reportBody as overviewReportBody, reportResponse as overviewReportResponse } from '../share/schemas';
export { stateResponse as overviewStateResponse } from '../share/schemas';

const isoTime = z.string().describe('ISO 8601');

const address = z
  .string({ message: inputMessage('myRequests.enterAddress') })
  .trim()
  .min(3, inputMessage('myRequests.enterAddress'))
  .max(254, inputMessage('myRequests.enterAddress'))
  .describe('A phone number (E.164, or national in the first SMS country) or an email address');

export const codeBody = z.object({
  address,
  locale: z.enum(LOCALES).default('en').describe('The language of the message that carries the code'),
});

export const codeResponse = envelope(
  z.object({
    channel: z
      .enum(['sms', 'email'])
      .describe('How the code went; the answer is the same whether or not any request went to the address'),
  }),
);

export const sessionBody = z.object({
  address,
  code: z
    .string({ message: inputMessage('common.enterCode') })
    .trim()
    .regex(/^\d{6}$/, inputMessage('common.invalidCode')),
});

export const sessionResponse = envelope(z.object({ sessionEndsAt: isoTime }));

export const sessionEndResponse = envelope(z.object({ ended: z.literal(true) }));

/** What the overview lists: the data of GET /api/v1/my-requests, and of the page rendered for a session. */
const overviewData = z.object({
  sessionEndsAt: isoTime.describe('The session ends then, at most 15 minutes after the code was entered'),
  channel: z.enum(['sms', 'email']).describe('What kind of address was proven'),
  requests: z.array(
    z.object({
      id: z.string(),
      requesterName: z.string().describe("The requester's display name ('' once their account is gone)"),
      channel: z.enum(REQUEST_CHANNELS),
      state: z.enum(LINK_STATES),
      askedAt: isoTime,
      expiresAt: isoTime,
      liveUntil: isoTime.nullable().describe('While live sharing runs: until when'),
      endedAt: isoTime.nullable().describe('When it ended (declined, stopped, erased, cancelled or expired)'),
      looks: z
        .object({ count: z.number().int(), lastAt: isoTime.nullable() })
        .describe('How often the requester opened the map of what was shared, and when they last had it open'),
      shared: z
        .object({ positions: z.number().int(), lastAt: isoTime.nullable() })
        .describe('How many positions were shared and when the last was taken; never where'),
      voiceNote: z.object({ durationMs: z.number().int(), text: z.string().nullable() }).nullable(),
    }),
  ),
});

export const overviewResponse = envelope(overviewData);

/**
 * What /my-requests is rendered with by the server (a step and what it shows), so that the page works without its
 * script: the address to prove (with what was typed, after a refusal), the code sent to it, or the list of a live
 * session; `error` is the server's words for a form it refused. Named in the OpenAPI document, as the recipient pages' data is, for the browser's types.
 */
export const overviewPageView = z
  .discriminatedUnion('step', [
    z.object({ step: z.literal('address'), address: z.string().optional(), error: z.string().optional() }),
    z.object({ step: z.literal('code'), address: z.string(), error: z.string().optional() }),
    z.object({ step: z.literal('list'), overview: overviewData, error: z.string().optional() }),
  ])
  .meta({ id: 'OverviewPageView' });

export const everythingResponse = envelope(
  z.object({
    ended: z.number().int().describe('Shares ended (Stop everything) or stopped and erased (Erase everything)'),
    declined: z.number().int().describe('Requests still waiting, declined'),
  }),
);

export const optOutResponse = envelope(z.object({ optedOut: z.literal(true) }));
