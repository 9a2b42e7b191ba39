import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hashPassword, passwordProblem, verifyPassword } from '../../auth/passwords';
import { unsendableNameProblem } from '../../auth/display-name';
import { revokeSession, revokeUserSessions } from '../../auth/sessions';
import { countAttempt } from '../../auth/throttle';
import { defineMessages, sayCommon } from '../../lib/messages';
import { emailChangeCodeEmail, emailChangedEmail, passwordChangedEmail } from '../../mail/templates';
import { issueEmailChangeCode, redeemEmailChangeCode } from '../../auth/verification-codes';
import { sayBilling } from '../../billing/billing-messages';
import { findUserByEmail, userCacheInfo } from '../../auth/users';
import { redeemBillingCode } from '../../billing/billing-codes';
import { accountDeletedEmail } from '../../billing/emails';
import { toMajor } from '../../billing/money';
import { findSubscription, subscriptionInfo, type Subscription } from '../../billing/subscriptions';
import { sessions, users, verificationCodes } from '../../db/schema/accounts';
import { payments, refundRequests } from '../../db/schema/billing';
import { locationRequests, positions } from '../../db/schema/location-requests';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { eraseAccount } from './erase-account';
import {
  deleteAccountBody,
  emailBody,
  emailConfirmBody,
  passwordBody,
  profileBody,
  sessionParams,
  sessionsResponse,
  successResponse,
  userResponse,
} from './schemas';
import { throwWhenLimited } from '../../lib/throttle-answer';

const ACCOUNT_CHECKS = { limit: 10, windowSeconds: 15 * 60 };
// Each code is an email to an address we do not know yet to be theirs: few of them.
const EMAIL_CHANGE_CODES = { limit: 5, windowSeconds: 60 * 60 };

const sayAccount = defineMessages(
  {
    sameEmail: 'This is already your email address.',
    tooManyCodes: 'Too many codes requested for this account. Please try again in {wait}.',
    encryptedTooLong: 'The encrypted password is too long',
    unknownSession: 'Unknown session',
  },
  {
    sameEmail: 'Ini sudah alamat email Anda.',
    tooManyCodes: 'Terlalu banyak permintaan kode untuk akun ini. Silakan coba lagi dalam {wait}.',
    encryptedTooLong: 'Kata sandi terenkripsi terlalu panjang',
    unknownSession: 'Sesi tidak dikenal',
  },
);

