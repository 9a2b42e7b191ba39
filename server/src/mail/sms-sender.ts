// What the outbox needs of an SMS provider, without loading any provider's SDK.

interface SmsSendResult {
  /** The provider's id for the message (Twilio's message SID). */
  providerRef: string;
}

/** A delivery error that another attempt cannot fix (an invalid number, a blocked recipient). */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}

export interface SmsSender {
  send(message: { to: string; body: string }): Promise<SmsSendResult>;
}
