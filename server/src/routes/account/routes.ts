import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hashPassword, passwordProblem, verifyPassword } from '../../auth/passwords';
import { revokeSession, revokeUserSessions } from '../../auth/sessions';
import { countAttempt } from '../../auth/throttle';
import { sayCommon } from '../../lib/messages';
import { sayBilling } from '../../billing/billing-messages';
import { findUserByEmail, userCacheInfo } from '../../auth/users';
import { redeemBillingCode } from '../../billing/billing-codes';
import { accountDeletedEmail } from '../../billing/emails';
import { toMajor } from '../../billing/money';
import { findSubscription, subscriptionInfo } from '../../billing/subscriptions';
import {
  locationRequests,
  outboxMessages,
  payments,
  positions,
  registrations,
  sessions,
  subscriptions,
  users,
  verificationCodes,
} from '../../db/schema';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import {
  deleteAccountBody,
  emailBody,
  passwordBody,
  profileBody,
  sessionParams,
  sessionsResponse,
  successResponse,
  userResponse,
} from './schemas';

const ACCOUNT_CHECKS = { limit: 10, windowSeconds: 15 * 60 };

/** The subscriber's own data: export, delete, name, email, password, sessions. Every route is the caller's own. */
const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const authed = { preHandler: app.auth.requireSession };
  const security = [{ token: [] }];
  const responses = { 401: errorEnvelope, ...errorResponses };

  /** Password checks on a signed-in account are throttled per account, so a stolen session cannot guess it. */
  async function checkPassword(userId: string, hash: string, encrypted: string): Promise<void> {
    const limit = await countAttempt(app.db, `account-password:${userId}`, ACCOUNT_CHECKS);
    if (limit.limited) {
      throw new HttpError(429, sayCommon('tooManyAttempts', { wait: limit.retryAfterSeconds }), {
        'retry-after': String(limit.retryAfterSeconds),
      });
    }
    if (!(await verifyPassword(hash, app.auth.passwordCipher.decrypt(encrypted)))) {
      throw new HttpError(400, sayCommon('wrongPassword'));
    }
  }

  app.get(
    '/api/v1/personnal/account/export',
    {
      ...authed,
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['account'],
        summary: 'My data as a JSON download: account, subscription, payments, requests with their positions',
        security,
        response: { 401: errorEnvelope },
      },
    },
    async (request, reply) => {
      const user = request.session!.user;
      const subscription = await findSubscription(app.db, user.id);
      const paid = await app.db.select().from(payments).where(eq(payments.userId, user.id)).orderBy(payments.createdAt);
      const requests = await app.db
        .select()
        .from(locationRequests)
        .where(eq(locationRequests.userId, user.id))
        .orderBy(locationRequests.createdAt);
      const shared =
        requests.length === 0
          ? []
          : await app.db
              .select()
              .from(positions)
              .where(
                inArray(
                  positions.requestId,
                  requests.map((row) => row.id),
                ),
              )
              .orderBy(positions.id);
      const document = {
        exportedAt: new Date().toISOString(),
        account: userCacheInfo(user),
        subscription: subscription ? subscriptionInfo(subscription, app.billing.clock.now()) : null,
        payments: paid.map((row) => ({
          id: row.id,
          kind: row.kind,
          amount: toMajor(row.amount, row.currency),
          currencyCode: row.currency,
          state: row.state,
          provider: row.provider,
          cardBrand: row.cardBrand,
          cardLast4: row.cardLast4,
          createdAt: row.createdAt.toISOString(),
        })),
        requests: requests.map(({ token: _token, userId: _userId, ...row }) => ({
          ...row,
          positions: shared
            .filter((position) => position.requestId === row.id)
            .map(({ requestId: _requestId, ...position }) => position),
        })),
      };
      const day = new Date().toISOString().slice(0, 10);
      // A file, not the JSON envelope: sent as-is, past the response schema.
      return (reply as FastifyReply)
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="kabari-my-data-${day}.json"`)
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => String(payload))
        .send(JSON.stringify(document, null, 2));
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
          'Cancels the subscription and erases the account, its sessions, sign-ups, requests, positions and ' +
          'messages; payment records are kept as the law requires, detached from the person.',
        security,
        body: deleteAccountBody,
        response: { 200: successResponse, ...responses },
      },
    },
    async (request, reply) => {
      const user = request.session!.user;
      const { password, verificationCode } = request.body;
      if (password !== undefined) await checkPassword(user.id, user.passwordHash, password);
      const locale = user.locale === 'id' ? 'id' : 'en';
      const deleted = await app.db.transaction(async (tx) => {
        if (password === undefined) {
          const valid = await redeemBillingCode(
            tx,
            app.auth.secrets.hmacSecret,
            user.email,
            'delete_account',
            verificationCode!,
          );
          if (!valid) return false;
        }
        // Payments keep their amounts but lose the person (user_id and subscription_id set null by the FKs);
        // requests, positions, sessions, live events and the subscription go with the user (cascade).
        // Detached explicitly first: the two set-null FKs of one row firing inside one cascade trip over each other.
        await tx.update(payments).set({ userId: null, subscriptionId: null }).where(eq(payments.userId, user.id));
        await tx.delete(subscriptions).where(eq(subscriptions.userId, user.id));
        await tx.delete(registrations).where(eq(registrations.email, user.email));
        await tx.delete(verificationCodes).where(eq(verificationCodes.email, user.email));
        await tx.delete(outboxMessages).where(eq(outboxMessages.recipient, user.email));
        await tx.delete(users).where(eq(users.id, user.id));
        await app.mailer.queue(tx, {
          idempotencyKey: `account-deleted:${user.id}`,
          to: user.email,
          locale,
          ...accountDeletedEmail(locale, user.displayName),
        });
        return true;
      });
      if (!deleted) throw new HttpError(400, sayCommon('invalidCode'));
      app.mailer.kick();
      reply.clearCookie('token', { path: '/' });
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
      const [user] = await app.db
        .update(users)
        .set({ displayName: request.body.displayName, updatedAt: sql`now()` })
        .where(eq(users.id, request.session!.user.id))
        .returning();
      return ok({ user: { userCacheInfo: userCacheInfo(user!) } });
    },
  );

  app.post(
    '/api/v1/personnal/account/email',
    {
      ...authed,
      schema: {
        tags: ['account'],
        summary: 'Change my email address (confirmed by my password)',
        security,
        body: emailBody,
        response: { 200: userResponse, ...responses },
      },
    },
    async (request) => {
      const current = request.session!.user;
      await checkPassword(current.id, current.passwordHash, request.body.password);
      const { newEmail } = request.body;
      if (newEmail !== current.email && (await findUserByEmail(app.db, newEmail)))
        throw new HttpError(409, sayCommon('emailInUse'));
      const [user] = await app.db
        .update(users)
        .set({ email: newEmail, updatedAt: sql`now()` })
        .where(and(eq(users.id, current.id)))
        .returning()
        .catch((error: unknown) => {
          // Taken between the check and the update: the unique index answers.
          if (String((error as { code?: string }).code) === '23505') throw new HttpError(409, sayCommon('emailInUse'));
          throw error;
        });
      return ok({ user: { userCacheInfo: userCacheInfo(user!) } });
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
      const session = request.session!;
      await checkPassword(session.user.id, session.user.passwordHash, request.body.password);
      const newPassword = app.auth.passwordCipher.decrypt(request.body.newPassword);
      const problem = passwordProblem(newPassword);
      if (problem) throw new HttpError(400, problem);
      const passwordHash = await hashPassword(newPassword);
      await app.db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(users.id, session.user.id));
        await revokeUserSessions(tx, session.user.id, session.id);
      });
      return ok({ success: true as const });
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
      const session = request.session!;
      const rows = await app.db
        .select()
        .from(sessions)
        .where(
          and(eq(sessions.userId, session.user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
        )
        .orderBy(desc(sessions.lastSeenAt))
        .limit(100);
      return ok({
        items: rows.map((row) => ({
          id: row.id,
          userAgent: row.userAgent,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          current: row.id === session.id,
        })),
      });
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
      const [row] = await app.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(
          and(
            eq(sessions.id, request.params.id),
            eq(sessions.userId, request.session!.user.id),
            isNull(sessions.revokedAt),
          ),
        );
      if (!row) throw new HttpError(404, sayBilling('sessionNotFound'));
      await revokeSession(app.db, row.id);
      return ok({ success: true as const });
    },
  );
};

export default accountRoutes;
