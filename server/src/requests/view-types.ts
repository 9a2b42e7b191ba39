import type { ConsentState, LiveEndReason, RequestChannel, RequestStatus, WhatsAppFallback } from '../db/column-values';
import type { Place } from '../db/column-values';
import type { VoiceNoteView } from '../voice/voice-notes';
import type { DeliveryFailureReason } from '../messages/twilio-status';

// What a requester sees of their requests, in the API and on the live stream: types only, so that the live events
// can name them without importing the code that builds them.

/** A position as the requester sees it (docs/api-v1.md `Position`). */
export interface PositionView {
  id: number;
  source: 'ip' | 'gps';
  latitude: number;
  longitude: number;
  accuracyMeters: number | null;
  address: string | null;
  /** The address's parts, for the reader's language; null on positions stored before them. */
  place: Place | null;
  recordedAt: string;
}

/** A request as its owner sees it (docs/api-v1.md `LocationRequest`). */
export interface LocationRequestView {
  id: string;
  channel: RequestChannel;
  target: string | null;
  title: string | null;
  url: string | null;
  status: RequestStatus;
  consent: ConsentState;
  delivery: DeliveryState | null;
  /** Why the message did not reach its recipient, when the provider's receipt said it failed; null otherwise. */
  deliveryFailure: DeliveryFailure | null;
  /**
   * Sent by WhatsApp (a request to a number): and when the number had none, what was done instead (an SMS, whose
   * delivery `delivery` then shows; or none, for the day's SMS limits or an opt-out). Null for any other request.
   */
  whatsapp: { fallback: WhatsAppFallback | null } | null;
  requestTime: string;
  openedTime: string | null;
  locatedTime: string | null;
  liveUntil: string | null;
  /** The last live window's early end: when, and why (null when it ran to its time, or none ended early). */
  liveEnd: { at: string; reason: LiveEndReason | null } | null;
  expiresAt: string;
  lastPosition: PositionView | null;
  voiceNote: VoiceNoteView | null;
  voiceReply: VoiceNoteView | null;
}

/**
 * What happened to the message: 'queued' (waiting for the provider, or retrying), 'sent' (a provider, SMTP or
 * Twilio, accepted it), 'delivered' and 'read' (the provider's receipt said so), 'failed' (given up, or the
 * provider's receipt said it failed or was undelivered), or 'outbox': no provider is configured for its channel, so
 * it stays in the local outbox (/dev/outbox) and never reaches the recipient. The outbox row says 'sent' with
 * transport 'local' (it is done with); the requester must not read that as delivered.
 */
export type DeliveryState = 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'outbox';

/** Why a message failed, as the provider's receipt said (its error code, grouped: messages/twilio-status.ts). */
export interface DeliveryFailure {
  reason: DeliveryFailureReason;
}
