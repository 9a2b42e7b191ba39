import type { TwilioHttpClient } from '../../src/messages/twilio-sms';

type RequestOptions = Parameters<TwilioHttpClient['request']>[0];

/** What the fake Twilio answers next: a status code, or a network failure before any answer. */
export type TwilioAnswer = number | 'network';

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
      const answer = answers.shift() ?? 201;
      if (answer === 'network') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
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
