import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

// The values each state column may hold, written once: the list types the column in the code (Drizzle's text enum)
// and makes its check constraint in the database, so neither can take a value the other does not know.

export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop'] as const;
export const VERIFICATION_PURPOSES = [
  'reset_password',
  'auth_code',
  'refund_request',
  'delete_account',
  'change_email',
  // The recipient's consent overview: the code sent to an address, and the 15-minute session it opens.
  'overview_code',
  'overview_session',
] as const;
export const CONTACT_TOPICS = ['question', 'billing', 'privacy', 'misuse', 'other'] as const;
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'paypal', 'midtrans'] as const;
/** The providers whose webhooks Kabari takes (the sandbox has none). */
export const WEBHOOK_PROVIDERS = ['stripe', 'paypal', 'midtrans'] as const;
/**
 * The ways to pay in Indonesia that the payer completes in their own app (through Midtrans, or the sandbox), in the
 * order the payment step shows them: QRIS (which every bank and e-wallet app scans, OVO and DANA included), the
 * e-wallets with a link into their app, then the banks' virtual accounts and Mandiri's bill payment.
 */
export const LOCAL_CHANNELS = ['qris', 'gopay', 'shopeepay', 'bca_va', 'bni_va', 'bri_va', 'mandiri_bill'] as const;

export const OUTBOX_CHANNELS = ['email', 'sms', 'push', 'whatsapp'] as const;
export const OUTBOX_STATES = ['queued', 'sent', 'failed'] as const;
/**
 * What a provider's delivery receipts (Twilio's status callbacks, for SMS and WhatsApp alike) last said of a message,
 * in the order they can only move forward: queued < sent < delivered < read; failed and undelivered are final.
 */
export const RECEIPT_STATES = ['queued', 'sent', 'delivered', 'read', 'failed', 'undelivered'] as const;
export type ReceiptState = (typeof RECEIPT_STATES)[number];

/** The register result screen's states: querying → created | sign_failed | unsubscribed | unknown. */
export const REGISTRATION_STATES = ['querying', 'created', 'sign_failed', 'unsubscribed', 'unknown'] as const;
export const SUBSCRIPTION_STATUSES = ['trial', 'active', 'cancelled', 'expired', 'unsubscribed'] as const;
export const PAYMENT_KINDS = ['first_day', 'renewal'] as const;
export const PAYMENT_STATES = ['pending', 'succeeded', 'failed', 'refunded', 'partly_refunded', 'disputed'] as const;
/** Why money we did not earn is owed back (refunds-owed.ts). */
export const REFUND_REASONS = [
  'email_in_use',
  'late_renewal',
  'duplicate_payment',
  'suspension',
  'amount_mismatch',
] as const;
export const REFUND_REQUEST_STATES = ['open', 'refunded', 'rejected'] as const;

export const REQUEST_CHANNELS = ['sms', 'email', 'link'] as const;
/**
 * What became of a WhatsApp request whose number has no WhatsApp: an SMS went instead ('sms'), or none could, the
 * day's SMS limits being reached ('limit') or the number having opted out meanwhile ('opted-out').
 */
export const WHATSAPP_FALLBACKS = ['sms', 'limit', 'opted-out'] as const;
export type WhatsAppFallback = (typeof WHATSAPP_FALLBACKS)[number];
/** What a location request has shared so far. */
export const REQUEST_STATUSES = ['pending', 'ip_located', 'gps_tracked'] as const;
export const POSITION_SOURCES = ['ip', 'gps'] as const;
/** What a recipient may report a request for. */
export const REPORT_REASONS = ['unknown_requester', 'harassment', 'stalking', 'spam', 'other'] as const;
/** What the operator decided about an abuse report (safety-desk/): a closed report has one. */
export const REPORT_OUTCOMES = ['dismissed', 'warned', 'suspended'] as const;
/** A requester's live events: a request's view changed, a position arrived, consent was withdrawn. */
export const REQUEST_EVENT_TYPES = ['request', 'position', 'withdrawn'] as const;
/** What the recipient decided: none → declined | sharing → stopped | withdrawn; cancelled by the requester. */
export const CONSENT_STATES = ['none', 'declined', 'sharing', 'stopped', 'withdrawn', 'cancelled'] as const;
/** What a requester is told of a recipient's answer without opening the dashboard, and how. */
/**
 * Why a live window ended before its time: the recipient's browser refused or lost the position (unsupported,
 * denied, failed, disabled: what the page reports), or the page fell silent (closed, or the phone asleep).
 */
export const LIVE_END_REASONS = ['unsupported', 'denied', 'failed', 'disabled', 'silent'] as const;
export const REQUESTER_NOTICES = ['shared', 'declined', 'stopped', 'withdrawn', 'live_ended'] as const;
export const NOTICE_CHANNELS = ['email', 'push'] as const;
/** A requester's note sent with a request, a recipient's reply, or the copy an abuse report keeps of the note. */
export const VOICE_NOTE_KINDS = ['request', 'reply', 'report'] as const;
/**
 * The audio formats taken, as read from the bytes: what browsers record (Opus in WebM or Ogg, AAC in MP4) and the
 * MP3s and M4As a phone keeps.
 */
export const VOICE_MEDIA_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4', 'audio/mpeg'] as const;

export type ContactTopic = (typeof CONTACT_TOPICS)[number];
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];
export type LocalChannel = (typeof LOCAL_CHANNELS)[number];
export type RequestEventType = (typeof REQUEST_EVENT_TYPES)[number];
export type RegistrationState = (typeof REGISTRATION_STATES)[number];
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type PaymentState = (typeof PAYMENT_STATES)[number];
export type RefundReason = (typeof REFUND_REASONS)[number];
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];
export type RequestChannel = (typeof REQUEST_CHANNELS)[number];
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export type ConsentState = (typeof CONSENT_STATES)[number];
export type RequesterNotice = (typeof REQUESTER_NOTICES)[number];
export type LiveEndReason = (typeof LIVE_END_REASONS)[number];
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];
export type VoiceNoteKind = (typeof VOICE_NOTE_KINDS)[number];
export type VoiceMediaType = (typeof VOICE_MEDIA_TYPES)[number];

/**
 * The parts of a position's place, stored with it so that each reader sees it in their own language (the apps
 * format it with shared/src/geo/place-address.ts): names as the place writes them, the country as its ISO code.
 */
export interface Place {
  /** A town, or a street address from a Nominatim-compatible service; null when only the country is known. */
  name: string | null;
  /** The region of an approximate place from the IP address, when it differs from the name. */
  region?: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string | null;
  /** Whole kilometres from the named place, when the position is not in it. */
  distanceKm?: number | null;
}

/** `column in ('a', 'b', …)`, for a check constraint (the values are this module's constants, never input). */
export function oneOf(column: AnyColumn, values: readonly string[]): SQL {
  return sql`${column} in (${sql.raw(values.map((value) => `'${value}'`).join(', '))})`;
}
