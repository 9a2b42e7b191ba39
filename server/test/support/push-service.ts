// A push service of our own for the tests, speaking the Web Push protocol as the browsers' services do (RFC 8030,
// RFC 8291, RFC 8292): HTTPS with a certificate made here (openssl), one endpoint per browser it made keys for.
// It checks each message's VAPID signature, decrypts the payload with that browser's private key (http_ece), and
// records what arrived; it answers 201, or whatever status a test asks for.
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { selfSignedCertificate } from './self-signed-certificate';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- http_ece ships no types
const ece = require('http_ece') as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: unknown; authSecret: string }): Buffer;
};

export interface ReceivedPush {
  browser: string;
  headers: Record<string, string | string[] | undefined>;
  /** The payload, decrypted with the browser's keys. */
  payload: string;
  /** The VAPID JWT's claims, its signature checked against the key named beside it. */
  vapid: { aud: string; exp: number; sub: string; publicKey: string };
}

export type AnswerBody = 'empty' | 'trickle' | 'endless';

export interface TestBrowser {
  /** As PushSubscription.toJSON() gives it. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface TestPushService {
  /** Trusts the service's certificate: give it to buildApp as `pushAgent`. */
  agent: https.Agent;
  /** The certificate's file, for a server in a process of its own to trust (NODE_EXTRA_CA_CERTS). */
  certificatePath: string;
  browser(name: string): TestBrowser;
  received: ReceivedPush[];
  /**
   * The status the next messages to this browser are answered with (201 by default), and how its body comes:
   * at once (empty), a byte every 100 ms for as long as the client listens ('trickle'), or without end as fast as
   * the client reads ('endless').
   */
  answer(name: string, status: number, body?: AnswerBody): void;
  /** Answers being written now ('trickle' and 'endless' ones the client still listens to). */
  answering(): number;
  close(): Promise<void>;
}

function checkVapid(authorization: string | undefined): ReceivedPush['vapid'] {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [header, claims, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the VAPID signature does not verify');
  return { ...JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')), publicKey: k };
}

export async function startPushService(): Promise<TestPushService> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-push-'));
  const { certificate, key: privateKey, pem: cert } = selfSignedCertificate(folder);
  const browsers = new Map<
    string,
    { ecdh: ReturnType<typeof createECDH>; auth: string; status: number; body: AnswerBody }
  >();
  const received: ReceivedPush[] = [];
  const answers = new Set<http.ServerResponse>();
  /** Writes an answer's body as asked, until the client goes. */
  function writeBody(response: http.ServerResponse, body: AnswerBody): void {
    if (body === 'empty') {
      response.end();
      return;
    }
    answers.add(response);
    let timer: NodeJS.Timeout | undefined;
    response.on('close', () => {
      clearTimeout(timer);
      answers.delete(response);
    });
    const chunk = Buffer.alloc(body === 'trickle' ? 1 : 64 * 1024, 'x');
    const next = () => {
      if (response.destroyed) return;
      if (body === 'trickle') {
        response.write(chunk);
        timer = setTimeout(next, 100);
      } else if (response.write(chunk)) setImmediate(next);
      else response.once('drain', next);
    };
    next();
  }
  const server = https.createServer({ cert, key: fs.readFileSync(privateKey, 'utf8') }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const name = decodeURIComponent(request.url?.replace(/^\/push\//, '') ?? '');
      const browser = browsers.get(name);
      if (request.method !== 'POST' || !browser) {
        response.writeHead(404).end();
        return;
      }
      try {
        const payload = ece
          .decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: browser.ecdh, authSecret: browser.auth })
          .toString('utf8');
        received.push({
          browser: name,
          headers: request.headers,
          payload,
          vapid: checkVapid(request.headers.authorization),
        });
        response.writeHead(browser.status, { location: `/messages/${received.length}` });
        writeBody(response, browser.body);
      } catch (error) {
        response.writeHead(400).end(error instanceof Error ? error.message : String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new https.Agent({ ca: cert, keepAlive: false });
  return {
    agent,
    certificatePath: certificate,
    received,
    browser(name) {
      let browser = browsers.get(name);
      if (!browser) {
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        browser = { ecdh, auth: randomBytes(16).toString('base64url'), status: 201, body: 'empty' };
        browsers.set(name, browser);
      }
      return {
        subscription: {
          endpoint: `https://127.0.0.1:${port}/push/${encodeURIComponent(name)}`,
          keys: { p256dh: browser.ecdh.getPublicKey().toString('base64url'), auth: browser.auth },
        },
      };
    },
    answer(name, status, body = 'empty') {
      const browser = browsers.get(name);
      if (!browser) throw new Error(`no browser ${name}`);
      browser.status = status;
      browser.body = body;
    },
    answering: () => answers.size,
    close: async () => {
      agent.destroy();
      for (const response of answers) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
