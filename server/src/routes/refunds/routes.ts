import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countAttempt, throttleKey } from '../../auth/throttle';
import { sayCommon } from '../../lib/messages';
import { findUserByEmail } from '../../auth/users';
import { redeemBillingCode } from '../../billing/billing-codes';
import { refundRequestEmail } from '../../billing/emails';
import { cancelSubscription } from '../../billing/subscriptions';
import type { Config } from '../../config';
import { errorResponses, HttpError, ok } from '../../lib/envelope';
import { insertRefundRequest } from './data';
import { refundBody, refundResponse } from './schemas';
import { throwWhenLimited } from '../../lib/throttle-answer';
import { escapeHtml } from '../../lib/escape-html';

/** /unsubscribe-and-refund: cancel and ask for a refund; stored for the operator, confirmed by email. */
const refundRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { operatorEmail, authThrottleScale } = options.config;

  app.post(
    '/api/v1/refunds',
    {
      config: { rateLimit: { max: 10 * authThrottleScale, timeWindow: '1 minute' } },
      schema: {
        tags: ['billing'],
        summary: 'Cancel the subscription and ask for a refund (signed in as the email, or with a type-2 code)',
        description:
          'The subscription stops renewing (access kept until validUntil); the request is stored for the operator, ' +
          'who is emailed, and the requester gets a confirmation. Without a session for this email, the code ' +
          'emailed by sendCode type 2 proves the address.',
        body: refundBody,
        response: { 200: refundResponse, ...errorResponses },
      },
    },
    async (request) => {
      const limit = await countAttempt(app.db, throttleKey(app.auth.secrets.hmacSecret, 'refund:ip', request.ip), {
        limit: 20 * authThrottleScale,
        windowSeconds: 3600,
      });
      throwWhenLimited(limit, sayCommon, 'tooManyFromNetwork');
      const { email, reason, locale, verificationCode } = request.body;
      const session = await app.auth.sessionOf(request);
      const signedInAsEmail = session?.user.email === email;
      const now = app.billing.clock.now();
      const result = await app.db.transaction(async (tx) => {
        if (!signedInAsEmail) {
          if (!verificationCode) throw new HttpError(400, sayCommon('enterCode'));
          if (!(await redeemBillingCode(tx, app.auth.secrets.hmacSecret, email, 'refund_request', verificationCode))) {
            return null;
          }
        }
        const user = await findUserByEmail(tx, email);
        const cancelled = user ? await cancelSubscription(tx, user.id, now) : null;
        const id = await insertRefundRequest(tx, { userId: user?.id ?? null, email, reason, locale, createdAt: now });
        const validUntil = cancelled?.subscription.validUntil ?? null;
        await app.outbox.queue(tx, {
          idempotencyKey: `refund-request:${id}`,
          to: email,
          locale,
          ...refundRequestEmail(locale, { requestId: id, cancelled: cancelled !== null, validUntil }),
        });
        await app.outbox.queue(tx, {
          idempotencyKey: `refund-request-operator:${id}`,
          to: operatorEmail,
          locale: 'en',
          replyTo: email,
          subject: `Refund request ${id} from ${email}`,
          text: `A refund request arrived.\n\nRequest: ${id}\nEmail: ${email}\nAccount: ${user ? user.id : 'none'}\nSubscription cancelled: ${cancelled ? 'yes' : 'no subscription'}\nLanguage: ${locale}\n\nReason:\n${reason}`,
          html: `<pre>${escapeHtml(`Refund request ${id}\nEmail: ${email}\nReason:\n${reason}`)}</pre>`,
        });
        return id;
      });
      if (!result) throw new HttpError(400, sayCommon('invalidCode'));
      app.outbox.kick();
      return ok({ id: result });
    },
  );
};

export default refundRoutes;
