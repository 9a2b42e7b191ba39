// Twilio's incoming message webhook, as a provider's answers: where Twilio posts a reply to one of our SMS, what its
// fields say, and the answer Twilio expects. Its signature is checked like a status callback's (twilio-status.ts).

/** Where Twilio posts the messages our number receives (set on the number, or on its messaging service). */
export const TWILIO_INBOUND_PATH = '/api/v1/webhooks/twilio/inbound';

/** TwiML that tells Twilio to send nothing back: a reply of ours goes through the outbox like every message. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** A text someone sent to our number. */
export interface IncomingSms {
  /** The sender as Twilio names it: E.164 for an SMS ("whatsapp:+62…" for WhatsApp). */
  from: string;
  text: string;
  /**
   * Twilio itself answered it as an opt-out keyword: OptOutType is STOP only when the number's messaging service
   * has Advanced Opt-Out, which sends its own confirmation (and refuses any message to the number afterwards).
   */
  answeredByTwilio: boolean;
}

/** The message an incoming message webhook's fields describe; undefined without a sender or a body. */
export function twilioIncomingSms(params: Record<string, string>): IncomingSms | undefined {
  const from = params.From;
  const text = params.Body;
  if (!from || text === undefined) return undefined;
  return { from, text, answeredByTwilio: params.OptOutType?.toUpperCase() === 'STOP' };
}
