import type { ReceiptState } from '../db/column-values';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { applyDeliveryReceipt, type DeliveryReceipt, type ReceiptOutcome } from '../messages/delivery-receipts';
import { requestsOfMessage } from '../messages/outbox-rows';
import { isSignedByTwilio, twilioReceipt } from '../messages/twilio-status';
import type { TwilioSettings } from '../messages/twilio-sms';
import { publishRequestChange } from './location-request-view';
import { hasNoWhatsApp, sendSmsInsteadOfWhatsApp, type SmsFallbackServices } from './whatsapp-fallback';

// What happens to a request's message after it is handed over, as its requester sees it: the outbox's own outcome
// (sent, failed) and the provider's delivery receipts, each published live to the requester when it changes the view.

/** The settings the SMS fallback reads: the site's address, the operator's, the send limits. */
export interface SmsFallbackSettings {
  publicUrl: string;
  operatorEmail: string;
  requests: { sendLimits: SmsFallbackServices['sendLimits'] };
}

/** The fallback's services from the server's settings and services. */
export function smsFallbackServices(
  settings: SmsFallbackSettings,
  outbox: SmsFallbackServices['outbox'],
  hmacSecret: Buffer,
): SmsFallbackServices {
  return {
    outbox,
    hmacSecret,
    publicUrl: settings.publicUrl,
    operatorEmail: settings.operatorEmail,
    sendLimits: settings.requests.sendLimits,
  };
}

/** Publishes the current view of every request whose link the message carries (inside the change's transaction). */
export async function publishDeliveryChange(tx: DatabaseExecutor, messageId: string): Promise<void> {
  const requests = await requestsOfMessage(tx, messageId);
  for (const request of requests) await publishRequestChange(tx, request.userId, request.id);
}

/** What the requester's view shows of a receipt: queued and sent add nothing to the outbox's own "sent". */
function shownOf(state: ReceiptState | null): string {
  if (state === null || state === 'queued' || state === 'sent') return 'sent';
  return state === 'undelivered' ? 'failed' : state;
}

/**
 * Records a delivery receipt (messages/delivery-receipts.ts) and, when it changes what the requester's view shows
 * (delivered, read, failed with its reason), publishes the request to its owner's live stream. A WhatsApp message the
 * number could not take (no WhatsApp) sends its request by SMS instead (whatsapp-fallback.ts).
 */
export async function recordDeliveryReceipt(
  db: Database,
  receipt: DeliveryReceipt,
  /** What the SMS fallback uses; without it a WhatsApp message's failure is only recorded. */
  fallback?: SmsFallbackServices,
): Promise<ReceiptOutcome> {
  let smsQueued = false;
  const outcome = await applyDeliveryReceipt(db, receipt, async (tx, messageId, previous) => {
    if (fallback && hasNoWhatsApp(receipt.state, receipt.errorCode)) {
      const instead = await sendSmsInsteadOfWhatsApp(tx, fallback, messageId);
      smsQueued = instead === 'sms';
      if (instead) return;
    }
    if (shownOf(previous) !== shownOf(receipt.state)) await publishDeliveryChange(tx, messageId);
  });
  if (smsQueued) fallback?.outbox.kick();
  return outcome;
}

/** A status callback as Twilio posted it: the URL it posted to (the public one), its signature and its form fields. */
export interface TwilioStatusCallback {
  url: string;
  signature: string | undefined;
  params: Record<string, string>;
}

export type TwilioCallbackOutcome =
  { kind: 'not-configured' } | { kind: 'forbidden' } | { kind: 'ignored' } | ReceiptOutcome;

/**
 * A Twilio status callback: refused unless signed with our auth token for the public URL; then its receipt is
 * recorded. A callback about no message of ours (or about no delivery) is answered and ignored.
 */
export async function receiveTwilioStatus(
  db: Database,
  fallback: SmsFallbackServices,
  twilio: Pick<TwilioSettings, 'authToken'> | undefined,
  callback: TwilioStatusCallback,
): Promise<TwilioCallbackOutcome> {
  if (!twilio) return { kind: 'not-configured' };
  if (!isSignedByTwilio(twilio.authToken, callback.signature, callback.url, callback.params)) {
    return { kind: 'forbidden' };
  }
  const receipt = twilioReceipt(callback.params);
  if (!receipt) return { kind: 'ignored' };
  return recordDeliveryReceipt(db, receipt, fallback);
}
