import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import { beginEnrolment, finishEnrolment } from '../../operators/enrolment';
import { auditLogPage } from '../../operators/audit-log';
import { signInOperator, signOutOperator } from '../../operators/operator-sign-in';
import type { OperatorSessionView } from '../../operators/operator-sessions';
import { OPERATOR_COOKIE, OPERATOR_COOKIE_MAX_AGE_SECONDS, operatorCookieOptions } from '../../plugins/operator-guard';
import {
  auditLogQuery,
  auditLogResponse,
  enrolmentBeginBody,
  enrolmentBeginResponse,
  enrolmentFinishBody,
  enrolmentFinishResponse,
  sessionResponse,
  signedOutResponse,
  signInBody,
  signInResponse,
} from './schemas';

/**
 * The operators' identity: enrolment, signing in and out, the session, the audit log. HTTP only; the rules are in
 * operators/. Every route here is under the operator guard (plugins/operator-guard.ts); enrolment and signing in
 * are its open ones.
 */
const operatorAuthRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const cookieOptions = operatorCookieOptions(options.config.publicUrl);
  const secret = app.auth.secrets.hmacSecret;
  const deps = {
    db: app.db,
    secret,
    throttleScale: options.config.authThrottleScale,
    passwordCipher: app.auth.passwordCipher,
  };
  const open = { operatorAccess: 'open' as const, rateLimit: { max: 10 * deps.throttleScale, timeWindow: '1 minute' } };
  const security = [{ operatorSession: [] }];

  function setCookie(reply: FastifyReply, token: string) {
    reply.setCookie(OPERATOR_COOKIE, token, { ...cookieOptions, maxAge: OPERATOR_COOKIE_MAX_AGE_SECONDS });
  }
  const sessionView = (view: OperatorSessionView) => ({
    operator: view.operator,
    expiresAt: view.expiresAt.toISOString(),
    idleExpiresAt: view.idleExpiresAt.toISOString(),
  });

  app.post(
    '/api/v1/operator/enrolment/begin',
    {
      config: open,
      schema: {
        tags: ['operator'],
        summary: "Start enrolling with the link's token: a new authenticator secret (404 for a used or expired link)",
        body: enrolmentBeginBody,
        response: { 200: enrolmentBeginResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => ok(await beginEnrolment(deps, request.body.token)),
  );

  app.post(
    '/api/v1/operator/enrolment/finish',
    {
      config: open,
      schema: {
        tags: ['operator'],
        summary: 'Set the password and prove the authenticator with a code: recovery codes, and signed in',
        body: enrolmentFinishBody,
        response: { 200: enrolmentFinishResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      const done = await finishEnrolment(deps, request.body);
      setCookie(reply, done.token);
      return ok({ recoveryCodes: done.recoveryCodes });
    },
  );

  app.post(
    '/api/v1/operator/session',
    {
      config: open,
      schema: {
        tags: ['operator'],
        summary: 'Sign an operator in with the password and a TOTP or recovery code',
        description: 'Any wrong part gets the same 401; failures make the next attempt wait (429).',
        body: signInBody,
        response: { 200: signInResponse, 401: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { token, view } = await signInOperator(deps, request.ip, request.body);
      setCookie(reply, token);
      return ok({ operator: view.operator, expiresAt: view.expiresAt.toISOString() });
    },
  );

  app.get(
    '/api/v1/operator/session',
    {
      schema: {
        tags: ['operator'],
        summary: 'The signed-in operator and when the session ends (404 without one)',
        security,
        response: { 200: sessionResponse, 404: errorEnvelope },
      },
    },
    async (request) => ok(sessionView(request.operatorSession!)),
  );

  app.delete(
    '/api/v1/operator/session',
    {
      schema: {
        tags: ['operator'],
        summary: 'Sign the operator out (ends this session)',
        security,
        response: { 200: signedOutResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      await signOutOperator(app.db, request.operator!);
      reply.clearCookie(OPERATOR_COOKIE, cookieOptions);
      return ok({ success: true as const });
    },
  );

  app.get(
    '/api/v1/operator/audit-log',
    {
      schema: {
        tags: ['operator'],
        summary: 'What operators did, newest first, 50 a page',
        security,
        querystring: auditLogQuery,
        response: { 200: auditLogResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const before = request.query.before === undefined ? undefined : Number(request.query.before);
      return ok(await auditLogPage(app.db, before));
    },
  );
};

export default operatorAuthRoutes;
