import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks';
import type { BuildAppOptions } from '../../src/app';
import { TWILIO_INBOUND_PATH } from '../../src/messages/twilio-inbound';
import { buildTestApp, type TestApp } from './test-app';

// A local fake of Twilio's Messages API, a real HTTP server the real `twilio` SDK is pointed at (the build option
// twilioApiBaseUrl), written from Twilio's documentation: POST /2010-04-01/Accounts/{AccountSid}/Messages.json with a
// form body and HTTP Basic auth (the account SID and auth token), answered 201 with the message resource in Twilio's
// JSON shape, or 4xx/5xx with Twilio's error object ({code, message, more_info, status}). Then, as Twilio does, it
// posts status callbacks to each message's StatusCallback and incoming messages to the number's webhook, signed with
// X-Twilio-Signature (the SDK's own signer, for the public URL). Posts to the public address go to the server under
// test, as a proxy in front of it would forward them.

/** A refusal in Twilio's words: the HTTP status and Twilio's error code (21211, 21610, 63003…). */
export interface TwilioRefusal {
  status: number;
  code: number;
  message: string;
}

/**
 * What the fake answers a message: a refusal, the connection dropped before any answer, or taken (201) only once the
 * promise settles (a slow Twilio).
 */
export type FakeTwilioAnswer = TwilioRefusal | 'network' | { after: Promise<void> };

/** A message as the fake received it: the form's fields (To, From, Body, ContentSid, StatusCallback…) and its SID. */
export interface ReceivedMessage {
  sid: string;
  fields: Record<string, string>;
  /** The request's Content-Type and Accept. */
  headers: { contentType: string | undefined; accept: string | undefined };
}

