import type { Database } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import type { User } from '../auth/users';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import {
  NonPublicAddressError,
  resolvePublicAddress,
  UnresolvableHostError,
  type PublicAddressPolicy,
} from '../lib/public-address';
import { testPushNotification } from '../messages/templates';
import { pushSubscriptionsOf, removePushSubscription, savePushSubscription } from './push-subscriptions';

const say = messagesOf('push');

/**
 * A browser's push endpoint is an address any signed-in account can give: Kabari's server will post to it. Only a
 * name (or address) on the public internet is kept; the sender checks it again, and pins it, at each push.
 */
async function checkPushEndpoint(endpoint: string, policy: PublicAddressPolicy): Promise<void> {
  try {
    await resolvePublicAddress(new URL(endpoint).hostname, policy);
  } catch (error) {
    if (error instanceof NonPublicAddressError) throw new HttpError(400, say('endpointNotPublic'));
    if (error instanceof UnresolvableHostError) throw new HttpError(400, say('endpointUnknown'));
    throw error;
  }
}

/** What the browser notifications use of the server: the database and the outbox that sends the pushes. */
export interface PushDeps {
  db: Database;
  outbox: Pick<MessageOutbox, 'pushAddressPolicy' | 'queuePush' | 'kick'>;
}

/** Notifications turned on in this browser for this subscriber; answers how many browsers have them now. */
export async function subscribeBrowser(
  app: PushDeps,
  userId: string,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
): Promise<{ devices: number }> {
  const { endpoint, keys } = subscription;
  await checkPushEndpoint(endpoint, app.outbox.pushAddressPolicy);
  await savePushSubscription(app.db, userId, { endpoint, p256dh: keys.p256dh, auth: keys.auth });
  return { devices: (await pushSubscriptionsOf(app.db, userId)).length };
}

/** Notifications turned off in this browser. */
export async function unsubscribeBrowser(
  app: PushDeps,
  userId: string,
  endpoint: string,
): Promise<{ removed: boolean }> {
  return { removed: await removePushSubscription(app.db, userId, endpoint) };
}

/**
 * "Send a test notification": one to each browser where the subscriber turned notifications on, whatever their
 * notice settings (they asked for it). 409 when there is none.
 */
export async function sendTestNotification(
  app: PushDeps,
  user: Pick<User, 'id' | 'locale'>,
  publicUrl: string,
): Promise<{ devices: number }> {
  const devices = await pushSubscriptionsOf(app.db, user.id);
  if (devices.length === 0) throw new HttpError(409, say('noDevices'));
  const sentAt = Date.now();
  for (const device of devices) {
    await app.outbox.queuePush(app.db, {
      idempotencyKey: `push-test:${device.id}:${sentAt}`,
      subscriptionId: device.id,
      locale: user.locale,
      notification: testPushNotification(user.locale, publicUrl),
    });
  }
  app.outbox.kick();
  return { devices: devices.length };
}
