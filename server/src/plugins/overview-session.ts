import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { OverviewDeps } from '../sharing/consent-overview';
import { shareThrottle } from '../sharing/share-throttle';

// The consent overview's session ("Who can see me"), as the JSON routes and the page's plain forms both use it: one
// cookie, set and cleared in one place, so the two ways in cannot differ on its rules.

/** The overview's session cookie: random, HttpOnly, SameSite=Strict, sent only to the overview's API and pages. */
const OVERVIEW_COOKIE = 'kabari-overview';
const OVERVIEW_COOKIE_PATHS = ['/api/v1/my-requests', '/my-requests', '/id/my-requests'] as const;

/** The session's cookie value as the browser sent it (checked by the overview's rules, not here). */
export function overviewSessionOf(request: FastifyRequest): string | undefined {
  return request.cookies[OVERVIEW_COOKIE];
}

/** Gives the browser the session (HTTPS-only where the site is), on every path that uses it; `''` at 0 clears it. */
export function setOverviewSession(reply: FastifyReply, publicUrl: string, value: string, expires: Date): void {
  const secure = new URL(publicUrl).protocol === 'https:';
  for (const path of OVERVIEW_COOKIE_PATHS) {
    reply.setCookie(OVERVIEW_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure, path, expires });
  }
}

/** Clears the session's cookie on every path (Quick exit, or a session that ended). */
export function clearOverviewSession(reply: FastifyReply, publicUrl: string): void {
  setOverviewSession(reply, publicUrl, '', new Date(0));
}

/** What the overview's rules are given, from what the server holds open and its configuration. */
export function overviewDeps(
  app: Pick<FastifyInstance, 'db' | 'outbox' | 'auth' | 'geo'>,
  config: Pick<Config, 'publicUrl' | 'requests' | 'authThrottleScale'>,
): OverviewDeps {
  return {
    db: app.db,
    outbox: app.outbox,
    hmacSecret: app.auth.secrets.hmacSecret,
    publicUrl: config.publicUrl,
    geocoder: app.geo.reverseGeocoder,
    sendLimits: config.requests.sendLimits,
    shareThrottle: shareThrottle(app.db, app.auth.secrets.hmacSecret, config.authThrottleScale),
    throttleScale: config.authThrottleScale,
  };
}
