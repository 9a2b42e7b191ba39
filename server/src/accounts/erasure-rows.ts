import { eq, inArray, or, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { authThrottles, contactMessages, users, verificationCodes } from '../db/schema/accounts';
import { payments, refundRequests, registrations, subscriptions } from '../db/schema/billing';
import {
  abuseReports,
  dailySendCounts,
  linkTombstones,
  locationRequests,
  sendLimits,
} from '../db/schema/location-requests';
import { outboxMessages } from '../db/schema/outbox';
import { pushSubscriptionsOf } from '../push/push-subscriptions';
import { forgetCachedAddresses } from '../geo/cached-addresses';
import type { ReverseGeocoder } from '../geo/reverse-geocode';
import { throttleKey } from '../auth/throttle';
import { accountDayKey } from '../requests/daily-send-counts';

// The sign-in and code counters the auth routes keep per email (under a keyed hash of it).
const EMAIL_THROTTLE_KINDS = ['login:account', 'send-code:account'];

/** A counter or limit kept for this account, by its id or its address (`…:<id>`, `…:<email>`). */
const keyedBy = (column: typeof authThrottles.key | typeof sendLimits.key, value: string) =>
  sql`right(${column}, ${value.length + 1}) = ${`:${value}`}`;

/**
 * Erases everything tied to an account or its email address, inside the caller's transaction: the user (and with
 * it, by cascade, its sessions, subscription, requests, positions, live events and browsers with notifications on),
 * its sign-ups and codes, every message to or about it (notifications to its browsers too) and its requests'
 * messages, its contact-form messages and refund requests, its throttle counters, link limit and daily send counts,
 * and the cached addresses of its positions. Tombstones of its requests and abuse reports about them stay (the
 * opt-out and report links in old messages keep working) but no longer name the account. Payments stay, as the law
 * requires, detached from the person.
 */
export async function eraseAccount(
  tx: DatabaseExecutor,
  user: { id: string; email: string },
  reverseGeocoder: Pick<ReverseGeocoder, 'cacheKeyOf'>,
  hmacSecret: Buffer,
): Promise<void> {
  const requests = await tx
    .select({ id: locationRequests.id, messageId: locationRequests.messageId })
    .from(locationRequests)
    .where(eq(locationRequests.userId, user.id));
  const requestIds = requests.map((request) => request.id);
  const messageIds = requests.flatMap((request) => (request.messageId ? [request.messageId] : []));
  const browserIds = (await pushSubscriptionsOf(tx, user.id)).map((browser) => browser.id);

  await forgetCachedAddresses(tx, reverseGeocoder, requestIds);

  // Payments keep their amounts but lose the person (user_id and subscription_id set null by the FKs). Detached
  // explicitly first: the two set-null FKs of one row firing inside one cascade trip over each other.
  await tx.update(payments).set({ userId: null, subscriptionId: null }).where(eq(payments.userId, user.id));
  await tx.delete(subscriptions).where(eq(subscriptions.userId, user.id));
  // By user too: a sign-up made under an address the account has since changed is still this person's.
  await tx.delete(registrations).where(or(eq(registrations.email, user.email), eq(registrations.userId, user.id)));
  await tx.delete(verificationCodes).where(eq(verificationCodes.email, user.email));
  // Messages to the address or the account's browsers, about it (a contact form's or a refund request's copy to the
  // operator, replies going to it), and those that carried the account's requests (they name the requester).
  await tx
    .delete(outboxMessages)
    .where(
      or(
        eq(outboxMessages.recipient, user.email),
        eq(outboxMessages.replyTo, user.email),
        ...(messageIds.length > 0 ? [inArray(outboxMessages.id, messageIds)] : []),
        ...(browserIds.length > 0 ? [inArray(outboxMessages.recipient, browserIds)] : []),
      ),
    );
  await tx.delete(contactMessages).where(eq(contactMessages.email, user.email));
  await tx.delete(refundRequests).where(or(eq(refundRequests.userId, user.id), eq(refundRequests.email, user.email)));
  const emailKeys = EMAIL_THROTTLE_KINDS.map((kind) => throttleKey(hmacSecret, kind, user.email));
  await tx.delete(authThrottles).where(or(keyedBy(authThrottles.key, user.id), inArray(authThrottles.key, emailKeys)));
  await tx
    .delete(dailySendCounts)
    .where(inArray(dailySendCounts.key, [accountDayKey('sms', user.id), accountDayKey('email', user.id)]));
  await tx.delete(sendLimits).where(or(keyedBy(sendLimits.key, user.id), keyedBy(sendLimits.key, user.email)));
  // Requests, positions, sessions, live events go with the user (cascade); each request leaves its tombstone.
  await tx.delete(users).where(eq(users.id, user.id));
  await tx.update(linkTombstones).set({ requesterId: null }).where(eq(linkTombstones.requesterId, user.id));
  await tx.update(abuseReports).set({ requesterId: null }).where(eq(abuseReports.requesterId, user.id));
}