/** Twilio's refusals the tests use, with its own codes and texts. */
export const TWILIO_REFUSALS = {
  invalidNumber: { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." },
  optedOut: { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' },
  noWhatsApp: { status: 400, code: 63003, message: 'Channel could not find To address' },
  unauthorized: { status: 401, code: 20003, message: 'Authenticate' },
  unavailable: { status: 503, code: 20500, message: 'Service unavailable' },
  tooManyRequests: { status: 429, code: 20429, message: 'Too Many Requests' },
} as const satisfies Record<string, TwilioRefusal>;

export interface FakeTwilio {
  /** Where the SDK is pointed: http://127.0.0.1:port. */
  readonly baseUrl: string;
  /** Every message posted to the Messages API, in order, refused ones too. */
  readonly messages: ReceivedMessage[];
  /** Answers the next messages so, in order (a message with none queued is taken: 201). */
  answer(...answers: FakeTwilioAnswer[]): void;
  /** Called as each message arrives, before it is answered. */
  onMessage: ((message: ReceivedMessage) => void) | undefined;
  /** Refuses every message to this To (as "whatsapp:+…" for WhatsApp) with the refusal, e.g. 21610 opted out. */
  refuseTo(to: string, refusal: TwilioRefusal): void;
  /**
   * Posts a status callback for a message it took to the message's StatusCallback, signed as Twilio signs it (with
   * another token, or unsigned when authToken is null). Resolves with the server's answer.
   */
  statusCallback(
    sid: string,
    status: string,
    options?: { errorCode?: string; fields?: Record<string, string> } & Forgery,
  ): Promise<WebhookAnswer>;
  /** Posts an incoming message (a reply) from `from` to the inbound webhook, signed like a callback. */
  incoming(
    from: string,
    text: string,
    options?: { extra?: Record<string, string>; sid?: string } & Forgery,
  ): Promise<WebhookAnswer>;
  close(): Promise<void>;
}

/** The server's answer to a post of the fake. */
export interface WebhookAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** What a test changes to post a callback Twilio would not: to see it refused. */
export interface Forgery {
  /** Signed with another token; null: no signature at all. */
  authToken?: string | null;
  /** Signed for another address than the one posted to. */
  signedUrl?: string;
  /** Fields changed after signing. */
  tamper?: Record<string, string>;
  /** More request headers (e.g. X-Forwarded-Host). */
  headers?: Record<string, string>;
}

export interface FakeTwilioOptions {
  accountSid: string;
  authToken: string;
  /** The deployment's public address (PUBLIC_URL): what Twilio is given and signs. */
  publicUrl: string;
  /** Where the proxy in front of the server forwards: the server under test, listening (http://127.0.0.1:port). */
  forwardTo: () => string;
  /** The incoming message webhook set on Kabari's number (a path under publicUrl). */
  inboundPath: string;
  /** Kabari's number: where an incoming SMS is addressed. */
  ourNumber: string;
  /** Kabari's WhatsApp sender (whatsapp:+… or +…): where an incoming WhatsApp message is addressed. */
  whatsAppFrom?: string;
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startFakeTwilio(options: FakeTwilioOptions): Promise<FakeTwilio> {
  const messages: ReceivedMessage[] = [];
  const answers: FakeTwilioAnswer[] = [];
  const refusedTo = new Map<string, TwilioRefusal>();
  let sids = 0;
  // Filled in once listening; the server's handler reads its onMessage.
  const fake = { onMessage: undefined } as FakeTwilio;
  const messagesPath = `/2010-04-01/Accounts/${options.accountSid}/Messages.json`;
  const basic = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };
      const refuse = (refusal: TwilioRefusal) =>
        send(refusal.status, {
          code: refusal.code,
          message: refusal.message,
          more_info: `https://www.twilio.com/docs/errors/${refusal.code}`,
          status: refusal.status,
        });
      if (request.method !== 'POST' || request.url !== messagesPath) {
        return refuse({ status: 404, code: 20404, message: 'The requested resource was not found' });
      }
      if (request.headers.authorization !== basic) return refuse(TWILIO_REFUSALS.unauthorized);
      const fields = Object.fromEntries(new URLSearchParams(body));
      const sid = `SM${String(++sids).padStart(32, '0')}`;
      messages.push({
        sid,
        fields,
        headers: { contentType: request.headers['content-type'], accept: request.headers.accept },
      });
      fake.onMessage?.(messages.at(-1)!);
      const next = answers.shift();
      if (next === 'network') {
        request.socket.destroy();
        return;
      }
      if (next !== undefined && 'after' in next) await next.after;
      const refusal = next !== undefined && 'after' in next ? undefined : (next ?? refusedTo.get(fields.To ?? ''));
      if (refusal) return refuse(refusal);
      if (!fields.To || !(fields.From || fields.MessagingServiceSid) || !(fields.Body || fields.ContentSid)) {
        return refuse({ status: 400, code: 21604, message: 'A required parameter is missing' });
      }
      const now = new Date().toUTCString();
      send(201, {
        account_sid: options.accountSid,
        api_version: '2010-04-01',
        body: fields.Body ?? '',
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: fields.From ?? null,
        messaging_service_sid: fields.MessagingServiceSid ?? null,
        num_media: '0',
        num_segments: '1',
        price: null,
        price_unit: 'USD',
        sid,
        status: 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${options.accountSid}/Messages/${sid}/Media.json` },
        to: fields.To,
        uri: `/2010-04-01/Accounts/${options.accountSid}/Messages/${sid}.json`,
      });
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** Posts a form to a public URL, signed for it, through the proxy to the server under test. */
  async function post(publicTarget: string, fields: Record<string, string>, forgery: Forgery) {
    if (!publicTarget.startsWith(options.publicUrl)) throw new Error(`not an address of the server: ${publicTarget}`);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'TwilioProxy/1.1',
      ...forgery.headers,
    };
    const authToken = forgery.authToken === undefined ? options.authToken : forgery.authToken;
    if (authToken !== null) {
      headers['x-twilio-signature'] = getExpectedTwilioSignature(authToken, forgery.signedUrl ?? publicTarget, fields);
    }
    const answer = await fetch(`${options.forwardTo()}${publicTarget.slice(options.publicUrl.length)}`, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ ...fields, ...forgery.tamper }).toString(),
    });
    return { status: answer.status, contentType: answer.headers.get('content-type'), body: await answer.text() };
  }

  const methods: FakeTwilio = {
    onMessage: undefined,
    baseUrl: `http://127.0.0.1:${port}`,
    messages,
    answer: (...more) => answers.push(...more),
    refuseTo: (to, refusal) => refusedTo.set(to, refusal),
    async statusCallback(sid, status, callback = {}) {
      const message = messages.find((each) => each.sid === sid);
      // A message the fake never took (an unknown id): posted to where the last message asked.
      const target = message?.fields.StatusCallback ?? messages.at(-1)?.fields.StatusCallback;
      if (!target) throw new Error('no StatusCallback was given');
      const fields: Record<string, string> = {
        AccountSid: options.accountSid,
        ApiVersion: '2010-04-01',
        From: message?.fields.From ?? options.ourNumber,
        MessageSid: sid,
        MessageStatus: status,
        SmsSid: sid,
        SmsStatus: status,
        To: message?.fields.To ?? '+6281234567890',
        ...(callback.errorCode ? { ErrorCode: callback.errorCode } : {}),
        ...callback.fields,
      };
      return post(target, fields, callback);
    },
    async incoming(from, text, incoming = {}) {
      const whatsApp = from.startsWith('whatsapp:');
      const fields: Record<string, string> = {
        AccountSid: options.accountSid,
        ApiVersion: '2010-04-01',
        Body: text,
        From: from,
        MessageSid: incoming.sid ?? `SM${String(++sids).padStart(32, 'a')}`,
        NumMedia: '0',
        NumSegments: '1',
        SmsStatus: 'received',
        To: whatsApp
          ? `whatsapp:${(options.whatsAppFrom ?? options.ourNumber).replace(/^whatsapp:/, '')}`
          : options.ourNumber,
        ...incoming.extra,
      };
      return post(`${options.publicUrl}${options.inboundPath}`, fields, incoming);
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
  return Object.assign(fake, methods);
}

/** A test app reached over HTTP (as the proxy reaches it) with the real Twilio SDK pointed at a fake Twilio. */
export interface TwilioTestApp {
  testApp: TestApp;
  twilio: FakeTwilio;
  close(): Promise<void>;
}

/** The whole app, listening on 127.0.0.1, with TWILIO_* from env and its SDK sending to a fake Twilio. */
export async function buildTwilioTestApp(
  env: Record<string, string> & { TWILIO_ACCOUNT_SID: string; TWILIO_AUTH_TOKEN: string; PUBLIC_URL: string },
  options: { build?: Omit<BuildAppOptions, 'logger' | 'twilioApiBaseUrl'> } = {},
): Promise<TwilioTestApp> {
  let address = '';
  const twilio = await startFakeTwilio({
    accountSid: env.TWILIO_ACCOUNT_SID,
    authToken: env.TWILIO_AUTH_TOKEN,
    publicUrl: env.PUBLIC_URL,
    forwardTo: () => address,
    inboundPath: TWILIO_INBOUND_PATH,
    ourNumber: env.TWILIO_FROM ?? '+15005550006',
    whatsAppFrom: env.TWILIO_WHATSAPP_FROM,
  });
  const testApp = await buildTestApp('pglite', env, { build: { ...options.build, twilioApiBaseUrl: twilio.baseUrl } });
  address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    testApp,
    twilio,
    close: async () => {
      await testApp.close();
      await twilio.close();
    },
  };
}