/** The subscriber's own data: export, delete, name, email, password, sessions. Every route is the caller's own. */
const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const authed = { preHandler: app.auth.requireSession };
  const security = [{ token: [] }];
  const responses = { 401: errorEnvelope, ...errorResponses };

  /** Password checks on a signed-in account are throttled per account, so a stolen session cannot guess it. */
  async function checkPassword(userId: string, hash: string, encrypted: string): Promise<void> {
    const limit = await countAttempt(app.db, `account-password:${userId}`, ACCOUNT_CHECKS);
    throwWhenLimited(limit, sayCommon, 'tooManyAttempts');
    if (!(await verifyPassword(hash, app.auth.passwordCipher.decrypt(encrypted)))) {
      throw new HttpError(400, sayCommon('wrongPassword'));
    }
  }

  /**
   * A deleted account's customer at the payment provider goes too (Stripe: the customer and its saved cards;
   * PayPal: the vaulted account). Best effort: a provider that is down or refuses is logged, without the person.
   */
  async function forgetAtProvider(subscription: Subscription): Promise<void> {
    const { provider, providerCustomerRef, providerPaymentMethodRef } = subscription;
    try {
      if (provider === 'stripe' && providerCustomerRef && app.billing.stripe) {
        await app.billing.stripe.forgetCustomer(providerCustomerRef);
      } else if (provider === 'paypal' && providerPaymentMethodRef && app.billing.paypal) {
        await app.billing.paypal.forgetPaymentToken(providerPaymentMethodRef);
      } else if (provider !== 'sandbox' && (providerCustomerRef || providerPaymentMethodRef)) {
        app.log.warn(
          { provider },
          'deleted account: its payment provider is no longer configured, nothing forgotten there',
        );
      }
    } catch (error) {
      const status = (error as { statusCode?: unknown }).statusCode;
      app.log.warn(
        { provider, status: typeof status === 'number' ? status : undefined },
        'deleted account: the payment provider could not forget the customer',
      );
    }
  }

  app.get(
    '/api/v1/personnal/account/export',
    {
      ...authed,
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['account'],
        summary:
          'My data as a JSON download: account, sessions, subscription, payments, refund requests, requests with their positions',
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
      // Every device signed in, ended ones too; never the token or its hash.
      const devices = await app.db
        .select({
          id: sessions.id,
          device: sessions.userAgent,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
          endedAt: sessions.revokedAt,
        })
        .from(sessions)
        .where(eq(sessions.userId, user.id))
        .orderBy(sessions.createdAt);
      // Refund requests are made by account or by the account's email (confirmed by a code).
      const refunds = await app.db
        .select()
        .from(refundRequests)
        .where(or(eq(refundRequests.userId, user.id), eq(refundRequests.email, user.email)))
        .orderBy(refundRequests.createdAt);
      const document = {
        exportedAt: new Date().toISOString(),
        account: userCacheInfo(user),
        // What was consented to at sign-up (null for accounts made before it was recorded).
        consent: {
          ageConfirmedAt: user.ageConfirmedAt?.toISOString() ?? null,
          termsAcceptedAt: user.termsAcceptedAt?.toISOString() ?? null,
          termsVersion: user.termsVersion,
        },
        sessions: devices.map((row) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          endedAt: row.endedAt?.toISOString() ?? null,
          current: row.id === request.session!.id,
        })),
        refundRequests: refunds.map((row) => ({
          id: row.id,
          email: row.email,
          reason: row.reason,
          state: row.state,
          createdAt: row.createdAt.toISOString(),
        })),
        subscription: subscription ? subscriptionInfo(subscription, app.billing.clock.now()) : null,
        payments: paid.map((row) => ({
          id: row.id,
          kind: row.kind,
          amount: toMajor(row.amount, row.currency),
          currencyCode: row.currency,
          state: row.state,
          refundedAmount: toMajor(row.refundedAmount, row.currency),
          disputedAt: row.disputedAt?.toISOString() ?? null,
          provider: row.provider,
          cardBrand: row.cardBrand,
          cardLast4: row.cardLast4,
          createdAt: row.createdAt.toISOString(),
        })),
        // Never a link's token, in any form: the export is a file that travels.
        requests: requests.map(
          ({ tokenHash: _hash, tokenCipher: _cipher, legacyToken: _legacy, userId: _userId, ...row }) => ({
            ...row,
            positions: shared
              .filter((position) => position.requestId === row.id)
              .map(({ requestId: _requestId, ...position }) => position),
          }),
        ),
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
          'Cancels the subscription and erases every row tied to the account or its email: sessions, sign-ups, ' +
          'codes, requests, positions, messages, contact-form messages, refund requests, counters; tombstones and ' +
          'abuse reports no longer name it. Payment records are kept as the law requires, detached from the person.',
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
          if (!valid) return null;
        }
        const subscription = await findSubscription(tx, user.id);
        await eraseAccount(tx, user, app.geo.reverseGeocoder, app.auth.secrets.hmacSecret);
        // The one message left about the account: the notice, deleted once a provider has taken it. Its key names
        // nothing (the deletion happens once, in this transaction).
        await app.outbox.queue(tx, {
          idempotencyKey: `account-deleted:${randomUUID()}`,
          to: user.email,
          locale,
          eraseWhenSent: true,
          ...accountDeletedEmail(locale, user.displayName),
        });
        return { subscription: subscription ?? null };
      });
      if (!deleted) throw new HttpError(400, sayCommon('invalidCode'));
      app.outbox.kick();
      // After the commit and not awaited: the account is gone here whatever the provider answers, or how slowly.
      if (deleted.subscription) void forgetAtProvider(deleted.subscription);
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
      const user = request.session!.user;
      await checkPassword(user.id, user.passwordHash, request.body.password);
      const { newEmail } = request.body;
      if (newEmail === user.email) throw new HttpError(400, sayAccount('sameEmail'));
      // The code's email greets the account by name at an address not yet proven to be theirs: a name saved
      // before the name rule (a link, a phone number) must be changed first.
      const nameProblem = unsendableNameProblem(user.displayName);
      if (nameProblem) throw new HttpError(400, nameProblem);
      if (await findUserByEmail(app.db, newEmail)) throw new HttpError(409, sayCommon('emailInUse'));
      const limit = await countAttempt(app.db, `email-change-code:${user.id}`, EMAIL_CHANGE_CODES);
      throwWhenLimited(limit, sayAccount, 'tooManyCodes');
      const locale = user.locale === 'id' ? 'id' : 'en';
      await app.db.transaction(async (tx) => {
        const { code, codeId } = await issueEmailChangeCode(tx, app.auth.secrets.hmacSecret, user.email, newEmail);
        await app.outbox.queue(tx, {
          idempotencyKey: `email-change-code:${codeId}`,
          to: newEmail,
          locale,
          ...emailChangeCodeEmail(locale, user.displayName, code),
        });
      });
      app.outbox.kick();
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
      const current = request.session!.user;
      const { newEmail, verificationCode } = request.body;
      const limit = await countAttempt(app.db, `email-change-confirm:${current.id}`, ACCOUNT_CHECKS);
      throwWhenLimited(limit, sayCommon, 'tooManyAttempts');
      const locale = current.locale === 'id' ? 'id' : 'en';
      const changed = await app.db
        .transaction(async (tx) => {
          const codeId = await redeemEmailChangeCode(
            tx,
            app.auth.secrets.hmacSecret,
            current.email,
            newEmail,
            verificationCode,
          );
          // Returned, not thrown: the attempt a wrong code spent must be kept.
          if (!codeId) return null;
          if (await findUserByEmail(tx, newEmail)) throw new HttpError(409, sayCommon('emailInUse'));
          const [user] = await tx
            .update(users)
            .set({ email: newEmail, updatedAt: sql`now()` })
            .where(eq(users.id, current.id))
            .returning();
          // Codes still waiting for the old address (a reset, a deletion) would name an account it no longer has.
          await tx
            .update(verificationCodes)
            .set({ consumedAt: sql`now()` })
            .where(and(eq(verificationCodes.email, current.email), isNull(verificationCodes.consumedAt)));
          await app.outbox.queue(tx, {
            idempotencyKey: `email-changed:${codeId}`,
            to: current.email,
            locale,
            ...emailChangedEmail(locale, current.displayName, newEmail),
          });
          return user!;
        })
        .catch((error: unknown) => {
          // Taken between the check and the update: the unique index answers.
          if (String((error as { code?: string }).code) === '23505') throw new HttpError(409, sayCommon('emailInUse'));
          throw error;
        });
      if (!changed) throw new HttpError(400, sayCommon('invalidCode'));
      app.outbox.kick();
      return ok({ user: { userCacheInfo: userCacheInfo(changed) } });
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
      const locale = session.user.locale === 'id' ? 'id' : 'en';
      await app.db.transaction(async (tx) => {
        const [changed] = await tx
          .update(users)
          .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(users.id, session.user.id))
          .returning({ at: users.passwordChangedAt });
        await revokeUserSessions(tx, session.user.id, session.id);
        await app.outbox.queue(tx, {
          idempotencyKey: `password-changed:${session.user.id}:${changed?.at?.toISOString() ?? Date.now()}`,
          to: session.user.email,
          locale,
          ...passwordChangedEmail(locale, session.user.displayName, 'account'),
        });
      });
      app.outbox.kick();
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
