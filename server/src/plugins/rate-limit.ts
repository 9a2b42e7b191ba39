import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/envelope';
import { sayCommon } from '../lib/messages';

/**
 * A generous per-IP ceiling for the API; routes open to abuse (login, codes, reports) set tighter limits
 * with `config.rateLimit`. Counters live in this process; the limits that must hold across instances
 * (login and code throttling) are enforced in the database.
 */
export default fp(
  async (app) => {
    // The web app's files and pages are cheap and cacheable, and one page load fetches dozens of them: counting them
    // would throttle everyone behind one address (a carrier's NAT, an office) after a few page loads. Their routes go
    // without the limiter (set here, before the limiter sees each route), rather than every API request asking
    // whether it is one of them. An /api/ address answered by the pages' catch-all route is not found, and the
    // not-found handler counts it.
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/') && route.config?.rateLimit === undefined) {
        route.config = { ...route.config, rateLimit: false };
      }
    });
    await app.register(rateLimit, {
      global: true,
      max: 600,
      timeWindow: '1 minute',
      // A refusal (429) says when to try again (Retry-After and the x-ratelimit-* headers); an answer within the
      // limit does not advertise it: nothing of ours reads it, and the three headers were work on every answer.
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      errorResponseBuilder: (_request, context) =>
        new HttpError(context.statusCode, sayCommon('tooManyRequests', { wait: Math.ceil(context.ttl / 1000) })),
    });
  },
  { name: 'rate-limit' },
);
