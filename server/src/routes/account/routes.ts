import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import {
  deleteAccountBody,
  emailBody,
  emailConfirmBody,
  noticesBody,
  noticesResponse,
  passwordBody,
  profileBody,
  sessionParams,
  sessionsResponse,
  successResponse,
  userResponse,
} from './schemas';
import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from '../../accounts/export-archive';
import {
  changeDisplayName,
  changeNoticeSettings,
  changePassword,
  confirmEmailChange,
  deleteAccount,
  endSession,
  startAccountExport,
  listSessions,
  noticeSettings,
  requestEmailChange,
} from '../../accounts/own-account';

/**
 * The subscriber's own data: export, delete, name, email, password, sessions. HTTP only: every route is the signed-in
 * caller's own, and the rules are in accounts/own-account.ts.
 */
const accountRoutes: FastifyPluginAsyncZod<{ exportLimits?: Partial<ExportLimits> }> = async (app, options) => {
  const exportLimits: ExportLimits = { ...DEFAULT_EXPORT_LIMITS, ...options.exportLimits };
  const authed = { preHandler: app.auth.requireSession };
  const security = [{ token: [] }];
  const responses = { 401: errorEnvelope, ...errorResponses };

  app.get(
    '/api/v1/personnal/account/export',
    {
      ...authed,
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['account'],
        summary:
          'My data as a ZIP download: kabari-my-data.json (account, sessions, subscription, payments, refund ' +
          'requests, requests with their positions and map views, voice messages) and each voice message as an ' +
          'audio file',
        description:
          'Made as it is downloaded, and ended after ' +
          `${Math.round(exportLimits.deadlineMs / 60_000)} minutes whatever is left. One export at a time per ` +
          'account: 429 while another is still being made.',
        security,
        response: { 401: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      // Read at each export: a test changes its deadline between exports.
      const limits: ExportLimits = { ...DEFAULT_EXPORT_LIMITS, ...options.exportLimits };
      const archive = await startAccountExport(app, request.session!, limits);
      const day = new Date().toISOString().slice(0, 10);
      // A file, not the JSON envelope: streamed as it is made, past the response schema.
      return (reply as FastifyReply)
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="kabari-my-data-${day}.zip"`)
        .type('application/zip')
        .send(archive);
    },
  );

  app.post(
    '/api/v1/personnal/account/delete',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'Delete my account, confirmed by password or by the emailed code (sendCode type 3)',
        description:
          'Cancels the subscription and erases every row tied to the account or its email: sessions, sign-ups, ' +
          'codes, requests, positions, messages, contact-form messages, refund requests, counters; tombstones and ' +
          'abuse reports no longer name it. Payment records are kept as the law requires, detached from the person.',
        security,
        body: deleteAccountBody,
        response: { 200: successResponse, ...responses },
      },
    },
    async (request, reply) => {
      await deleteAccount(app, request.session!.user, request.body);
      app.auth.clearSessionCookie(reply);
      return ok({ success: true as const });
    },
  );

  app.post(
    '/api/v1/personnal/account/profile',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'Change my display name',
        security,
        body: profileBody,
        response: { 200: userResponse, ...responses },
      },
    },
    async (request) => {
      const userCacheInfo = await changeDisplayName(app, request.session!.user, request.body.displayName);
      return ok({ user: { userCacheInfo } });
    },
  );

  app.post(
    '/api/v1/personnal/account/email',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'Change my email address, step one: my password, then a code is emailed to the new address',
        description:
          'Nothing changes yet: the address changes when its code comes back (POST account/email/confirm). ' +
          'The code expires in 10 minutes, works once and allows 5 attempts; 5 codes an hour per account.',
        security,
        body: emailBody,
        response: { 200: successResponse, 409: errorEnvelope, ...responses },
      },
    },
    async (request) => {
      await requestEmailChange(app, request.session!.user, request.body.password, request.body.newEmail);
      return ok({ success: true as const });
    },
  );

  app.post(
    '/api/v1/personnal/account/email/confirm',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'Change my email address, step two: the code that reached the new address makes the change',
        description: 'The old address is told of the change, in my language.',
        security,
        body: emailConfirmBody,
        response: { 200: userResponse, 409: errorEnvelope, ...responses },
      },
    },
    async (request) => {
      const { newEmail, verificationCode } = request.body;
      const userCacheInfo = await confirmEmailChange(app, request.session!.user, newEmail, verificationCode);
      return ok({ user: { userCacheInfo } });
    },
  );

  app.post(
    '/api/v1/personnal/account/password',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'Change my password; every other session ends',
        security,
        body: passwordBody,
        response: { 200: successResponse, ...responses },
      },
    },
    async (request) => {
      await changePassword(app, request.session!, request.body.password, request.body.newPassword);
      return ok({ success: true as const });
    },
  );

  app.get(
    '/api/v1/personnal/account/notices',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary:
          'Which emails tell me what a recipient did (shared, declined, stopped, withdrew consent) and that their ' +
          'live sharing ended at its time',
        security,
        response: { 200: noticesResponse, ...responses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await noticeSettings(app, request.session!.user));
    },
  );

  app.post(
    '/api/v1/personnal/account/notices',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'Turn those emails on or off, one by one; answers all of them',
        security,
        body: noticesBody,
        response: { 200: noticesResponse, ...responses },
      },
    },
    async (request) => {
      return ok(await changeNoticeSettings(app, request.session!.user, request.body));
    },
  );

  app.get(
    '/api/v1/personnal/sessions',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'My active sessions, newest first',
        security,
        response: { 200: sessionsResponse, ...responses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok({ items: await listSessions(app, request.session!) });
    },
  );

  app.post(
    '/api/v1/personnal/sessions/:id/revoke',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'End one of my sessions (another device, or this one)',
        security,
        params: sessionParams,
        response: { 200: successResponse, 404: errorEnvelope, ...responses },
      },
    },
    async (request) => {
      await endSession(app, request.session!.user, request.params.id);
      return ok({ success: true as const });
    },
  );
};

export default accountRoutes;
