import https, { type Agent } from 'node:https';
import type * as WebPush from 'web-push';
import type { Database } from '../db/open-database';
import { sharedSetting } from '../db/server-settings';
import {
  NonPublicAddressError,
  pinnedLookup,
  resolvePublicAddress,
  type PublicAddressPolicy,
} from '../lib/public-address';
import { fullLengthPrivateKey, newVapidKeys, vapidPublicKeyOf } from '../lib/vapid-key';
import { PermanentDeliveryError, type MessageSender } from './message-sender';
import { deletePushSubscriptionById, deleteServerSetting, pushSubscriptionById } from './web-push-rows';

/** The server's VAPID key pair (base64url, as browsers and the web-push package take them). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const VAPID_KEYS_SETTING = 'push.vapid_keys';

/**
 * The key pair Kabari signs its push messages with (VAPID): VAPID_PRIVATE_KEY when set (it then stays out of the
 * database and its backups, and a copy kept there by an earlier start is removed); otherwise made on first start and
 * kept in the database. Every instance signs with the same key, and the browsers' subscriptions, which name its
 * public half, outlive restarts. A key that changes ends every browser's subscription (their push services refuse
 * it): they turn notifications on again.
 */
export async function loadVapidKeys(db: Database, privateKeyFromEnvironment: string | undefined): Promise<VapidKeys> {
  if (privateKeyFromEnvironment) {
    const publicKey = vapidPublicKeyOf(privateKeyFromEnvironment);
    // The configuration checked it.
    if (!publicKey) throw new Error('VAPID_PRIVATE_KEY is not a P-256 private key');
    await deleteServerSetting(db, VAPID_KEYS_SETTING);
    return { publicKey, privateKey: privateKeyFromEnvironment };
  }
  const keys = await sharedSetting(db, VAPID_KEYS_SETTING, newVapidKeys);
  // A pair stored before keys were padded to 32 bytes still signs: the same key, written whole.
  return { ...keys, privateKey: fullLengthPrivateKey(Buffer.from(keys.privateKey, 'base64url')) };
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

/** What is read of a push service's answer: it carries nothing Kabari needs beyond its status and Location. */
const ANSWER_LIMIT_BYTES = 8 * 1024;

export interface WebPushOptions {
  /** The whole request's deadline, connecting included: below the outbox's claim lease. */
  deadlineMs: number;
  /** The HTTPS agent (tests: one that trusts a local push service's own certificate). */
  agent?: Agent;
  /** Which addresses a push service may have (tests allow their own service on this machine). */
  addressPolicy?: PublicAddressPolicy;
  /** How names are resolved (tests). */
  lookup?: Parameters<typeof resolvePublicAddress>[2];
}

interface PushAnswer {
  status: number;
  location: string;
  body: string;
}

/**
 * One request to a push service, to the address its name was checked to have (pinned: no second lookup), with a
 * deadline for the whole exchange (an idle timeout would let a service that trickles a byte a second hold it for
 * ever) and at most ANSWER_LIMIT_BYTES of its answer read. Redirects are not followed: a push service answers 201.
 */
async function postToPushService(
  endpoint: URL,
  details: { method: string; headers: Record<string, string | number>; body: Buffer | null },
  options: WebPushOptions,
): Promise<PushAnswer> {
  // The deadline counts from before the name's lookup (itself bounded by the resolver's own timeouts).
  const signal = AbortSignal.timeout(options.deadlineMs);
  const pinned = await resolvePublicAddress(endpoint.hostname, options.addressPolicy, options.lookup);
  return new Promise<PushAnswer>((resolve, reject) => {
    const fail = (error: Error) =>
      reject(
        signal.aborted
          ? new Error(`The push service did not answer within ${options.deadlineMs} ms`, { cause: error })
          : error,
      );
    const request = https.request(
      endpoint,
      {
        method: details.method,
        headers: details.headers,
        lookup: pinnedLookup(pinned),
        signal,
        // A connection of its own (no pooled socket to an address checked for another request).
        agent: options.agent ?? false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > ANSWER_LIMIT_BYTES) {
            // Enough to judge it by: the rest is not waited for.
            chunks.push(chunk.subarray(0, ANSWER_LIMIT_BYTES - (size - chunk.length)));
            finish();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', finish);
        response.on('error', fail);
        function finish() {
          const location = response.headers.location;
          resolve({
            status: response.statusCode ?? 0,
            location: typeof location === 'string' ? location : '',
            body: Buffer.concat(chunks).toString('utf8').slice(0, ANSWER_LIMIT_BYTES),
          });
          request.destroy();
        }
      },
    );
    request.on('error', fail);
    request.end(details.body ?? undefined);
  });
}

/**
 * Web Push through the browsers' push services: the web-push package encrypts the payload for the browser and signs
 * the request with the VAPID key; the request itself is ours (postToPushService), since an endpoint is an address a
 * browser, so any signed-in account, gave us. A message's recipient is a push subscription's id: a subscription
 * removed since the message was queued (notifications turned off, the account deleted) is not sent to. An expired
 * one is removed; an endpoint that is not on the public internet, and any other refusal of the message, is final;
 * a service that is down or slow is tried again by the outbox. The message's outbox id is its topic, so a retry
 * replaces, at the push service, a copy not yet delivered.
 */
export function createWebPushSender(
  db: Database,
  vapid: VapidKeys & { subject: string },
  options: WebPushOptions,
): MessageSender {
  let webPush: typeof WebPush | undefined;
  return {
    transport: 'web-push',
    async send({ id, to, text }) {
      const subscription = await pushSubscriptionById(db, to);
      if (!subscription) throw new PermanentDeliveryError('Notifications were turned off in that browser since');
      // Loaded on the first push, as the other providers' SDKs are only when configured.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      webPush ??= require('web-push') as typeof WebPush;
      const details = webPush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        text,
        {
          vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          // A day: news older than that is better read on the dashboard.
          TTL: 24 * 60 * 60,
          urgency: 'normal',
          topic: id.replaceAll('-', ''),
        },
      );
      let answer: PushAnswer;
      try {
        answer = await postToPushService(new URL(subscription.endpoint), details, options);
      } catch (error) {
        // Stored before endpoints were checked, or a name that has moved since: never sent to, and not kept.
        if (error instanceof NonPublicAddressError) {
          await deletePushSubscriptionById(db, subscription.id);
          throw new PermanentDeliveryError(`The push endpoint is not on the public internet: ${error.message}`);
        }
        throw error;
      }
      const { status } = answer;
      if (status >= 200 && status < 300) return { providerRef: answer.location };
      if (EXPIRED.has(status)) {
        await deletePushSubscriptionById(db, subscription.id);
        throw new PermanentDeliveryError(`The push service says the subscription has ended (${status})`);
      }
      // Any other refusal but 429 (too many requests) is of this message or subscription: a retry changes nothing.
      // A redirect is one too: it is not followed.
      if (status >= 300 && status < 500 && status !== 429) {
        throw new PermanentDeliveryError(`The push service refused the message (${status}): ${answer.body}`);
      }
      throw new Error(`The push service answered ${status}`);
    },
    // Each request has its own connection: nothing held open.
    close() {},
  };
}
