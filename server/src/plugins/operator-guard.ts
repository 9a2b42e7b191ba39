import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import {
  OPERATOR_SESSION_MAX_MS,
  operatorOfSession,
  type OperatorIdentity,
  type OperatorSessionView,
} from '../operators/operator-sessions';
import { ownOrigin } from './cross-site';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'open': an operator route that needs no session (enrolment, signing in); the guard still checks the rest. */
    operatorAccess?: 'open';
  }
  interface FastifyRequest {
    /** The signed-in operator, set by the operator guard on the console's routes. */
    operator: OperatorIdentity | undefined;
    /** That operator's session, as GET /api/v1/operator/session shows it. */
    operatorSession: OperatorSessionView | undefined;
  }
}

/** Everything of the console's API lives under this path, and the operator's cookie is sent nowhere else. */
export const OPERATOR_API_PREFIX = '/api/v1/operator';
export const OPERATOR_COOKIE = 'kabari_operator';

/** The console's own budget, well under the API's: an operator clicks, a script scraping the desk does not. */
export const OPERATOR_RATE_LIMIT = { max: 120, timeWindow: '1 minute' } as const;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const say = messagesOf('crossSite');

/** The operator's cookie: no script reads it, no other site's page sends it, and no other path of ours gets it. */
export function operatorCookieOptions(publicUrl: string) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    path: OPERATOR_API_PREFIX,
    secure: new URL(publicUrl).protocol === 'https:',
  };
}

/** Whether a route's path is the console's. */
function isOperatorPath(path: string): boolean {
  return path === OPERATOR_API_PREFIX || path.startsWith(`${OPERATOR_API_PREFIX}/`);
}

/**
 * The console's guard, for every URL under /api/v1/operator: a rate limit of its own; on any change, an Origin that
 * is Kabari's own (a browser always names it; no page elsewhere, and no script without one, may act for an
 * operator); and, but for the routes marked `operatorAccess: 'open'`, a live operator session, or the very answer
 * an unknown URL gets, so nobody else learns that the console is there. Sets `request.operator`.
 */
export default fp(
  async (app, options: { config: Config }) => {
    const isOwn = ownOrigin(options.config.publicUrl);
    const limit = app.rateLimit(OPERATOR_RATE_LIMIT);
    app.decorateRequest('operator', undefined);
    app.decorateRequest('operatorSession', undefined);

    const guard = async (request: FastifyRequest, reply: FastifyReply) => {
      const open = request.routeOptions.config?.operatorAccess === 'open';
      if (!open) {
        const found = await operatorOfSession(app.db, request.cookies?.[OPERATOR_COOKIE]);
        if (!found) {
          reply.callNotFound();
          return reply;
        }
        request.operator = found.identity;
        request.operatorSession = found.view;
      }
      await limit.call(app, request, reply);
      if (reply.sent) return reply;
      if (!READS.has(request.method)) {
        const origin = request.headers.origin;
        if (origin === undefined || !isOwn(origin, request.socket?.localPort)) {
          request.log.warn({ from: origin?.slice(0, 200) ?? null }, 'Operator change without our origin refused');
          throw new HttpError(403, say('crossSite'));
        }
      }
    };
    // On the console's routes only, added as each is declared: every other request goes without this hook at all. A
    // callback hook, not an async one. Placed before the route's other onRequest hooks, so that it runs before the
    // API's per-address limit, which then stands aside for the console's own (one limit counts a request).
    const guardHook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      guard(request, reply).then(
        () => done(),
        (error: Error) => done(error),
      );
    };
    app.addHook('onRoute', (route) => {
      if (!isOperatorPath(route.url)) return;
      const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
      // A GET's HEAD route is declared from the GET's options, which may hold it already.
      if (!hooks.includes(guardHook)) route.onRequest = [guardHook, ...hooks];
    });
  },
  { name: 'operator-guard', dependencies: ['database', 'rate-limit'] },
);

export const OPERATOR_COOKIE_MAX_AGE_SECONDS = OPERATOR_SESSION_MAX_MS / 1000;
