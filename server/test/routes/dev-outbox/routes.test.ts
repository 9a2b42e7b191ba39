import { buildTestApp, type TestApp } from '../../support/test-app';

describe('GET /dev/outbox (no SMTP_URL: the local outbox)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite');
    for (const [index, to] of ['a@example.com', 'b@example.com'].entries()) {
      await testApp.app.mailer.queue(testApp.app.db, {
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
    expect(testApp.app.mailer.transport).toBe('local');
    const all = await testApp.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(all.statusCode).toBe(200);
    expect(all.headers['cache-control']).toBe('no-store');
    const messages = all.json().data;
    expect(messages.map((message: { recipient: string }) => message.recipient)).toEqual([
      'b@example.com',
      'a@example.com',
    ]);
    expect(messages[0]).toMatchObject({ channel: 'email', state: 'sent', transport: 'local' });

    const one = await testApp.app.inject({ method: 'GET', url: '/dev/outbox?recipient=A@example.com' });
    expect(one.json().data).toHaveLength(1);
    expect(one.json().data[0].bodyText).toBe('Your verification code is: 000000');
  });

  it('shows an SMS without a provider as sent locally, on the page too', async () => {
    expect(testApp.app.mailer.smsTransport).toBe('local');
    await testApp.app.mailer.queueSms(testApp.app.db, {
      idempotencyKey: 'outbox-sms',
      to: '+6281234567890',
      locale: 'id',
      text: 'Kabari: Sari ingin melihat lokasi Anda.',
    });
    const json = await testApp.app.inject({ method: 'GET', url: '/dev/outbox?recipient=%2B6281234567890' });
    expect(json.json().data).toEqual([
      expect.objectContaining({
        channel: 'sms',
        subject: null,
        state: 'sent',
        transport: 'local',
        bodyText: 'Kabari: Sari ingin melihat lokasi Anda.',
      }),
    ]);
    const page = await testApp.app.inject({ method: 'GET', url: '/dev/outbox?format=html&recipient=%2B6281234567890' });
    expect(page.body).toContain('<h2>SMS</h2>');
    expect(page.body).toContain('sms to <b>+6281234567890</b>');
    expect(page.body).toContain('sent (local)');
  });

  it('shows a simple page to a browser, escaped', async () => {
    const page = await testApp.app.inject({ method: 'GET', url: '/dev/outbox', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Local outbox');
    expect(page.body).toContain('Subject &#60;1&#62;');
    expect(page.body).not.toContain('Subject <1>');
  });
});

describe('GET /dev/outbox in production', () => {
  it('with no provider: answers this machine only, never through a proxy or under another host name', async () => {
    const production = await buildTestApp('pglite', { NODE_ENV: 'production', SERVE_WEB: 'false' });
    try {
      expect(production.config.loopbackOutbox).toBe(true);
      const local = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
        production.app.inject({
          method: 'GET',
          url: '/dev/outbox',
          remoteAddress,
          headers: { host: 'localhost:8080', ...headers },
        });
      expect((await local()).statusCode).toBe(200);
      expect((await local({ host: '127.0.0.1:8080' })).statusCode).toBe(200);
      expect((await local({ host: '[::1]:8080' }, '::1')).statusCode).toBe(200);
      expect((await local({}, '::ffff:127.0.0.1')).statusCode).toBe(200);

      expect((await local({}, '203.0.113.9')).statusCode).toBe(404);
      expect((await local({}, '10.0.0.2')).statusCode).toBe(404);
      expect((await local({ 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(404);
      expect((await local({ forwarded: 'for=203.0.113.9' })).statusCode).toBe(404);
      expect((await local({ 'x-real-ip': '203.0.113.9' })).statusCode).toBe(404);
      expect((await local({ host: 'kabari.example.com' })).statusCode).toBe(404);
      // The refusal is the ordinary 404 of an unknown path: nothing tells the page exists.
      const refused = await local({ host: 'kabari.example.com' });
      expect(refused.json()).toEqual({ status: 404, message: 'Not found: GET /dev/outbox', data: null });
      // The dev billing tools stay off.
      expect(
        (
          await production.app.inject({
            method: 'POST',
            url: '/dev/subscriptions/run-renewals',
            headers: { host: 'localhost' },
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await production.close();
    }
  });

  it('with SMTP configured or DEV_OUTBOX=false: does not exist, even for this machine', async () => {
    const variants: Record<string, string>[] = [{ SMTP_URL: 'smtp://127.0.0.1:1' }, { DEV_OUTBOX: 'false' }];
    for (const env of variants) {
      const production = await buildTestApp('pglite', { NODE_ENV: 'production', SERVE_WEB: 'false', ...env });
      try {
        const response = await production.app.inject({
          method: 'GET',
          url: '/dev/outbox',
          remoteAddress: '127.0.0.1',
          headers: { host: 'localhost' },
        });
        expect(response.statusCode).toBe(404);
      } finally {
        await production.close();
      }
    }
  });
});
