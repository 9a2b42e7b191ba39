import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import devBillingRoutes from '../dev-billing/routes';
import devOutboxRoutes from '../dev-outbox/routes';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether `given` is the token, in constant time (both are hashed first, so their lengths never show). */
export function isDevToolsToken(given: unknown, token: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(token));
}

/**
 * The /dev tools (the local outbox, and the billing tools when asked for), guarded by a secret rather than by the
 * caller's address: a proxy on this machine makes every caller look local. Without `?token=` set to the dev tools
 * token, a request gets the ordinary 404 of an unknown path, whatever its Host or forwarding headers; the
 * request log never shows the token (lib/request-log.ts). Outside development they are left out of /api/docs.
 */
const devToolsRoutes: FastifyPluginAsync<{ config: Config }> = async (app, options) => {
  const { devTools, nodeEnv } = options.config;
  // Any other /dev path, and every one where the tools are off, is unknown too: without this the web app's page
  // route would answer it with a page, and a missing tool would look different from a guarded one.
  app.all('/dev/*', { schema: { hide: true } }, async (_request, reply) => reply.callNotFound());
  if (!devTools.outbox && !devTools.billing) return;
  // Encapsulated: applies to the /dev routes registered here only.
  app.addHook('onRequest', async (request, reply) => {
    if (isDevToolsToken((request.query as Record<string, unknown>).token, devTools.token)) return;
    reply.callNotFound();
    return reply;
  });
  const hide = nodeEnv !== 'development';
  if (devTools.outbox) {
    await app.register(devOutboxRoutes, {
      hide,
      smsDailyBudget: options.config.requests.sendLimits.smsDailyBudget,
      fallback: options.config,
    });
  }
  if (devTools.billing) await app.register(devBillingRoutes, { hide });
};

export default devToolsRoutes;
