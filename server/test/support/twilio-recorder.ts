import { createHmac } from 'node:crypto';
import type { TwilioHttpClient } from '../../src/messages/twilio-sms';

type RequestOptions = Parameters<TwilioHttpClient['request']>[0];

/**
 * What the fake Twilio answers next: a status code, a refusal with Twilio's own error code (e.g. 400 with 63003, a
 * number without WhatsApp), or a network failure before any answer.
 */
export type TwilioAnswer = number | { status: number; code: number; message: string } | 'network';

/**
 * Twilio's HTTP client replaced by a recorder: every request the SDK makes is kept exactly as it was built, and
 * the answers follow a script (201 once the script runs out). No network.
 */
export function recordingTwilioClient(script: TwilioAnswer[] = []) {
  const requests: RequestOptions[] = [];
  const answers = [...script];
  let sent = 0;
  const client: TwilioHttpClient = {
    request: (async (options: RequestOptions) => {
      requests.push(options);
      const next = answers.shift() ?? 201;
      if (next === 'network') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      if (typeof next === 'object') {
        return { statusCode: next.status, body: JSON.stringify(next), headers: {} };
      }
      const answer = next;
      const body =
        answer === 201
          ? {
              sid: `SM${String(++sent).padStart(32, '0')}`,
              status: 'queued',
              to: (options.data as { To?: string })?.To,
            }
          : {
              code: answer === 400 ? 21211 : answer === 401 ? 20003 : 20500,
              message:
                answer === 400
                  ? "The 'To' number is not a valid phone number."
                  : answer === 401
                    ? 'Authenticate'
                    : 'Service unavailable',
              status: answer,
            };
      return { statusCode: answer, body: JSON.stringify(body), headers: {} };
    }) as TwilioHttpClient['request'],
  };
  return {
    client,
    requests,
    /** Appends answers to the script. */
    answer: (...more: TwilioAnswer[]) => answers.push(...more),
  };
}

/**
 * A status callback as Twilio posts it for a message it took: its form fields, signed as Twilio signs them
 * (X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth token, of the URL Twilio posts to followed by every
 * field's name and value, sorted by name). Written from Twilio's description, not with the SDK, so the server's
 * check is tested against an independent signer.
 */
export function signedStatusCallback(options: {
  authToken: string;
  /** The address Twilio posts to: the statusCallback it was given. */
  url: string;
  messageSid: string;
  status: string;
  errorCode?: string;
}) {
  const fields: Record<string, string> = {
    AccountSid: `AC${'0123456789abcdef'.repeat(2)}`,
    ApiVersion: '2010-04-01',
    From: '+15005550006',
    MessageSid: options.messageSid,
    MessageStatus: options.status,
    SmsSid: options.messageSid,
    SmsStatus: options.status,
    To: '+6281234567890',
    ...(options.errorCode ? { ErrorCode: options.errorCode } : {}),
  };
  const signed = Object.keys(fields)
    .sort()
    .reduce((text, name) => text + name + fields[name], options.url);
  return {
    fields,
    payload: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': createHmac('sha1', options.authToken).update(signed).digest('base64'),
    },
  };
}
