import { generateKeyPairSync } from 'node:crypto';
import type { Agent } from 'node:https';
import { eq } from 'drizzle-orm';
import type * as WebPush from 'web-push';
import type { Database } from '../db/open-database';
import { pushSubscriptions } from '../db/schema/accounts';
import { sharedSetting } from '../db/server-settings';
import { PermanentDeliveryError, type MessageSender } from './message-sender';

/** The server's VAPID key pair (base64url, as browsers and the web-push package take them). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const VAPID_KEYS_SETTING = 'push.vapid_keys';

/**
 * The key pair Kabari signs its push messages with (VAPID), made on first start and kept in the database: every
 * instance signs with the same key, and the browsers' subscriptions, which name its public half, outlive restarts.
 * A P-256 key, as the push services require.
 */
export function loadVapidKeys(db: Database): Promise<VapidKeys> {
  return sharedSetting(db, VAPID_KEYS_SETTING, () => {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const publicKey = Buffer.concat([
      Buffer.from([0x04]),
      Buffer.from(jwk.x!, 'base64url'),
      Buffer.from(jwk.y!, 'base64url'),
    ]);
    return { publicKey: publicKey.toString('base64url'), privateKey: jwk.d! };
  });
}

/** What a push message carries to the service worker, which shows it as a notification. */
export interface PushNotification {
  title: string;
  body: string;
  /** The page a click on the notification opens. */
  url: string;
  /** Notifications with the same tag replace each other on the device (one request's news). */
  tag: string;
}

/** Statuses by which a push service says the subscription is gone for good (RFC 8030): it is removed. */
const EXPIRED = new Set([404, 410]);

/**
 * Web Push through the browsers' push services (the web-push package: the payload encrypted for the browser, the
 * request signed with the VAPID key). A message's recipient is a push subscription's id: a subscription removed
 * since the message was queued (notifications turned off, the account deleted) is not sent to. An expired one is
 * removed; any other refusal of the message is final, and a service that is down or slow is tried again by the
 * outbox. The message's outbox id is its topic, so a retry replaces, at the push service, a copy not yet delivered.
 */
export function createWebPushSender(
  db: Database,
  vapid: VapidKeys & { subject: string },
  /** One request's limit: below the outbox's claim lease. */
  timeoutMs = 30_000,
  /** The HTTPS agent (tests: one that trusts a local push service's own certificate). */
  agent?: Agent,
): MessageSender {
  let webPush: typeof WebPush | undefined;
  return {
    transport: 'web-push',
    async send({ id, to, text }) {
      const [subscription] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, to));
      if (!subscription) throw new PermanentDeliveryError('Notifications were turned off in that browser since');
      // Loaded on the first push, as the other providers' SDKs are only when configured.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      webPush ??= require('web-push') as typeof WebPush;
      try {
        const sent = await webPush.sendNotification(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          text,
          {
            vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
            // A day: news older than that is better read on the dashboard.
            TTL: 24 * 60 * 60,
            urgency: 'normal',
            topic: id.replaceAll('-', ''),
            timeout: timeoutMs,
            ...(agent ? { agent } : {}),
          },
        );
        return { providerRef: sent.headers.location ?? '' };
      } catch (error) {
        if (!(error instanceof webPush.WebPushError)) throw error;
        if (EXPIRED.has(error.statusCode)) {
          await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
          throw new PermanentDeliveryError(`The push service says the subscription has ended (${error.statusCode})`);
        }
        // Any other refusal but 429 (too many requests) is of this message or subscription: a retry changes nothing.
        if (error.statusCode >= 400 && error.statusCode < 500 && error.statusCode !== 429) {
          throw new PermanentDeliveryError(`The push service refused the message (${error.statusCode}): ${error.body}`);
        }
        throw new Error(`The push service answered ${error.statusCode}`, { cause: error });
      }
    },
    // Plain HTTPS requests: nothing held open.
    close() {},
  };
}
