import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PasswordCipher } from '../auth/password-cipher';
import { loadServerSecrets, type ServerSecrets } from '../auth/server-secrets';
import { findSession, type Session } from '../auth/sessions';
import type { Config } from '../config';
import { HttpError } from '../lib/envelope';
import { sayCommon } from '../lib/messages';

export interface Auth {
  secrets: ServerSecrets;
  passwordCipher: PasswordCipher;
  /** The session the request's token belongs to, or null; looked up once per request. */
  sessionOf(request: FastifyRequest): Promise<Session | null>;
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

    async function sessionOf(request: FastifyRequest): Promise<Session | null> {
      if (request.session !== undefined) return request.session;
      const token = tokenOf(request);
      request.session = token ? await findSession(app.db, token) : null;
      return request.session;
    }

    app.decorate('auth', {
      secrets,
      passwordCipher,
      sessionOf,
      async requireSession(request) {
        if (!(await sessionOf(request))) throw new HttpError(401, sayCommon('loginExpired'));
      },
    } satisfies Auth);
  },
  { name: 'auth', dependencies: ['database'] },
);
