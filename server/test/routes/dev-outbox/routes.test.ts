import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { loggerOptions } from '../../../src/app';
import { loadConfig } from '../../../src/config';
import { createRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';
import { copyWebFixture } from '../../support/web-fixture';

describe('GET /dev/outbox (no SMTP_URL: the local outbox)', () => {
  let testApp: TestApp;
  const withToken = (url: string) => `${url}${url.includes('?') ? '&' : '?'}token=${testApp.config.devTools.token}`;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite');
    for (const [index, to] of ['a@example.com', 'b@example.com'].entries()) {
      await testApp.app.outbox.queue(testApp.app.db, {
        idempotencyKey: `outbox-${index}`,
        to,
        locale: 'en',
        subject: `Subject <${index}>`,
        text: `Your verification code is: 00000${index}`,
        html: '<p>x</p>',
      });
    }
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('lists the messages as JSON, newest first, optionally for one recipient', async () => {
    expect(testApp.app.outbox.transport).toBe('local');
    const all = await testApp.app.inject({ method: 'GET', url: withToken('/dev/outbox') });
    expect(all.statusCode).toBe(200);
    expect(all.headers['cache-control']).toBe('no-store');
    const messages = all.json().data;
    expect(messages.map((message: { recipient: string }) => message.recipient)).toEqual([
      'b@example.com',
      'a@example.com',
    ]);
    expect(messages[0]).toMatchObject({ channel: 'email', state: 'sent', transport: 'local' });

    const one = await testApp.app.inject({ method: 'GET', url: withToken('/dev/outbox?recipient=A@example.com') });
    expect(one.json().data).toHaveLength(1);
    expect(one.json().data[0].bodyText).toBe('Your verification code is: 000000');
  });

  it('shows an SMS without a provider as sent locally, on the page too', async () => {
    expect(testApp.app.outbox.smsTransport).toBe('local');
    await testApp.app.outbox.queueSms(testApp.app.db, {
      idempotencyKey: 'outbox-sms',
      to: '+6281234567890',
      locale: 'id',
      text: 'Kabari: Sari ingin melihat lokasi Anda.',
    });
    const json = await testApp.app.inject({ method: 'GET', url: withToken('/dev/outbox?recipient=%2B6281234567890') });
    expect(json.json().data).toEqual([
      expect.objectContaining({
        channel: 'sms',
        subject: null,
        state: 'sent',
        transport: 'local',
        bodyText: 'Kabari: Sari ingin melihat lokasi Anda.',
      }),
    ]);
    const page = await testApp.app.inject({
      method: 'GET',
      url: withToken('/dev/outbox?format=html&recipient=%2B6281234567890'),
    });
    expect(page.body).toContain('<h2>SMS</h2>');
    expect(page.body).toContain('sms to <b>+6281234567890</b>');
    expect(page.body).toContain('sent (local)');
  });

  it("simulates an SMS's delivery receipts from the page, through the same rule as Twilio's, shown to the requester", async () => {
    const requester = await createRequester(testApp.app, { displayName: 'Sari' });
    const sent = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/requests/sms',
      headers: requester.headers,
      payload: { number: '+6281234567811', templateId: 'check-in', locale: 'en' },
    });
    const requestId = sent.json().data.request.id as string;
    const [sms] = (await testApp.app.inject({ url: withToken('/dev/outbox?recipient=%2B6281234567811') })).json().data;
    const page = await testApp.app.inject({ url: withToken('/dev/outbox?format=html&recipient=%2B6281234567811') });
    expect(page.body).toContain(`action="/dev/outbox/${sms.id}/receipt?token=${testApp.config.devTools.token}"`);
    expect(page.body).toContain('Simulate “delivered”');
    const deliveryOf = async () => {
      const list = await testApp.app.inject({ url: '/api/v1/requests', headers: requester.headers });
      const item = list.json().data.items.find((each: { id: string }) => each.id === requestId);
      return [item.delivery, item.deliveryFailure];
    };
    expect(await deliveryOf()).toEqual(['outbox', null]);

    // The page's form: back to the page (303).
    const post = (receipt: string, id = sms.id as string) =>
      testApp.app.inject({
        method: 'POST',
        url: withToken(`/dev/outbox/${id}/receipt`),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:8080' },
        payload: `receipt=${receipt}`,
      });
    const delivered = await post('delivered');
    expect(delivered.statusCode).toBe(303);
    expect(delivered.headers.location).toBe(`/dev/outbox?token=${testApp.config.devTools.token}&format=html`);
    expect(await deliveryOf()).toEqual(['delivered', null]);
    await post('failed');
    expect(await deliveryOf()).toEqual(['failed', { reason: 'unreachable' }]);
    // A failure is final; an email takes no receipt; without the token the route is unknown.
    await post('delivered');
    expect(await deliveryOf()).toEqual(['failed', { reason: 'unreachable' }]);
    const [email] = (await testApp.app.inject({ url: withToken('/dev/outbox?recipient=a%40example.com') })).json().data;
    expect((await post('delivered', email.id)).statusCode).toBe(404);
    const guessed = await testApp.app.inject({
      method: 'POST',
      url: `/dev/outbox/${sms.id}/receipt`,
      payload: { receipt: 'delivered' },
    });
    expect(guessed.statusCode).toBe(404);
  });

  it("simulates the recipient's reply STOP (BERHENTI in Indonesian) from the page, through the opt-out by reply", async () => {
    const requester = await createRequester(testApp.app, { displayName: 'Budi' });
    const ask = (number: string, locale: 'en' | 'id') =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/v1/requests/sms',
        headers: requester.headers,
        payload: { number, templateId: 'check-in', locale },
      });
    const smsTo = async (number: string) =>
      (await testApp.app.inject({ url: withToken(`/dev/outbox?recipient=${encodeURIComponent(number)}`) })).json()
        .data as { id: string; bodyText: string }[];
    const reply = (id: string, payload: string, contentType = 'application/x-www-form-urlencoded') =>
      testApp.app.inject({
        method: 'POST',
        url: withToken(`/dev/outbox/${id}/reply`),
        headers: { 'content-type': contentType, origin: 'http://localhost:8080' },
        payload,
      });

    expect((await ask('+6281234567821', 'en')).statusCode).toBe(200);
    expect((await ask('+6281234567822', 'id')).statusCode).toBe(200);
    const [english] = await smsTo('+6281234567821');
    const [indonesian] = await smsTo('+6281234567822');
    const page = await testApp.app.inject({ url: withToken('/dev/outbox?format=html') });
    // Its forms post to this origin: the browser must name it (under no-referrer it says "null", which is refused).
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.body).toContain(`action="/dev/outbox/${english!.id}/reply?token=${testApp.config.devTools.token}"`);
    expect(page.body).toContain(
      '<input type="hidden" name="text" value="STOP"><button type="submit">Reply “STOP”</button>',
    );
    expect(page.body).toContain('<button type="submit">Reply “BERHENTI”</button>');

    // Another text changes nothing (a JSON call, answered in JSON).
    const chat = await reply(english!.id, JSON.stringify({ text: 'ok thanks' }), 'application/json');
    expect(chat.json().data).toEqual({ outcome: 'not-a-stop-word' });

    // The page's form: back to the page (303), opted out, confirmed once in the message's language.
    const stopped = await reply(english!.id, 'text=STOP');
    expect(stopped.statusCode).toBe(303);
    expect(stopped.headers.location).toBe(`/dev/outbox?token=${testApp.config.devTools.token}&format=html`);
    expect((await reply(indonesian!.id, 'text=BERHENTI')).statusCode).toBe(303);
    const [confirmation] = await smsTo('+6281234567821');
    expect(confirmation!.bodyText).toMatch(/^Kabari: done\./);
    expect((await smsTo('+6281234567822'))[0]!.bodyText).toMatch(/^Kabari: selesai\./);
    const again = await reply(english!.id, JSON.stringify({}), 'application/json');
    expect(again.json().data).toEqual({ outcome: 'already-opted-out' });
    expect(await smsTo('+6281234567821')).toHaveLength(2);
    expect((await ask('+6281234567821', 'en')).statusCode).toBe(409);

    // Only an SMS of the outbox can be answered.
    const [email] = (await testApp.app.inject({ url: withToken('/dev/outbox?recipient=a%40example.com') })).json().data;
    expect((await reply(email.id, 'text=STOP')).statusCode).toBe(404);
  });

  it('shows a simple page to a browser, escaped', async () => {
    const page = await testApp.app.inject({
      method: 'GET',
      url: withToken('/dev/outbox'),
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Local outbox');
    expect(page.body).toContain('Subject &#60;1&#62;');
    expect(page.body).not.toContain('Subject <1>');
  });
});

