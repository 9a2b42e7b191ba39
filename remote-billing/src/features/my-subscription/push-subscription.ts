// This browser's side of Kabari's notifications: the service worker the host serves at /sw.js, the browser's push
// subscription, and the server's record of it.
import { fetchPushKey, removePushSubscription, savePushSubscription } from './account-api';

export type PushState = 'unsupported' | 'blocked' | 'off' | 'on';

/** Why turning notifications on did not work, for the message shown. */
export class PushRefused extends Error {
  constructor(readonly reason: 'blocked' | 'dismissed' | 'no-service') {
    super(reason);
    this.name = 'PushRefused';
  }
}

const SERVICE_WORKER = '/sw.js';

function supported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function pushState(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission !== 'granted') return 'off';
  const subscription = await currentSubscription();
  if (!subscription) return 'off';
  // The server may have forgotten it (another account signed in here took it, or it expired): told again.
  await savePushSubscription(subscription.toJSON());
  return 'on';
}

/** Asks the browser's permission, subscribes with the server's key and tells the server. */
export async function turnPushOn(): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new PushRefused('blocked');
  if (permission !== 'granted') throw new PushRefused('dismissed');
  const registration = await navigator.serviceWorker.register(SERVICE_WORKER, { scope: '/' });
  await navigator.serviceWorker.ready;
  const { publicKey } = await fetchPushKey();
  let subscription: PushSubscription;
  try {
    subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
  } catch {
    // The browser's push service could not be reached, or the browser offers none.
    throw new PushRefused('no-service');
  }
  await savePushSubscription(subscription.toJSON());
}

/** Ends this browser's subscription, here and on the server. */
export async function turnPushOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await removePushSubscription(subscription.endpoint);
  await subscription.unsubscribe();
}
