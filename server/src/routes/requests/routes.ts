import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { errorEnvelope, errorResponses, HttpError, ok, refusalEnvelope } from '../../lib/envelope';
import { requestLocale, sayCommon } from '../../lib/messages';
import { deleteOwnedRequest } from '../../requests/cancel-request';
import { requestsShownTo, type LinkUrlSource } from '../../requests/location-request-view';
import type { RequestListPage } from '../../requests/request-list-cache';
import { SerializedAnswers } from '../../lib/serialized-answers';
import { linkTokenKey, sealLegacyLinkTokens } from '../../requests/request-tokens';
import { rehashLegacyTargetKeys } from '../../requests/send-limits';
import { listTemplates, NOTE_MAX_LENGTH } from '../../requests/templates';
import { cancelSchema, messageSendResponses, sendAnswer, signedInResponses } from '../send-answers';
import {
  emailBody,
  limitQuery,
  limitResponse,
  listQuery,
  listResponse,
  previewBody,
  previewResponse,
  requestIdParams,
  smsBody,
  successResponse,
  templatesQuery,
  templatesResponse,
} from './schemas';
import {
  cancelRequest,
  previewMessage,
  sendMessageRequest,
  TARGET_LIMIT_CHECKS,
  targetLimit,
} from '../../requests/send-rules';
import type { RequestSender } from '../../requests/create-request';