// Some tests start two apps: slow on a busy machine.
describe('the /dev tools are guarded by a secret, not by the caller’s address', () => {
  it('without the token: the ordinary 404, from this machine, through a proxy, under any Host', async () => {
    // A local trial (`npm start` on a fresh machine), the billing tools asked for too.
    const trial = await buildTestApp('pglite', {
      NODE_ENV: 'production',
      SERVE_WEB: 'false',
      DEV_BILLING_TOOLS: 'true',
    });
    try {
      const { token } = trial.config.devTools;
      const get = (url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
        trial.app.inject({ method: 'GET', url, remoteAddress, headers: { host: 'localhost:8080', ...headers } });
      // What a same-host reverse proxy with a default configuration sends: loopback peer, Host 127.0.0.1.
      const callers: [Record<string, string>, string][] = [
        [{}, '127.0.0.1'],
        [{ host: '127.0.0.1' }, '127.0.0.1'],
        [{ host: '[::1]:8080' }, '::1'],
        [{ host: 'kabari.example.com' }, '127.0.0.1'],
        [{ 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1'],
        [{}, '203.0.113.9'],
      ];
      // One character off (never the same character: a token that ends in "x" would otherwise be guessed right).
      const nearMiss = token.slice(0, -1) + (token.endsWith('x') ? 'y' : 'x');
      for (const [headers, address] of callers) {
        for (const url of ['/dev/outbox', '/dev/outbox?token=', `/dev/outbox?token=${nearMiss}`]) {
          const refused = await get(url, headers, address);
          expect(refused.statusCode).toBe(404);
          // Nothing tells the page exists.
          expect(refused.json()).toEqual({ status: 404, message: 'Not found: GET /dev/outbox', data: null });
        }
        expect((await get(`/dev/outbox?token=${token}`, headers, address)).statusCode).toBe(200);
      }
      const expire = (url: string) =>
        trial.app.inject({
          method: 'POST',
          url,
          payload: { email: 'nobody@example.com' },
          headers: { host: '127.0.0.1' },
        });
      expect((await expire('/dev/subscriptions/expire')).statusCode).toBe(404);
      // With the token the tool runs (and finds no such account).
      const known = await expire(`/dev/subscriptions/expire?token=${token}`);
      expect(known.json()).toMatchObject({ status: 404, message: 'No account has this email address.' });
    } finally {
      await trial.close();
    }
  });

  it('a new random token for each start', async () => {
    const first = await buildTestApp('pglite');
    const second = await buildTestApp('pglite');
    try {
      const firstToken = first.config.devTools.token;
      expect(firstToken).not.toBe(second.config.devTools.token);
      expect((await first.app.inject({ url: `/dev/outbox?token=${firstToken}` })).statusCode).toBe(200);
      expect((await second.app.inject({ url: `/dev/outbox?token=${firstToken}` })).statusCode).toBe(404);
    } finally {
      await first.close();
      await second.close();
    }
  }, 120_000);

  it('never writes the token to the log', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    // The server's own logger settings (serializers, redaction), at info level.
    const logger = { ...(loggerOptions(loadConfig({})) as object), level: 'info', stream };
    const trial = await buildTestApp('pglite', {}, { logger });
    try {
      const { token } = trial.config.devTools;
      expect((await trial.app.inject({ url: `/dev/outbox?recipient=a%40example.com&token=${token}` })).statusCode).toBe(
        200,
      );
      expect((await trial.app.inject({ url: `/dev/outbox?%74oken=${token}` })).statusCode).toBe(200);
      expect((await trial.app.inject({ url: `/dev/outbox?token=${token}x` })).statusCode).toBe(404);
      // The request log keeps the path only: the token (and the recipient) never reach it.
      expect(log).toContain('"url":"/dev/outbox"');
      expect(log).not.toContain('recipient=');
      expect(log).not.toContain(token);
    } finally {
      await trial.close();
    }
  });

  it('in a deployment (PUBLIC_URL): no outbox, no billing tools, even with the token, unless asked by name', async () => {
    // Serving the web app, as in production: its page route must not answer /dev paths either.
    const webRoot = copyWebFixture();
    const deployed = await buildTestApp('pglite', {
      PUBLIC_URL: 'https://kabari.example.com',
      SERVE_WEB: 'true',
      WEB_ROOT: webRoot,
    });
    try {
      const { token } = deployed.config.devTools;
      for (const host of ['localhost', '127.0.0.1', 'kabari.example.com']) {
        for (const url of ['/dev/outbox', `/dev/outbox?token=${token}`, '/dev/anything-else']) {
          const outbox = await deployed.app.inject({ url, headers: { host, accept: 'text/html' } });
          expect(outbox.statusCode).toBe(404);
          expect(outbox.json().message).toBe(`Not found: GET ${url.split('?')[0]}`);
        }
        const renewals = await deployed.app.inject({
          method: 'POST',
          url: `/dev/subscriptions/run-renewals?token=${token}`,
          headers: { host },
        });
        expect(renewals.statusCode).toBe(404);
      }
    } finally {
      await deployed.close();
      rmSync(webRoot, { recursive: true, force: true });
    }
    const token = 'staging-token-0123456789abcdef01234567';
    const staging = await buildTestApp('pglite', {
      PUBLIC_URL: 'https://staging.kabari.example.com',
      DEV_OUTBOX: 'true',
      DEV_TOOLS_TOKEN: token,
    });
    try {
      expect((await staging.app.inject({ url: `/dev/outbox?token=${token}` })).statusCode).toBe(200);
      expect((await staging.app.inject({ url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await staging.close();
    }
  }, 120_000);

  it('never appear in the OpenAPI document outside development', async () => {
    const trial = await buildTestApp('pglite', {
      NODE_ENV: 'production',
      SERVE_WEB: 'false',
      DEV_BILLING_TOOLS: 'true',
    });
    try {
      const document = (await trial.app.inject({ url: '/api/docs/json' })).json();
      const paths = Object.keys(document.paths);
      expect(paths).toContain('/api/v1/auth/login');
      expect(paths.filter((path) => path.startsWith('/dev/'))).toEqual([]);
    } finally {
      await trial.close();
    }
    const development = await buildTestApp('pglite', { NODE_ENV: 'development', DEV_BILLING_TOOLS: 'true' });
    try {
      const paths = Object.keys((await development.app.inject({ url: '/api/docs/json' })).json().paths);
      expect(paths).toEqual(expect.arrayContaining(['/dev/outbox', '/dev/subscriptions/expire']));
    } finally {
      await development.close();
    }
  }, 120_000);
});
