import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { PasswordCipher } from '../auth/password-cipher';
import { loadServerSecrets, type ServerSecrets } from '../auth/server-secrets';
import { AccountCache, ACCOUNT_CHANGES_CHANNEL, DEFAULT_ACCOUNT_CACHE_OPTIONS } from '../auth/account-cache';
import { findSession, hasSessionTokenForm, SESSION_DAYS, type Session } from '../auth/sessions';
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
  /**
   * preHandler for routes that need a signed-in user: 401 otherwise. A callback hook, not an async one: a signed-in
   * read whose session is in the account cache then costs no promise.
   */
  requireSession(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  /** Signs the browser in: the session token as the HttpOnly `token` cookie (never in a response body). */
  setSessionCookie(reply: FastifyReply, token: string): void;
  clearSessionCookie(reply: FastifyReply): void;
  /**
   * Called with the user a change was announced for (a session revoked, a password changed, an account
   * deleted), or with null when announcements may have been missed: whoever holds something of that user's
   * checks it again.
   */
  onAccountChanged(listener: (userId: string | null) => void): void;
  /**
   * Called, before the answer is sent, with the user of each signed-in request that may have written (anything but
   * GET and HEAD): whoever caches something of theirs on this instance forgets it, so their next read sees the write
   * without waiting for the database's notice.
   */
  onOwnWrite(listener: (userId: string) => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
  }
  interface FastifyRequest {
    /** Set by auth.requireSession (and cached by auth.sessionOf). */
    session: Session | null | undefined;
    /** The session was read from the database and slid forward: its cookie is renewed with the answer. */
    sessionRenewed: boolean;
  }
}

/** The session cookie's name. The browser's scripts never see it: the server sets it HttpOnly. */
export const SESSION_COOKIE = 'token';

/**
 * The token: `Authorization: <token>` or `Authorization: Bearer <token>` (for API clients that are not a
 * browser), else the `token` cookie the server set at sign-in.
 */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (header) return header.replace(/^Bearer\s+/i, '');
  const cookie = request.cookies?.[SESSION_COOKIE];
  return cookie ? cookie : undefined;
}

/** Whether the request's session comes from the cookie (not from an Authorization header). */
function tokenFromCookie(request: FastifyRequest): boolean {
  return !request.headers.authorization?.trim() && Boolean(request.cookies?.[SESSION_COOKIE]);
}

/**
 * The attributes of the cookies the server sets (the session's, and the note that a browser shared through a link):
 * no script reads them. Secure follows the public address: a deployment behind https gets it, while a local trial on
 * http://localhost (or a test on plain http) would otherwise never keep the cookie in some browsers.
 */
export function serverCookieOptions(publicUrl: string) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: new URL(publicUrl).protocol === 'https:',
  };
}

export default fp(
  async (app, options: { config: Config }) => {
    const secrets = await loadServerSecrets(app.db, options.config);
    const passwordCipher = new PasswordCipher(secrets.rsaPrivateKeyPem, secrets.hmacSecret);

    const cookieOptions = serverCookieOptions(options.config.publicUrl);
    app.decorateRequest('session', undefined);
    app.decorateRequest('sessionRenewed', false);

    const cache = new AccountCache(DEFAULT_ACCOUNT_CACHE_OPTIONS);
    const accountListeners: ((userId: string | null) => void)[] = [];
    const ownWriteListeners: ((userId: string) => void)[] = [];
    const announce = (userId: string | null) => {
      for (const listener of accountListeners) listener(userId);
    };
    const stopListening = await app.dbClient.listen(ACCOUNT_CHANGES_CHANNEL, {
      onNotification: (userId) => {
        cache.forgetUser(userId);
        announce(userId);
      },
      onReconnected: () => {
        cache.clear();
        announce(null);
      },
    });
    app.addHook('onClose', async () => {
      // The database may already be closed, which stops listening as well.
      await stopListening().catch(() => undefined);
    });

    // A user's own write (sign out, a new password, a cancelled subscription) is seen by their next read on this
    // instance at once, without waiting for the database's notice. A callback hook, not an async one: it runs on
    // every answer, and a promise for each was most of its cost.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.session) {
        cache.forgetUser(request.session.user.id);
        for (const listener of ownWriteListeners) listener(request.session.user.id);
      }
      if (tokenFromCookie(request)) {
        // A cookie that no longer signs anyone in goes; one whose session slid forward lasts as long again.
        if (reply.statusCode === 401) clearSessionCookie(reply);
        else if (request.sessionRenewed && request.session && !reply.hasHeader('set-cookie')) {
          setSessionCookie(reply, tokenOf(request)!);
        }
      }
      done(null, payload);
    });

    function setSessionCookie(reply: FastifyReply, token: string): void {
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: SESSION_DAYS * 24 * 60 * 60 });
    }

    function clearSessionCookie(reply: FastifyReply): void {
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
    }

    /** The request's session; a promise only when the database must be asked (see AccountCache.get). */
    function lookUp(request: FastifyRequest): Session | null | Promise<Session | null> {
      const token = tokenOf(request);
      if (!token) return null;
      const load = async () => {
        const found = await findSession(app.db, token);
        if (found?.renewed) request.sessionRenewed = true;
        return found && { id: found.id, user: found.user };
      };
      if (request.method !== 'GET' && request.method !== 'HEAD') return load();
      // Keyed by the token itself, not by its sha256 as the database stores it: the cache is this process's memory for
      // a few seconds, where the request carrying the token is anyway, and hashing it on every read cost about a
      // twentieth of a signed-in read's CPU. Only the session tokens' form is kept, so no key is longer than 200
      // characters; anything else signs nobody in, without asking the database.
      if (!hasSessionTokenForm(token)) return null;
      return cache.get(`session:${token}`, load, (session) => session?.user.id ?? null);
    }

    /** The request's session, looked up once per request; a promise only when the database must be asked. */
    function sessionNow(request: FastifyRequest): Session | null | Promise<Session | null> {
      if (request.session !== undefined) return request.session;
      const found = lookUp(request);
      if (found instanceof Promise) return found.then((session) => (request.session = session));
      return (request.session = found);
    }

    app.decorate('auth', {
      secrets,
      passwordCipher,
      sessionOf: async (request) => sessionNow(request),
      cache,
      requireSession(request, _reply, done) {
        const judge = (session: Session | null) =>
          done(session ? undefined : new HttpError(401, sayCommon('loginExpired')));
        const found = sessionNow(request);
        if (found instanceof Promise) found.then(judge, (error: Error) => done(error));
        else judge(found);
      },
      setSessionCookie,
      clearSessionCookie,
      onAccountChanged(listener) {
        accountListeners.push(listener);
      },
      onOwnWrite(listener) {
        ownWriteListeners.push(listener);
      },
    } satisfies Auth);
  },
  { name: 'auth', dependencies: ['database'] },
);
