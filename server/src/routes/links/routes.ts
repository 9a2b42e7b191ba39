import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { ok } from '../../lib/envelope';
import { linkTokenKey } from '../../requests/request-tokens';
import type { RequestSender } from '../../requests/create-request';
import { cancelRequest, sendLinkRequest } from '../../requests/send-rules';
import { cancelSchema, linkSendResponses, sendAnswer } from '../send-answers';
import { createLinkBody } from './schemas';

/** Trackable links: a long random token the requester shares; cancellable; one new link every 3 hours. */
const linkRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { config } = options;
  const security = [{ token: [] }];
  const links = { baseUrl: config.publicUrl, tokenKey: linkTokenKey(app.auth.secrets.hmacSecret) };
  // What sending uses of the server, handed over by name rather than the whole instance.
  const sender: RequestSender = { db: app.db, outbox: app.outbox, auth: app.auth };

  app.post(
    '/api/v1/links',
    {
      preHandler: app.auth.requireSession,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['requests'],
        summary: 'Create a trackable link (subscribers only; one new link every 3 hours)',
        description: `The link expires after ${config.requests.linkExpiryDays} days (LINK_EXPIRY_DAYS) unless cancelled.`,
        security,
        body: createLinkBody,
        response: linkSendResponses,
      },
    },
    async (request, reply) => {
      const outcome = await sendLinkRequest(sender, config, request.session!.user, request.body);
      return sendAnswer(request, reply, outcome, 'link');
    },
  );

  app.post(
    '/api/v1/links/:id/cancel',
    {
      preHandler: app.auth.requireSession,
      schema: {
        ...cancelSchema,
        summary: 'Cancel one of your requests (the same as POST /api/v1/requests/{id}/cancel)',
        description:
          'Works for links and for SMS or email requests; a request already declined, withdrawn or cancelled stays ' +
          'so and is answered with cancelled: false.',
      },
    },
    async (request) => ok(await cancelRequest(app.db, links, request.session!.user.id, request.params.id)),
  );
};

export default linkRoutes;
