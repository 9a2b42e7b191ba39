import twilio from 'twilio';
import { PermanentDeliveryError, ProviderCredentialsError, type MessageSender } from './message-sender';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** A number, a messaging service SID (MG…) or an alphanumeric sender ID. */
  from: string;
  /** Where Twilio posts the message's delivery receipts (twilio-status.ts); none: no receipts are asked for. */
  statusCallback?: string;
}

/**
 * Tests only: the address of a local fake of Twilio's API the SDK sends to instead of https://api.twilio.com. Given
 * only by the code that builds the app (no environment variable sets it), and refused in production.
 */
export type TwilioApiBaseUrl = string;

/**
 * The SDK's client for Kabari's account. Its own retries are off: the outbox dispatcher retries with its own backoff
 * and keeps the attempt count in the database, so a restart does not lose track.
 */
export function twilioClient(
  settings: Pick<TwilioSettings, 'accountSid' | 'authToken'>,
  apiBaseUrl: TwilioApiBaseUrl | undefined,
  timeoutMs: number,
): twilio.Twilio {
  const client = twilio(settings.accountSid, settings.authToken, { autoRetry: false, timeout: timeoutMs });
  if (apiBaseUrl !== undefined) {
    if (process.env.NODE_ENV === 'production') throw new Error("Twilio's API address is not overridden in production");
    // The SDK's Messages API (api.twilio.com) is one domain: its base URL is where every message goes.
    client.api.baseUrl = apiBaseUrl;
  }
  return client;
}

/** Twilio's refusal of a message as the outbox reads it: Kabari's credentials, this message for good, or try again. */
export function twilioRefusal(error: unknown): unknown {
  const status = (error as { status?: number }).status;
  const code = (error as { code?: number }).code;
  const reason = error instanceof Error ? error.message : String(error);
  // 401 and 403: Twilio refuses the account's credentials, whatever the message.
  if (status === 401 || status === 403) {
    return new ProviderCredentialsError('twilio', `Twilio refused Kabari's credentials (${status}): ${reason}`);
  }
  // Any other 4xx but 429 (too many requests) is Twilio refusing this message: trying again changes nothing.
  if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
    return new PermanentDeliveryError(
      `Twilio refused the message (${status}${code ? `, code ${code}` : ''}): ${reason}`,
      code ? String(code) : undefined,
    );
  }
  return error;
}

/** SMS through Twilio's Messages API. */
export function createTwilioSender(
  settings: TwilioSettings,
  apiBaseUrl?: TwilioApiBaseUrl,
  /** One request's limit: below the outbox's claim lease, so a hung request never outlives its claim. */
  timeoutMs = 30_000,
): MessageSender {
  const client = twilioClient(settings, apiBaseUrl, timeoutMs);
  const sender = {
    ...(settings.from.startsWith('MG') ? { messagingServiceSid: settings.from } : { from: settings.from }),
    ...(settings.statusCallback ? { statusCallback: settings.statusCallback } : {}),
  };
  return {
    transport: 'twilio',
    async send({ to, text }) {
      try {
        const message = await client.messages.create({ to, body: text, ...sender });
        return { providerRef: message.sid };
      } catch (error) {
        throw twilioRefusal(error);
      }
    },
    // Plain HTTPS requests: nothing held open.
    close() {},
  };
}
