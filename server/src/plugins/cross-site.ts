import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'allowed': the route takes posts from anywhere (a provider's webhook, proven by its signature instead). */
    crossSite?: 'allowed';
  }
}

const say = messagesOf('crossSite');

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins Kabari's own pages have: the public address's. In a local trial (a public address on this machine)
 * also the other loopback spellings of it, and of the port the request came in on, since `localhost` and
 * `127.0.0.1` are the same server to the person trying it.
 */
export function ownOrigin(publicUrl: string): (origin: string, localPort: number | undefined) => boolean {
  const own = new URL(publicUrl);
  const localTrial = own.protocol === 'http:' && LOOPBACK_HOSTS.includes(own.hostname);
  return (origin, localPort) => {
    if (origin === own.origin) return true;
    if (!localTrial) return false;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.includes(url.hostname) || url.origin !== origin) return false;
    const port = url.port || '80';
    return port === (own.port || '80') || (localPort !== undefined && port === String(localPort));
  };
}

/**
 * Refuses a state-changing request that a browser made for another site's page (cross-site request forgery),
 * before its body is read. A browser names the page's origin on every such request (`Origin`) or at least says
 * how it relates to ours (`Sec-Fetch-Site`); a plain form on our own pages passes, so no custom header is needed.
 * A request with neither header does not come from a browser (scripts, server-to-server callers): no page could
 * have made it with the visitor's cookie, and it goes on to the route's own checks.
 */
export default fp(
  async (app, options: { config: Config }) => {
    const isOwn = ownOrigin(options.config.publicUrl);

    function crossSite(request: FastifyRequest): string | null {
      const origin = request.headers.origin;
      if (origin !== undefined) {
        return isOwn(origin, request.socket?.localPort) ? null : `origin ${origin}`;
      }
      const site = request.headers['sec-fetch-site'];
      if (site === undefined || site === 'same-origin' || site === 'none') return null;
      return `sec-fetch-site ${site}`;
    }

    // A callback hook, not an async one: it runs on every request, and a promise for each cost more than the check.
    app.addHook('onRequest', (request, _reply, done) => {
      if (READS.has(request.method) || request.routeOptions.config?.crossSite === 'allowed') return done();
      const refused = crossSite(request);
      if (!refused) return done();
      // Says what came, for an operator whose PUBLIC_URL does not match the address people use.
      request.log.warn(
        { from: refused.slice(0, 200), expected: new URL(options.config.publicUrl).origin },
        'Cross-site request refused',
      );
      done(new HttpError(403, say('crossSite')));
    });
  },
  { name: 'cross-site' },
);
