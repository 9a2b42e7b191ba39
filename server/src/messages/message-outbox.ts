import type { DatabaseExecutor } from '../db/open-database';
import type { Locale } from '../lib/messages';
import type { PublicAddressPolicy } from '../lib/public-address';
import type { PushNotification } from './web-push-sender';
import type { WhatsAppContent } from './whatsapp-content';

// What the rules that send messages (sign-ups, renewals, requests, notices) hand to the outbox. The outbox itself,
// its dispatcher and its providers, is a plugin (plugins/message-outbox.ts): the rules know only this.

export interface OutgoingEmail {
  /** The same key twice queues one message: retries of a request never send twice. */
  idempotencyKey: string;
  to: string;
  locale: Locale;
  subject: string;
  text: string;
  html: string;
  /** Where replies go, when not to the sender (MAIL_FROM): e.g. the visitor who wrote through the contact form. */
  replyTo?: string;
  /**
   * Delete the row once a provider has taken the message (or refused it for good), instead of keeping it for
   * RETENTION_DAYS: for a message to an address we no longer keep (the notice that an account was deleted). With no
   * provider the outbox itself is the delivery, so the row stays there like any other.
   */
  eraseWhenSent?: boolean;
}

export interface OutgoingSms {
  /** The same key twice queues one message. */
  idempotencyKey: string;
  /** E.164. */
  to: string;
  locale: Locale;
  text: string;
}

export interface OutgoingWhatsApp {
  /** The same key twice queues one message. */
  idempotencyKey: string;
  /** E.164: the sender adds `whatsapp:`. */
  to: string;
  /** Which approved template goes. */
  locale: Locale;
  /**
   * The approved template's variables; or, for an answer to a message the recipient sent (which opens WhatsApp's
   * customer service window), free text instead of a template.
   */
  content: WhatsAppContent;
}

export interface OutgoingPush {
  /** The same key twice queues one message. */
  idempotencyKey: string;
  /** The push subscription (one browser) it goes to. */
  subscriptionId: string;
  locale: Locale;
  notification: PushNotification;
}

export interface MessageOutbox {
  /** 'smtp' with SMTP_URL; otherwise 'local': messages stay in the outbox, readable at /dev/outbox. */
  readonly transport: 'smtp' | 'local';
  /** 'twilio' with the TWILIO_* variables; otherwise 'local', like email without SMTP. */
  readonly smsTransport: 'twilio' | 'local';
  /**
   * 'twilio' with the TWILIO_WHATSAPP_* variables; 'local' without Twilio at all (the local outbox, like SMS); 'none'
   * when Twilio sends SMS but no WhatsApp sender is configured: a request cannot go by WhatsApp.
   */
  readonly whatsappTransport: 'twilio' | 'local' | 'none';
  /** The public half of the key push messages are signed with: browsers subscribe with it. */
  readonly vapidPublicKey: string;
  /** Which addresses a browser's push endpoint may have. */
  readonly pushAddressPolicy: PublicAddressPolicy;
  /**
   * Writes the email to the outbox, inside the caller's transaction when given one. Resolves with the message's
   * id, or null when a message with that idempotency key was already queued.
   */
  queue(db: DatabaseExecutor, email: OutgoingEmail): Promise<string | null>;
  /** Writes an SMS to the outbox, like queue(). */
  queueSms(db: DatabaseExecutor, sms: OutgoingSms): Promise<string | null>;
  /** Writes a WhatsApp template message to the outbox, like queue(). */
  queueWhatsApp(db: DatabaseExecutor, whatsApp: OutgoingWhatsApp): Promise<string | null>;
  /** Writes a push notification to the outbox, like queue(). Web Push needs no provider of ours: always sent. */
  queuePush(db: DatabaseExecutor, push: OutgoingPush): Promise<string | null>;
  /** Asks the dispatcher to deliver now instead of at its next tick (call after the transaction commits). */
  kick(): void;
  /** Delivers the messages that are due; resolves with how many were attempted. */
  dispatchDue(): Promise<number>;
}
