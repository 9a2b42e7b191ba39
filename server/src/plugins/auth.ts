import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PasswordCipher } from '../auth/password-cipher';
import { loadServerSecrets, type ServerSecrets } from '../auth/server-secrets';
import { AccountCache, ACCOUNT_CHANGES_CHANNEL, DEFAULT_ACCOUNT_CACHE_OPTIONS } from '../auth/account-cache';
import { findSession, tokenHash, type Session } from '../auth/sessions';
import type { Config } from '../config';
import { HttpError } from '../lib/envelope';
import { sayCommon } from '../lib/messages';

export interface Auth {
  secrets: ServerSecrets;
  passwordCipher: PasswordCipher;
  /**
   * The session the request's token belongs to, or null; looked up once per request. Reads (GET, HEAD) may be
   * answered from the account cache; anything else reads the database.
   */
  sessionOf(request: FastifyRequest): Promise<Session | null>;
  /** Sessions and subscriptions of the last few seconds (see account-cache.ts). */
  cache: AccountCache;
  /** preHandler for routes that need a signed-in user: 401 otherwise. */
  requireSession(request: FastifyRequest): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
  }
  interface FastifyRequest {
    /** Set by auth.requireSession (and cached by auth.sessionOf). */
    session: Session | null | undefined;
  }
}

/** The token: `Authorization: <token>` or `Authorization: Bearer <token>` (spec §7), else the `token` cookie. */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (header) return header.replace(/^Bearer\s+/i, '');
  const cookie = request.cookies?.token;
  return cookie ? cookie : undefined;
}

export default fp(
  async (app, options: { config: Config }) => {
    const secrets = await loadServerSecrets(app.db, options.config);
    const passwordCipher = new PasswordCipher(secrets.rsaPrivateKeyPem, secrets.hmacSecret);

    app.decorateRequest('session', undefined);

    const cache = new AccountCache(DEFAULT_ACCOUNT_CACHE_OPTIONS);
    const stopListening = await app.dbClient.listen(ACCOUNT_CHANGES_CHANNEL, {
      onNotification: (userId) => cache.forgetUser(userId),
      onReconnected: () => cache.clear(),
    });
    app.addHook('onClose', async () => {
      // The database may already be closed, which stops listening as well.
      await stopListening().catch(() => undefined);
    });

    // A user's own write (sign out, a new password, a cancelled subscription) is seen by their next read on this
    // instance at once, without waiting for the database's notice.
    app.addHook('onSend', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.session) {
        cache.forgetUser(request.session.user.id);
      }
    });

    async function lookUp(token: string | undefined, method: string): Promise<Session | null> {
      if (!token) return null;
      if (method !== 'GET' && method !== 'HEAD') return findSession(app.db, token);
      return cache.get(
        `session:${tokenHash(token)}`,
        () => findSession(app.db, token),
        (session) => session?.user.id ?? null,
      );
    }

    async function sessionOf(request: FastifyRequest): Promise<Session | null> {
      if (request.session !== undefined) return request.session;
      request.session = await lookUp(tokenOf(request), request.method);
      return request.session;
    }

    app.decorate('auth', {
      secrets,
      passwordCipher,
      sessionOf,
      cache,
      async requireSession(request) {
        if (!(await sessionOf(request))) throw new HttpError(401, sayCommon('loginExpired'));
      },
    } satisfies Auth);
  },
  { name: 'auth', dependencies: ['database'] },
);
