import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import {
  pushEndpointBody,
  pushKeyResponse,
  pushRemovedResponse,
  pushSubscribedResponse,
  pushSubscriptionBody,
  pushTestResponse,
} from './schemas';
import { sendTestNotification, subscribeBrowser, unsubscribeBrowser } from '../../push/browser-notifications';

/**
 * Notifications by Web Push: the key browsers subscribe with, turning them on and off in a browser, and a test
 * notification. HTTP only; the rules are in service.ts, what is sent and when in requests/requester-notices.ts.
 */
const pushRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const authed = { preHandler: app.auth.requireSession };
  const security = [{ token: [] }];
  const responses = { 401: errorEnvelope, ...errorResponses };
  const tags = ['push'];

  app.get(
    '/api/v1/push/key',
    {
      schema: {
        tags,
        summary: "The key a browser subscribes to Kabari's notifications with (VAPID public key)",
        response: { 200: pushKeyResponse, ...errorResponses },
      },
    },
    async () => ok({ publicKey: app.outbox.vapidPublicKey }),
  );

  app.post(
    '/api/v1/push/subscriptions',
    {
      ...authed,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: "Notifications on in this browser: its PushSubscription, for the signed-in subscriber's notices",
        description:
          'A browser has one subscription: sent again, it is updated; sent by another account signed in there, it ' +
          'moves to that account. An account keeps at most 10 browsers (the oldest goes).',
        security,
        body: pushSubscriptionBody,
        response: { 200: pushSubscribedResponse, ...responses },
      },
    },
    async (request) => ok(await subscribeBrowser(app, request.session!.user.id, request.body)),
  );

  app.post(
    '/api/v1/push/subscriptions/remove',
    {
      ...authed,
      schema: {
        tags,
        summary: 'Notifications off in this browser (its endpoint); only the signed-in subscriber’s own',
        security,
        body: pushEndpointBody,
        response: { 200: pushRemovedResponse, ...responses },
      },
    },
    async (request) => ok(await unsubscribeBrowser(app, request.session!.user.id, request.body.endpoint)),
  );

  app.post(
    '/api/v1/push/test',
    {
      ...authed,
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Send a test notification to every browser where the subscriber turned notifications on',
        description: '409 when notifications are on in none.',
        security,
        response: { 200: pushTestResponse, 409: errorEnvelope, ...responses },
      },
    },
    async (request) => ok(await sendTestNotification(app, request.session!.user, config.publicUrl)),
  );
};

export default pushRoutes;
