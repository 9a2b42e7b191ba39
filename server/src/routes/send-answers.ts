import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope, errorResponses, HttpError, ok, refusalEnvelope } from '../lib/envelope';
import { requestLocale } from '../lib/messages';
import type { CreateOutcome } from '../requests/create-request';
import type { SendLimitsConfig } from '../requests/requests-config';
import { sayRequests } from '../requests/request-messages';
import { limitText } from '../requests/send-rules';
import { cancelResponse, limitedResponse, requestIdParams, requestResponse } from './requests/schemas';

// The HTTP answers the request routes and the link routes share (a link is a request the requester sends
// themselves): here, so that neither route folder imports the other.

export const signedInResponses = { ...errorResponses, 401: errorEnvelope };

/** A link's send: the request, or 403 (no subscription) or 429 (the 3-hour limit). */
export const linkSendResponses = {
  200: requestResponse,
  ...signedInResponses,
  403: refusalEnvelope,
  429: limitedResponse,
};

/** An SMS or email send: as a link's, and 409 for a number or address that opted out. */
export const messageSendResponses = {
  200: requestResponse,
  ...signedInResponses,
  403: refusalEnvelope,
  409: errorEnvelope,
  429: limitedResponse,
};

/** The schema of POST /api/v1/requests/{id}/cancel and of its alias POST /api/v1/links/{id}/cancel. */
export const cancelSchema = {
  tags: ['requests'],
  security: [{ token: [] }],
  params: requestIdParams,
  response: { 200: cancelResponse, ...signedInResponses, 404: errorEnvelope },
};

/**
 * The answer to a send: the request, or a limit's refusal (429 with its time and which limit it was), or the
 * opt-out refusal.
 */
export function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: CreateOutcome,
  what: 'number' | 'email' | 'link',
  limits?: SendLimitsConfig,
) {
  if (outcome.kind === 'opted-out') {
    throw new HttpError(409, sayRequests(what === 'number' ? 'numberOptedOut' : 'emailOptedOut'));
  }
  if (outcome.kind === 'limited') {
    const seconds = Math.max(1, Math.ceil((outcome.nextAllowedAt.getTime() - Date.now()) / 1000));
    return reply
      .code(429)
      .header('retry-after', String(seconds))
      .send({
        status: 429,
        message: limitText(outcome.rule, what, seconds, limits)[requestLocale(request)],
        data: { nextAllowedAt: outcome.nextAllowedAt.toISOString(), rule: outcome.rule },
      });
  }
  return ok({ request: outcome.request });
}
