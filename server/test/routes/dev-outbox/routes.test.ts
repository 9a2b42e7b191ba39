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
  it('does not exist (unless DEV_OUTBOX=true asks for it)', async () => {
    const production = await buildTestApp('pglite', { NODE_ENV: 'production', SERVE_WEB: 'false' });
    try {
      expect((await production.app.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
