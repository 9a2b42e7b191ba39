import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import type { ReceiptState } from '../db/column-values';
import type { DeliveryReceipt } from './delivery-receipts';

// Twilio's status callbacks, as a provider's answers: where Twilio posts them, how their signature is checked, and what
// their MessageStatus means for a receipt. Only the SDK's small webhook module is loaded, not the whole SDK. WhatsApp
// messages sent through Twilio are reported by the same callbacks (with "read" too).

/** Where Twilio posts a message's status (the statusCallback given with each message). */
export const TWILIO_STATUS_PATH = '/api/v1/webhooks/twilio/status';

/**
 * The statusCallback to send with each message: only for a deployment on https. A local trial's address
 * (http://localhost) is out of Twilio's reach, and each unreachable callback is an error in the Twilio account's
 * debugger; over plain http the callbacks' numbers and the signature would cross the network in the clear.
 */
export function twilioStatusCallback(publicUrl: string, localTrial: boolean): string | undefined {
  return !localTrial && publicUrl.startsWith('https://') ? `${publicUrl}${TWILIO_STATUS_PATH}` : undefined;
}

/**
 * Whether the callback was signed by Twilio with our auth token (X-Twilio-Signature), for the URL Twilio posted to:
 * the public address (behind a proxy, never the internal host this server sees) and every form field.
 */
export function isSignedByTwilio(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: Record<string, string>,
): boolean {
  if (!signature) return false;
  return validateRequest(authToken, signature, url, params);
}

// Twilio's MessageStatus values and the receipt each is; the others (inbound messages' statuses, "canceled" for a
// scheduled message, which Kabari never schedules) are not about delivery.
const RECEIPT_OF_STATUS: Record<string, ReceiptState> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
  undelivered: 'undelivered',
};

/** The receipt a status callback's fields report; undefined when it reports nothing about delivery. */
export function twilioReceipt(params: Record<string, string>): DeliveryReceipt | undefined {
  const sid = params.MessageSid ?? params.SmsSid;
  const state = RECEIPT_OF_STATUS[(params.MessageStatus ?? params.SmsStatus ?? '').toLowerCase()];
  if (!sid || !state) return undefined;
  const errorCode = params.ErrorCode && /^\d{1,10}$/.test(params.ErrorCode) ? params.ErrorCode : null;
  return { message: { transport: 'twilio', providerRef: sid }, state, errorCode };
}

/** Why a message did not reach its recipient, in words a requester can act on. */
export const DELIVERY_FAILURE_REASONS = [
  'unreachable',
  'invalid-number',
  'blocked',
  'no-whatsapp',
  'other',
  // An email's (smtp-receipts.ts).
  'no-mailbox',
  'mail-refused',
] as const;
export type DeliveryFailureReason = (typeof DELIVERY_FAILURE_REASONS)[number];

// Twilio's error codes for a message that failed or was undelivered (its Messaging errors, 21xxx and 30xxx, and
// WhatsApp's 63xxx), grouped by what the requester can do about them; the others land in 'other'.
const FAILURE_REASONS: Record<string, DeliveryFailureReason> = {
  // The phone is off or out of coverage: trying later may work.
  '30003': 'unreachable',
  // The number does not exist, is not mobile, or cannot take SMS: check the number.
  '21211': 'invalid-number',
  '21614': 'invalid-number',
  '30005': 'invalid-number',
  '30006': 'invalid-number',
  // The recipient or their carrier refused it (blocked, replied STOP, filtered as spam).
  '21610': 'blocked',
  '30004': 'blocked',
  '30007': 'blocked',
  // The number has no WhatsApp, or WhatsApp will not take messages for it (twilio-whatsapp.ts NO_WHATSAPP_CODES).
  '63003': 'no-whatsapp',
  '63024': 'no-whatsapp',
};

export function twilioFailureReason(errorCode: string | null): DeliveryFailureReason {
  return (errorCode && FAILURE_REASONS[errorCode]) || 'other';
}
