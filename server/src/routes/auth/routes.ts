import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { revokeSession } from '../../auth/sessions';
import { userCacheInfo } from '../../auth/users';
import type { Config } from '../../config';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import { requestLocale } from '../../lib/messages';
import {
  loginBody,
  loginByAuthCodeBody,
  loginResponse,
  publicKeyResponse,
  resetPasswordBody,
  sendCodeBody,
  sessionResponse,
  successResponse,
} from './schemas';
import { signInRules, type SignedIn } from '../../auth/sign-in';

/** Login, password reset by emailed code, login by one-time auth code, logout. HTTP only; the rules are in auth/sign-in.ts. */
const authRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const scale = options.config.authThrottleScale;
  const { secrets } = app.auth;
  const rules = signInRules(app, scale, options.config.publicUrl);

  /**
   * A new session, handed to the browser only as the HttpOnly cookie: the body names the user but carries no
   * token, so no script on the page can read it.
   */
  function signIn(reply: FastifyReply, { user, token }: SignedIn) {
    app.auth.setSessionCookie(reply, token);
    return ok({ user: { userCacheInfo: userCacheInfo(user) } });
  }

  app.get(
    '/api/v1/auth/publicKey',
    {
      schema: {
        tags: ['auth'],
        summary: 'The RSA public key the browser encrypts passwords with (jsencrypt)',
        response: { 200: publicKeyResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return ok({ publicKey: secrets.rsaPublicKeyPem });
    },
  );

  app.post(
    '/api/v1/auth/login',
    {
      config: { rateLimit: { max: 30 * scale, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and encrypted password',
        description: 'A wrong password and an undecryptable ciphertext get the same 400 answer.',
        body: loginBody,
        response: { 200: loginResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      return signIn(reply, await rules.login(request.ip, email, password, request.headers['user-agent']));
    },
  );

  app.post(
    '/api/v1/auth/sendCode',
    {
      config: { rateLimit: { max: 10 * scale, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Email a 6-digit code (type 1: password reset, 2: refund request, 3: account deletion)',
        description:
          'Answers success whether or not the email has an account, so it cannot be used to find accounts. ' +
          'The code expires in 10 minutes, works once, and allows 5 attempts.',
        body: sendCodeBody,
        response: { 200: successResponse, ...errorResponses },
      },
    },
    async (request) => {
      await rules.sendCode(request.ip, request.body, (own) => requestLocale(request, own));
      return ok({ success: true as const });
    },
  );

  app.post(
    '/api/v1/auth/resetPassword',
    {
      config: { rateLimit: { max: 20 * scale, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the emailed code; ends every other session of the account',
        body: resetPasswordBody,
        response: { 200: successResponse, ...errorResponses },
      },
    },
    async (request) => {
      await rules.resetPassword(request.ip, request.body, await app.auth.sessionOf(request));
      return ok({ success: true as const });
    },
  );

  app.post(
    '/api/v1/auth/loginByAuthCode',
    {
      config: { rateLimit: { max: 20 * scale, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a one-time auth code the server issued (for example right after sign-up)',
        body: loginByAuthCodeBody,
        response: { 200: loginResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      signIn(reply, await rules.loginByAuthCode(request.ip, request.body.authCode, request.headers['user-agent'])),
  );

  app.post(
    '/api/v1/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: "End this request's session (a missing or unknown token is already logged out)",
        security: [{ token: [] }],
        response: { 200: successResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const session = await app.auth.sessionOf(request);
      if (session) await revokeSession(app.db, session.id);
      app.auth.clearSessionCookie(reply);
      return ok({ success: true as const });
    },
  );

  app.get(
    '/api/v1/auth/session',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user (401 when the token is missing, revoked or expired)',
        security: [{ token: [] }],
        response: { 200: sessionResponse, 401: errorEnvelope },
      },
    },
    async (request) => ok({ userCacheInfo: userCacheInfo(request.session!.user) }),
  );
};

export default authRoutes;
