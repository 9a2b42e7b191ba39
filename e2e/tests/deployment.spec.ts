import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { expect, test } from '@playwright/test';
import { startThrowawayCluster, type ThrowawayCluster } from '../../server/test/support/postgres-cluster';
import {
  adaptNginxSite,
  connects,
  exitOf,
  externalAddress,
  freePort,
  httpsRequest,
  openEventStream,
  readDeployDoc,
  startNginx,
  startNode,
  waitForApp,
  type Nginx,
  type Process,
} from '../support/deployment';
import { selfSignedCertificate } from '../../server/test/support/self-signed-certificate';
import { signUpSubscriber, type Subscriber } from '../support/subscriber';

// docs/deploy.md, run: the built app with the documented environment and systemd command, behind a real nginx
// with the documented site, TLS ended there, on PostgreSQL. What the page promises is checked through nginx.

const HOSTS = ['localhost', '127.0.0.1', 'kabari.example.com', 'evil.example'];
const GUESS = randomBytes(24).toString('hex');

test.describe('a deployment as docs/deploy.md describes it', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });

  let folder: string;
  let cluster: ThrowawayCluster | undefined;
  let app: Process | undefined;
  let nginx: Nginx | undefined;
  let ca: string;
  let publicUrl: string;
  let appUrl: string;
  let subscriber: Subscriber;
  let ports: { http: number; https: number; app: number };

  const viaNginx = (pathname: string, options: Parameters<typeof httpsRequest>[2] = {}) =>
    httpsRequest(`${publicUrl}${pathname}`, ca, options);

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const doc = readDeployDoc();
    // What the page tells the operator to set, used as written.
    expect(doc.environment).toMatchObject({ NODE_ENV: 'production', HOST: '127.0.0.1', TRUST_PROXY: '127.0.0.1' });
    expect(doc.environment.PUBLIC_URL).toMatch(/^https:\/\//);
    expect(doc.execStart.slice(1)).toEqual(['server/dist/server.js']);

    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-deploy-'));
    fs.chmodSync(folder, 0o755);
    const certificate = selfSignedCertificate(folder);
    ports = { http: await freePort(), https: await freePort(), app: await freePort() };
    ca = certificate.pem;
    publicUrl = `https://localhost:${ports.https}`;
    appUrl = `http://127.0.0.1:${ports.app}`;
    cluster = await startThrowawayCluster();

    app = startNode(doc.execStart.slice(1), {
      ...doc.environment,
      // What differs on a test machine: its address, ports, database and secret.
      PUBLIC_URL: publicUrl,
      PORT: String(ports.app),
      DATABASE_URL: cluster.url,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      // No mail server here: messages stay in the outbox table, where the test reads them.
      SMTP_URL: '',
      // Without provider keys a deployment refuses sign-ups; a staging site opts into the sandbox by name, so a
      // subscriber can be signed up.
      PAYMENTS_SANDBOX: 'true',
    });
    await waitForApp(app, ports.app);

    const webroot = path.join(folder, 'www');
    fs.mkdirSync(webroot);
    const site = adaptNginxSite(doc.nginxSite, ports, { ...certificate, webroot });
    nginx = await startNginx(folder, site, ports.https);
    subscriber = await signUpSubscriber(appUrl, { displayName: 'Rina Deploy' });
  });

  test.afterAll(async () => {
    await nginx?.stop();
    await app?.stop();
    cluster?.stop();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  test('serves the app over TLS through nginx', async () => {
    const ready = await viaNginx('/readyz');
    expect(ready.status).toBe(200);
    const home = await viaNginx('/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    // The operator's opt-in shows where the browser reads the terms.
    const terms = await viaNginx('/api/v1/personnal/getPaidAmount', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ locale: 'en' }),
    });
    expect(JSON.parse(terms.body).data).toMatchObject({ sandbox: true, paymentsConfigured: true });
  });

  test('/dev/* is closed, whatever the Host header, with or without a guessed token', async () => {
    for (const host of HOSTS) {
      for (const pathname of ['/dev/outbox', '/dev/outbox?format=html', `/dev/outbox?token=${GUESS}`]) {
        const answer = await viaNginx(pathname, { headers: { host } });
        expect(answer.status, `${host} ${pathname}`).toBe(404);
        expect(answer.body).not.toContain('Local outbox');
      }
      for (const tool of ['/dev/subscriptions/expire', '/dev/subscriptions/run-renewals']) {
        for (const pathname of [tool, `${tool}?token=${GUESS}`]) {
          const answer = await viaNginx(pathname, {
            method: 'POST',
            headers: { host, 'content-type': 'application/json' },
            body: JSON.stringify({ email: subscriber.email }),
          });
          expect(answer.status, `${host} POST ${pathname}`).toBe(404);
        }
      }
    }
    // Not through nginx either, from this machine.
    expect((await fetch(`${appUrl}/dev/outbox`, { headers: { host: '127.0.0.1' } })).status).toBe(404);
    // And not in the API's documentation.
    const document = JSON.parse((await viaNginx('/api/docs/json')).body) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((pathname) => pathname.startsWith('/dev/'))).toEqual([]);
  });

  test('client addresses come from nginx only: a client’s X-Forwarded-For is not believed', async () => {
    const countryVia = async (request: () => Promise<string>) => JSON.parse(await request()).data.countryCode;
    // 8.8.8.8 is in the United States for the bundled database; the test itself connects from 127.0.0.1.
    for (const forged of ['8.8.8.8', '8.8.8.8, 8.8.4.4', '127.0.0.1, 8.8.8.8']) {
      const country = await countryVia(
        async () => (await viaNginx('/api/v1/locate/country', { headers: { 'x-forwarded-for': forged } })).body,
      );
      expect(country, forged).toBeNull();
    }
    // The app does believe its trusted proxy's header (so the check above means something): here the proxy's
    // address is this machine's, and only processes on it can reach the app.
    const direct = await countryVia(async () =>
      (await fetch(`${appUrl}/api/v1/locate/country`, { headers: { 'x-forwarded-for': '8.8.8.8' } })).text(),
    );
    expect(direct).toBe('US');
  });

  test('the live-event streams pass through nginx unbuffered', async () => {
    const stream = await openEventStream(`${publicUrl}/api/v1/locate/events`, ca, { authorization: subscriber.token });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['content-encoding']).toBeUndefined();
      await stream.next((event) => event.event === 'ready', 10_000);

      const asked = Date.now();
      const created = await viaNginx('/api/v1/links', {
        method: 'POST',
        headers: { authorization: subscriber.token, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Family', locale: 'en' }),
      });
      expect(created.status).toBe(200);
      const request = JSON.parse(created.body).data.request as { id: string; url: string };
      // A buffering proxy would hold this small event until its buffer filled or the stream ended (minutes).
      const event = await stream.next((candidate) => candidate.data.includes(request.id), 5_000);
      expect(event.receivedAt - asked).toBeLessThan(5_000);
      expect(request.url.startsWith(`${publicUrl}/enter-link?token=`)).toBe(true);

      // The recipient's open page hears its request end through nginx just as soon.
      const token = new URL(request.url).searchParams.get('token') ?? '';
      const page = await openEventStream(`${publicUrl}/api/v1/share/links/${token}/events`, ca, {});
      try {
        expect(page.status).toBe(200);
        expect(page.headers['content-encoding']).toBeUndefined();
        const cancelledAt = Date.now();
        const cancelled = await viaNginx(`/api/v1/requests/${request.id}/cancel`, {
          method: 'POST',
          headers: { authorization: subscriber.token },
        });
        expect(cancelled.status).toBe(200);
        const changed = await page.next((candidate) => candidate.event === 'changed', 5_000);
        expect(changed.receivedAt - cancelledAt).toBeLessThan(5_000);
      } finally {
        page.close();
      }
    } finally {
      stream.close();
    }
  });

  test('a reset email points at PUBLIC_URL, whatever Host the request came with', async () => {
    const asked = await viaNginx('/api/v1/auth/sendCode', {
      method: 'POST',
      headers: { host: 'evil.example', 'content-type': 'application/json', 'x-forwarded-host': 'evil.example' },
      body: JSON.stringify({ email: subscriber.email, type: 1 }),
    });
    expect(asked.status).toBe(200);
    const database = new Client({ connectionString: cluster!.url });
    await database.connect();
    try {
      const { rows } = await database.query<{ body_text: string; body_html: string | null }>(
        `select body_text, body_html from outbox_messages where recipient = $1 and subject like '%reset%'`,
        [subscriber.email],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.body_text).toContain(`${publicUrl}/`);
      expect(rows[0]!.body_html).toContain(`href="${publicUrl}/"`);
      expect(`${rows[0]!.body_text}${rows[0]!.body_html}`).not.toContain('evil.example');
    } finally {
      await database.end();
    }
  });

  test('nginx’s access log keeps no token, query string or client address, and does list the traffic', async () => {
    // A requester's link (another subscriber's: one link each per 3 hours), and its recipient opening it through
    // nginx: the page (once over plain http, redirected), then the share API as the page calls it, and consent.
    const requester = await signUpSubscriber(appUrl, { displayName: 'Sari Deploy' });
    const created = await viaNginx('/api/v1/links', {
      method: 'POST',
      headers: { authorization: requester.token, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Family', locale: 'en' }),
    });
    expect(created.status, created.body).toBe(200);
    const link = new URL(JSON.parse(created.body).data.request.url as string);
    const token = link.searchParams.get('token')!;
    expect(token).toBeTruthy();
    const redirected = await fetch(`http://localhost:${ports.http}${link.pathname}${link.search}`, {
      redirect: 'manual',
    });
    expect(redirected.status).toBe(301);
    expect((await viaNginx(`${link.pathname}${link.search}`)).status).toBe(200);
    const share = `/api/v1/share/links/${encodeURIComponent(token)}`;
    expect((await viaNginx(share)).status).toBe(200);
    expect((await viaNginx(`${share}/consent`, { method: 'POST' })).status).toBe(200);
    // A number check: the phone number travels in the query string.
    const phone = '+6281234567890';
    const lookup = await viaNginx(`/api/v1/numbers/lookup?number=${encodeURIComponent(phone)}`);
    expect(lookup.status).toBe(200);
    // A guess at the /dev tools' token.
    expect((await viaNginx(`/dev/outbox?token=${GUESS}`)).status).toBe(404);

    const logs = nginx!.logs();
    const access = logs['kabari.access.log'] ?? '';
    // Nothing that opens a link or names a person, in any log nginx wrote: the token, the guessed /dev token, the
    // phone number, the session, the client's address, any query string.
    const everything = Object.values(logs).join('\n');
    for (const secret of [token, GUESS, phone, encodeURIComponent(phone), requester.token, subscriber.token]) {
      expect(everything).not.toContain(secret);
    }
    expect(access).not.toContain('?');
    expect(access).not.toContain('127.0.0.1');
    // The traffic is there for the operator (so an empty log cannot pass): what was asked, and how it went.
    expect(access).toContain('"GET /enter-link" 301');
    expect(access).toContain('"GET /enter-link" 200');
    expect(access).toContain('"GET /api/v1/share/links/[token]" 200');
    expect(access).toContain('"POST /api/v1/share/links/[token]/consent" 200');
    expect(access).toContain('"GET /api/v1/numbers/lookup" 200');
    expect(access).toContain('"GET /dev/outbox" 404');
    expect(access).toMatch(/^127\.0\.0\.0 \[/m);
    // Debian's default access log (every request line in full) gets nothing from this site.
    expect(logs['access.log'] ?? '').toBe('');
  });

  test('nginx logged no error while proxying', async () => {
    expect(nginx!.errorLog()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });
});

test.describe('the server started directly (node server/dist/server.js)', () => {
  test.describe.configure({ timeout: 180_000 });

  test('with nothing set: production, 127.0.0.1 only, the outbox behind the token it prints and never logs', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-direct-'));
    const app = startNode(['server/dist/server.js'], { PORT: String(port), DATA_DIR: dataDir });
    try {
      await waitForApp(app, port);
      const url = `http://127.0.0.1:${port}`;
      // Production: the web app is served (development serves only the API).
      expect((await fetch(`${url}/`)).headers.get('content-type')).toMatch(/^text\/html/);
      await expect.poll(() => /\/dev\/outbox\?token=([\w-]+)/.exec(app.output())?.[1]).toBeTruthy();
      const token = /\/dev\/outbox\?token=([\w-]+)/.exec(app.output())![1]!;

      for (const host of HOSTS) {
        expect((await fetch(`${url}/dev/outbox`, { headers: { host } })).status).toBe(404);
        expect((await fetch(`${url}/dev/outbox?token=${GUESS}`, { headers: { host } })).status).toBe(404);
      }
      expect((await fetch(`${url}/dev/outbox?token=${token}`)).status).toBe(200);
      expect((await fetch(`${url}/dev/subscriptions/expire?token=${token}`, { method: 'POST' })).status).toBe(404);
      // The token is on the terminal once, in a plain line, and in no log record.
      const lines = app.output().split('\n');
      expect(lines.filter((line) => line.includes(token))).toEqual([
        `Read the local outbox (reset codes, consent links) at http://localhost:${port}/dev/outbox?token=${token}`,
      ]);
      expect(app.output()).toContain('"url":"/dev/outbox"');

      const external = externalAddress();
      if (external) expect(await connects(external, port)).toBe(false);
    } finally {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('asked to listen beyond this machine without PUBLIC_URL, or to trust every proxy: refuses, saying what to set', async () => {
    const beyond = await exitOf(
      startNode(['server/dist/server.js'], { HOST: '0.0.0.0', PORT: String(await freePort()) }),
    );
    expect(beyond.code).toBe(1);
    expect(beyond.output).toContain('HOST: "0.0.0.0" lets other machines reach Kabari');
    expect(beyond.output).toContain('set PUBLIC_URL to the address people use');

    const blanket = await exitOf(
      startNode(['server/dist/server.js'], {
        PUBLIC_URL: 'https://kabari.example.com',
        TRUST_PROXY: 'true',
        PORT: String(await freePort()),
      }),
    );
    expect(blanket.code).toBe(1);
    expect(blanket.output).toContain('TRUST_PROXY: "true" would believe the X-Forwarded-For header of any client');
  });
});
