// What the outbox needs of a provider (SMTP for email, Twilio for SMS and WhatsApp, Web Push), without loading any
// provider's SDK: each channel's provider is one MessageSender, and a channel without one keeps its messages in the
// outbox itself.

/** A message as a provider is given it. */
export interface ProviderMessage {
  /** The outbox row's id: SMTP sends it as the Message-ID. */
  id: string;
  /** An email address, an E.164 number, or a push subscription's id. */
  to: string;
  /** A WhatsApp message's template variables, as JSON (twilio-whatsapp.ts). */
  text: string;
  /** The message's language: which WhatsApp template goes. */
  locale?: string;
  /** Email only. */
  subject?: string;
  html?: string;
  replyTo?: string;
}

export interface MessageSender {
  /** The provider's name, stored as the message's transport once it has taken it. */
  readonly transport: 'smtp' | 'twilio' | 'web-push';
  /**
   * Resolves once the provider has taken the message, with its reference for it (Twilio's message SID, the SMTP
   * Message-ID), and a receipt when taking it already says it arrived (an SMTP server of the recipient's domain
   * accepted it); rejects with PermanentDeliveryError when no retry can help, and with ProviderCredentialsError when
   * the provider refuses Kabari's credentials.
   */
  send(message: ProviderMessage): Promise<{ providerRef: string; receipt?: 'delivered' }>;
  /** Releases its connections on shutdown. */
  close(): void;
}

/** A delivery error that another attempt cannot fix (an invalid number, a blocked recipient, a mailbox refused). */
export class PermanentDeliveryError extends Error {
  constructor(
    message: string,
    /**
     * The provider's error code (Twilio's, or "smtp:<reply code>"), kept as the message's failed receipt so the
     * requester is told why.
     */
    readonly providerCode?: string,
  ) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}

/**
 * The provider refuses Kabari's own credentials (a wrong or revoked token or password): no message can go through it
 * until the operator fixes the configuration, and the messages are not at fault. They stay queued, retried slowly,
 * and the operator is told.
 */
export class ProviderCredentialsError extends Error {
  constructor(
    // Web Push has no credentials of ours a push service could refuse: a VAPID key pair is accepted by any.
    readonly transport: 'smtp' | 'twilio',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderCredentialsError';
  }
}
