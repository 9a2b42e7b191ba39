import { countAttempt, throttleKey } from '../auth/throttle';
import { findUserByEmail } from '../auth/users';
import { redeemBillingCode } from './billing-codes';
import { refundRequestEmail } from './emails';
import { cancelSubscription } from './subscriptions';
import { HttpError } from '../lib/envelope';
import { sayCommon } from '../lib/messages';
import { operatorEmail } from '../messages/operator-email';
import { insertRefundRequest } from './refund-request-rows';
import type { BillingClock } from './clock';
import type { Database } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import { throwWhenLimited } from '../lib/throttle-answer';

// Cancelling and asking for a refund: the rules behind /unsubscribe-and-refund.

/** What the refund rules use of the server: the database, the outbox, the key codes are hashed with, the clock. */
export interface RefundDeps {
  db: Database;
  outbox: MessageOutbox;
  hmacSecret: Buffer;
  clock: BillingClock;
  /** Multiplies the throttle's limit (the local trial's and the tests' setting). */
  throttleScale: number;
}

export interface RefundAsk {
  email: string;
  reason: string;
  locale: 'en' | 'id';
  verificationCode?: string | undefined;
  /** The caller is signed in as `email`: no code is needed then. */
  signedInAsEmail: boolean;
  /** Where the operator's copy goes (OPERATOR_EMAIL). */
  operatorAddress: string;
}

/**
 * Stops the subscription's renewals (access kept until validUntil), stores the request for the operator, confirms it
 * to the requester and tells the operator, all in one transaction. Without a session for the email, the type-2 code
 * emailed to it proves the address; a wrong or used code changes nothing. At most 20 an hour from one address `ip`
 * (429 beyond). Answers the request's id.
 */
export async function requestRefund(deps: RefundDeps, ip: string, ask: RefundAsk): Promise<string> {
  const limit = await countAttempt(deps.db, throttleKey(deps.hmacSecret, 'refund:ip', ip), {
    limit: 20 * deps.throttleScale,
    windowSeconds: 3600,
  });
  throwWhenLimited(limit, sayCommon, 'tooManyFromNetwork');
  const { email, reason, locale } = ask;
  const now = deps.clock.now();
  const id = await deps.db.transaction(async (tx) => {
    if (!ask.signedInAsEmail) {
      if (!ask.verificationCode) throw new HttpError(400, sayCommon('enterCode'));
      const redeemed = await redeemBillingCode(tx, deps.hmacSecret, email, 'refund_request', ask.verificationCode);
      if (!redeemed) return null;
    }
    const user = await findUserByEmail(tx, email);
    const cancelled = user ? await cancelSubscription(tx, user.id, now) : null;
    const requestId = await insertRefundRequest(tx, {
      userId: user?.id ?? null,
      email,
      reason,
      locale,
      createdAt: now,
    });
    const validUntil = cancelled?.subscription.validUntil ?? null;
    await deps.outbox.queue(tx, {
      idempotencyKey: `refund-request:${requestId}`,
      to: email,
      locale,
      ...refundRequestEmail(locale, { requestId, cancelled: cancelled !== null, validUntil }),
    });
    await deps.outbox.queue(tx, {
      idempotencyKey: `refund-request-operator:${requestId}`,
      to: ask.operatorAddress,
      locale: 'en',
      replyTo: email,
      ...operatorEmail(`Refund request ${requestId} from ${email}`, [
        'A refund request arrived.',
        '',
        `Request: ${requestId}`,
        `Email: ${email}`,
        `Account: ${user ? user.id : 'none'}`,
        `Subscription cancelled: ${cancelled ? 'yes' : 'no subscription'}`,
        `Language: ${locale}`,
        '',
        'Reason:',
        reason,
      ]),
    });
    return requestId;
  });
  if (!id) throw new HttpError(400, sayCommon('invalidCode'));
  deps.outbox.kick();
  return id;
}