/** Location requests by SMS and email, their history, and the limits. Every route is owner-checked. */
const requestRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { config } = options;
  const expiryDays = config.requests.linkExpiryDays;
  const limits = config.requests.sendLimits;
  const security = [{ token: [] }];
  const links: LinkUrlSource = {
    baseUrl: config.publicUrl,
    tokenKey: linkTokenKey(app.auth.secrets.hmacSecret),
  };
  const historyPages = new SerializedAnswers<RequestListPage>();
  // What sending uses of the server, handed over by name rather than the whole instance.
  const sender: RequestSender = { db: app.db, outbox: app.outbox, auth: app.auth };

  // 3-hour slots stored under a raw number or address before the keys were hashed move to their hash; links'
  // tokens stored in the clear before tokens were hashed are sealed.
  app.addHook('onReady', async () => {
    const moved = await rehashLegacyTargetKeys(app.db, app.auth.secrets.hmacSecret);
    if (moved > 0) app.log.info({ moved }, 'Send limits stored under raw targets moved to keyed hashes');
    const sealed = await sealLegacyLinkTokens(app.db, app.auth.secrets.hmacSecret);
    if (sealed > 0) app.log.info({ sealed }, 'Link tokens stored in the clear were sealed');
  });

  app.get(
    '/api/v1/requests/templates',
    {
      schema: {
        tags: ['requests'],
        summary: 'The predefined message templates of a channel, in a language',
        description: 'The fixed part of every template names the requester and carries the consent and opt-out links.',
        querystring: templatesQuery,
        response: { 200: templatesResponse, ...errorResponses },
      },
    },
    async (request) =>
      ok({
        items: listTemplates(request.query.channel, request.query.locale),
        noteMaxLength: NOTE_MAX_LENGTH[request.query.channel],
      }),
  );

  app.post(
    '/api/v1/requests/preview',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: 'The exact message a request would send (the link token shows as …)',
        security,
        body: previewBody,
        response: { 200: previewResponse, ...signedInResponses },
      },
    },
    async (request) => ok(previewMessage(config, request.session!.user, request.body)),
  );

  app.get(
    '/api/v1/requests/limit',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: 'When the next request to a target (or the next link) is possible, and whether the target opted out',
        description:
          'For a number or an email address: subscribers only (403, like sending), and at most ' +
          `${TARGET_LIMIT_CHECKS.limit} such checks an hour per account (429 with Retry-After). ` +
          "The link limit is the caller's own and needs neither.",
        security,
        querystring: limitQuery,
        response: { 200: limitResponse, ...signedInResponses, 403: refusalEnvelope, 429: errorEnvelope },
      },
    },
    async (request) => {
      const limit = await targetLimit(sender, config, request.session!.user.id, request.query);
      const { refusal } = limit;
      return ok({
        nextAllowedAt: limit.nextAllowedAt?.toISOString() ?? null,
        optedOut: limit.optedOut,
        ...(request.query.channel === 'link' ? { linkExpiryDays: expiryDays } : {}),
        // The link check says it too: unthrottled, it is how a page with no number yet learns it.
        ...(request.query.channel !== 'email' ? { whatsapp: sender.outbox.whatsappTransport !== 'none' } : {}),
        ...(refusal
          ? {
              refusal: {
                rule: refusal.rule,
                message: refusal.texts[requestLocale(request)],
                nextAllowedAt: refusal.nextAllowedAt,
              },
            }
          : {}),
      });
    },
  );

  app.post(
    '/api/v1/requests/sms',
    {
      preHandler: app.auth.requireSession,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['requests'],
        summary: 'Send a location request to a number, by SMS or WhatsApp (subscribers only)',
        description:
          'One SMS or email to the same target every 3 hours, whoever sends it (429 with data.nextAllowedAt, ' +
          'data.rule target). Each account sends at most SMS_PER_ACCOUNT_PER_DAY SMS a day (UTC; rule ' +
          'account-day), and all accounts together at most SMS_DAILY_BUDGET (rule sms-budget; the operator is ' +
          'emailed once that day). Only numbers of the SMS_COUNTRIES get an SMS (400 otherwise). A number that ' +
          'opted out is never messaged (409). 400 when the note holds a link, or when the display name cannot ' +
          'appear in a message. 403 when the subscription has expired. channel whatsapp (where GET ' +
          '/api/v1/requests/limit says whatsapp: true, else 400) sends the approved WhatsApp template instead, ' +
          'counted as an SMS; if the number has no WhatsApp, the request goes once by SMS instead, within the same ' +
          'limits.',
        security,
        body: smsBody,
        response: messageSendResponses,
      },
    },
    async (request, reply) => {
      const { channel, ...body } = request.body;
      const outcome = await sendMessageRequest(sender, config, request.session!.user, {
        channel: 'sms',
        byWhatsApp: channel === 'whatsapp',
        ...body,
      });
      return sendAnswer(request, reply, outcome, 'number', limits);
    },
  );

  app.post(
    '/api/v1/requests/email',
    {
      preHandler: app.auth.requireSession,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['requests'],
        summary: 'Send a location request by email (subscribers only)',
        description:
          'The same limits and refusals as the SMS request; the daily limit is EMAIL_PER_ACCOUNT_PER_DAY, and ' +
          'there is no budget or country list for email.',
        security,
        body: emailBody,
        response: messageSendResponses,
      },
    },
    async (request, reply) => {
      const outcome = await sendMessageRequest(sender, config, request.session!.user, {
        channel: 'email',
        ...request.body,
      });
      return sendAnswer(request, reply, outcome, 'email', limits);
    },
  );

  app.get(
    '/api/v1/requests',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: "The signed-in user's requests, newest first, with delivery state and last position",
        description:
          'Each request shown with a last position while its recipient shares counts as a look on their page.',
        security,
        querystring: listQuery,
        response: { 200: listResponse, ...signedInResponses },
      },
    },
    async (request, reply) => {
      const { page, pageSize } = request.query;
      const listed = await requestsShownTo(app.db, app.requestLists, request.session!.user.id, page, pageSize, links);
      // The cache's key holds the page and its size: every read of a cached page is the same bytes until it changes.
      return historyPages.send(reply, listed, ({ items, total }) => ok({ items, total, page, pageSize }));
    },
  );

  app.post(
    '/api/v1/requests/:id/cancel',
    {
      preHandler: app.auth.requireSession,
      schema: {
        ...cancelSchema,
        summary: 'Cancel one of your requests (SMS, email or link): its link stops working and any sharing ends',
        description:
          'Only a request not yet answered, sharing, or stopped can be cancelled; one already declined, withdrawn ' +
          "or cancelled is answered unchanged with cancelled: false. Another user's request answers 404.",
      },
    },
    async (request) => ok(await cancelRequest(app.db, links, request.session!.user.id, request.params.id)),
  );

  app.delete(
    '/api/v1/requests/:id',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: 'Delete one of your requests with its positions and events',
        security,
        params: requestIdParams,
        response: { 200: successResponse, ...signedInResponses, 404: errorEnvelope },
      },
    },
    async (request) => {
      // Another user's request answers exactly like one that does not exist.
      if (!(await deleteOwnedRequest(app.db, request.session!.user.id, request.params.id))) {
        throw new HttpError(404, sayCommon('requestNotFound'));
      }
      return ok({ success: true as const });
    },
  );
};

export default requestRoutes;
