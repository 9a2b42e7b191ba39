import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../../src/app';
import { createUser } from '../../src/auth/users';
import { locationRequests, requestEvents } from '../../src/db/schema/location-requests';
import { outboxMessages } from '../../src/db/schema/outbox';
import { CLAIM_LEASE_SECONDS, DELIVERY_TIMING, retryDelaySeconds } from '../../src/plugins/message-outbox';
import { describeEachDatabase } from '../support/databases';
import { createRequester } from '../support/subscriber-fixture';
import { fakeOnly } from '../support/fake-clock';
import { startPushService, type TestPushService } from '../support/push-service';
import { buildTestApp, type TestApp } from '../support/test-app';
import { tablesHolding } from '../support/stored-text';
import { startFakeTwilio, TWILIO_REFUSALS, type FakeTwilio, type FakeTwilioAnswer } from '../support/fake-twilio';

interface Received {
  to: string;
  raw: string;
}

/** A real SMTP server on a free port that records what it receives, and can refuse on demand. */
async function startSmtpServer() {
  const received: Received[] = [];
  const waiters: ((message: Received) => void)[] = [];
  let refuseNext = 0;
  let refuseCode = 451;
  let connections = 0;
  const server = new SMTPServer({
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuseNext > 0) {
          refuseNext -= 1;
          const error = Object.assign(new Error(refuseCode >= 500 ? 'No such mailbox' : 'Mailbox busy, try later'), {
            responseCode: refuseCode,
          });
          callback(error);
          return;
        }
        const message = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','),
          raw: Buffer.concat(chunks).toString(),
        };
        received.push(message);
        waiters.shift()?.(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    refuse: (count: number, code = 451) => {
      refuseNext = count;
      refuseCode = code;
    },
    nextMessage: () => new Promise<Received>((resolve) => waiters.push(resolve)),
    /** Resolves once `count` messages in all have arrived. */
    waitForCount: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (received.length >= count ? resolve() : waiters.push(() => setImmediate(check)));
        check();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('retryDelaySeconds', () => {
  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(20)).toBe(3600);
  });
});

describe('delivery timing', () => {
  it('gives up on a provider well before the claim lease ends, and renews claims well within it', () => {
    const leaseMs = CLAIM_LEASE_SECONDS * 1000;
    const { smtpConnectionMs, smtpGreetingMs, smtpSocketMs, twilioRequestMs, leaseRenewalMs } = DELIVERY_TIMING;
    // Connecting, the greeting and one silent stretch of the exchange together still leave a margin.
    expect(smtpConnectionMs + smtpGreetingMs + smtpSocketMs).toBeLessThan(leaseMs / 2);
    expect(twilioRequestMs).toBeLessThan(leaseMs / 2);
    expect(leaseRenewalMs).toBeLessThanOrEqual(leaseMs / 4);
  });
});

describeEachDatabase('the outbox against an SMTP server that never answers', (driver) => {
  it('times the attempt out and keeps the message queued for a retry', async () => {
    // Accepts the connection, then says nothing: nodemailer's own default would wait 10 minutes.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const testApp = await buildTestApp(
      driver,
      { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Kabari <no-reply@kabari.test>' },
      { build: { outboxTiming: { smtpGreetingMs: 200, smtpSocketMs: 400 } } },
    );
    try {
      await testApp.app.outbox.queue(testApp.app.db, {
        idempotencyKey: 'silent-server',
        to: 'someone@example.com',
        locale: 'en',
        subject: 'Hello',
        text: 'Hello',
        html: '<p>Hello</p>',
      });
      await testApp.app.outbox.dispatchDue();
      const [row] = await testApp.app.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.idempotencyKey, 'silent-server'));
      expect(row).toMatchObject({ state: 'queued', transport: null });
      expect(row!.attempts).toBeGreaterThanOrEqual(1);
      expect(row!.lastError).toMatch(/greeting|timeout/i);
    } finally {
      await testApp.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describeEachDatabase('the outbox with SMTP_URL', (driver) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let testApp: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    testApp = await buildTestApp(driver, { SMTP_URL: smtp.url, MAIL_FROM: 'Kabari <no-reply@kabari.test>' });
  });

  afterAll(async () => {
    await testApp?.close();
    await smtp?.close();
  });

  async function rowFor(idempotencyKey: string) {
    const [row] = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, idempotencyKey));
    return row;
  }

  it('delivers a reset code by SMTP right after the request', async () => {
    await createUser(testApp.app.db, { email: 'smtp-user@example.com', displayName: 'Sari', password: 'pw123456' });
    const arrival = smtp.nextMessage();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sendCode',
      payload: { email: 'smtp-user@example.com', type: 1 },
    });
    expect(response.statusCode).toBe(200);
    const message = await arrival;
    expect(message.to).toBe('smtp-user@example.com');
    expect(message.raw).toContain('Subject: Your Kabari password reset code');
    expect(message.raw).toContain('From: Kabari <no-reply@kabari.test>');
    expect(message.raw).toMatch(/Your verification code is: \d{6}/);

    await testApp.app.outbox.dispatchDue();
    const [row] = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'smtp-user@example.com'));
    expect(row).toMatchObject({ state: 'sent', transport: 'smtp', attempts: 1, lastError: null });
    expect(row?.sentAt).toBeInstanceOf(Date);
  });

  it('sends a contact-form message to the operator with Reply-To set to the visitor', async () => {
    const arrival = smtp.nextMessage();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      payload: { name: 'Budi', email: 'budi@example.com', topic: 'question', message: 'How does consent work?' },
    });
    expect(response.statusCode).toBe(200);
    const message = await arrival;
    expect(message.to).toBe('operator@kabari.localhost');
    expect(message.raw).toContain('Reply-To: budi@example.com');
    expect(message.raw).toContain('Subject: Contact form: A question about Kabari (Budi)');
    // Let the dispatch that delivered it finish before the next test counts deliveries.
    await testApp.app.outbox.dispatchDue();
  });

  it('keeps a refused message and retries it later, sending it once', async () => {
    smtp.refuse(1);
    const before = smtp.received.length;
    await testApp.app.outbox.queue(testApp.app.db, {
      idempotencyKey: 'retry-test',
      to: 'retry@example.com',
      locale: 'en',
      subject: 'Retry',
      text: 'Hello again',
      html: '<p>Hello again</p>',
    });
    expect(await testApp.app.outbox.dispatchDue()).toBe(1);
    const failed = await rowFor('retry-test');
    expect(failed).toMatchObject({ state: 'queued', attempts: 1 });
    expect(failed?.lastError).toMatch(/Mailbox busy/);
    expect(failed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    // Not due yet: nothing is sent.
    expect(await testApp.app.outbox.dispatchDue()).toBe(0);

    await testApp.app.db.execute(
      sql`update outbox_messages set next_attempt_at = now() where idempotency_key = 'retry-test'`,
    );
    const arrival = smtp.nextMessage();
    await testApp.app.outbox.dispatchDue();
    expect((await arrival).to).toBe('retry@example.com');
    expect(await rowFor('retry-test')).toMatchObject({ state: 'sent', attempts: 2 });
    expect(smtp.received.length).toBe(before + 1);
  });

  it('deletes a message marked to be erased once the provider has it, or has refused it for good', async () => {
    const farewell = (key: string, to: string) => ({
      idempotencyKey: key,
      to,
      locale: 'en' as const,
      subject: 'Your Kabari account has been deleted',
      text: 'Goodbye',
      html: '<p>Goodbye</p>',
      eraseWhenSent: true,
    });
    const arrival = smtp.nextMessage();
    await testApp.app.outbox.queue(testApp.app.db, farewell('erase-when-sent', 'leaving@example.com'));
    await testApp.app.outbox.dispatchDue();
    expect((await arrival).to).toBe('leaving@example.com');
    expect(await rowFor('erase-when-sent')).toBeUndefined();

    smtp.refuse(1, 550);
    await testApp.app.outbox.queue(testApp.app.db, farewell('erase-when-refused', 'gone@example.com'));
    await testApp.app.outbox.dispatchDue();
    expect(await rowFor('erase-when-refused')).toBeUndefined();
  });

  it('keeps an email request’s consent link in our copy only until the SMTP server has it', async () => {
    const requester = await createRequester(testApp.app, { displayName: 'Sari' });
    const arrival = smtp.nextMessage();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/requests/email',
      headers: requester.headers,
      payload: { email: 'ibu@example.com', templateId: 'check-in', note: '', locale: 'en' },
    });
    expect(response.statusCode).toBe(200);
    const delivered = (await arrival).raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /enter-link\?token=([\w-]+)/.exec(delivered)?.[1];
    // The recipient has the link, whole.
    expect(token).toMatch(/^[\w-]{32}$/);
    await testApp.app.outbox.dispatchDue();
    const [message] = await testApp.app.db
      .select({ message: outboxMessages })
      .from(locationRequests)
      .innerJoin(outboxMessages, eq(outboxMessages.id, locationRequests.messageId))
      .where(eq(locationRequests.id, response.json().data.request.id));
    expect(message?.message).toMatchObject({ state: 'sent', transport: 'smtp' });
    for (const body of [message!.message.bodyText, message!.message.bodyHtml!]) {
      expect(body).not.toContain(token);
      expect(body).toContain('/enter-link?token=[token]');
      expect(body).toContain('/enter-link?token=[token]&');
    }
    expect(message!.message.bodyText).toContain('Sari uses Kabari and asks you to share your location');
    expect(await tablesHolding(testApp.app.db, token!)).toEqual([]);
    // The link itself still works: the request is found by the token's hash.
    expect((await testApp.app.inject({ method: 'GET', url: `/api/v1/share/links/${token}` })).statusCode).toBe(200);
  });

  it('queues a message once per idempotency key', async () => {
    const email = {
      idempotencyKey: 'once-only',
      to: 'once@example.com',
      locale: 'en' as const,
      subject: 'Once',
      text: 'Once',
      html: '<p>Once</p>',
    };
    await testApp.app.outbox.queue(testApp.app.db, email);
    await testApp.app.outbox.queue(testApp.app.db, email);
    const rows = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, 'once-only'));
    expect(rows).toHaveLength(1);
  });
});

describeEachDatabase('the outbox when the SMTP server refuses Kabari’s login', (driver) => {
  it('holds the email instead of failing it, and queues the operator’s alert (held too, until SMTP accepts)', async () => {
    const server = new SMTPServer({
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(new Error('Invalid username or password')),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const testApp = await buildTestApp(driver, {
      SMTP_URL: `smtp://kabari:wrong-password@127.0.0.1:${port}`,
      OPERATOR_EMAIL: 'operator@kabari.test',
    });
    try {
      await testApp.app.outbox.queue(testApp.app.db, {
        idempotencyKey: 'smtp-credentials-test',
        to: 'ana@example.com',
        locale: 'en',
        subject: 'Hello',
        text: 'Hello',
        html: '<p>Hello</p>',
      });
      await testApp.app.outbox.dispatchDue();
      const rows = await testApp.app.db.select().from(outboxMessages);
      const message = rows.find((row) => row.idempotencyKey === 'smtp-credentials-test');
      expect(message).toMatchObject({ state: 'queued', attempts: 0 });
      expect(message!.lastError).toMatch(/^The SMTP server refused Kabari's login/);
      const alert = rows.find((row) => row.recipient === 'operator@kabari.test');
      expect(alert).toMatchObject({ state: 'queued', subject: "Kabari: the SMTP server refuses Kabari's credentials" });
      expect(alert!.bodyText).toContain('Check the user and password in SMTP_URL, then restart the server.');
    } finally {
      await testApp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describeEachDatabase('the dispatcher against SMTP: a burst over pooled connections', (driver) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let testApp: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    testApp = await buildTestApp(driver, { SMTP_URL: smtp.url });
  });

  afterAll(async () => {
    await testApp?.close();
    await smtp?.close();
  });

  it('delivers 12 messages once each through at most 3 connections; a 5xx refusal fails at once', async () => {
    for (let index = 0; index < 12; index += 1) {
      await testApp.app.outbox.queue(testApp.app.db, {
        idempotencyKey: `burst-${index}`,
        to: `burst-${index}@example.com`,
        locale: 'en',
        subject: `Burst ${index}`,
        text: 'Hello',
        html: '<p>Hello</p>',
      });
    }
    const arrived = smtp.waitForCount(12);
    await testApp.app.outbox.dispatchDue();
    await arrived;
    expect(smtp.received.map((message) => message.to).sort()).toEqual(
      Array.from({ length: 12 }, (_, index) => `burst-${index}@example.com`).sort(),
    );
    expect(smtp.connections()).toBeLessThanOrEqual(3);
    const rows = await testApp.app.db.select().from(outboxMessages);
    expect(rows.every((row) => row.state === 'sent' && row.transport === 'smtp' && row.attempts === 1)).toBe(true);

    smtp.refuse(1, 550);
    await testApp.app.outbox.queue(testApp.app.db, {
      idempotencyKey: 'no-such-mailbox',
      to: 'nobody@example.com',
      locale: 'en',
      subject: 'Nobody',
      text: 'Hello',
      html: '<p>Hello</p>',
    });
    await testApp.app.outbox.dispatchDue();
    const [refused] = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, 'no-such-mailbox'));
    expect(refused).toMatchObject({ state: 'failed', attempts: 1 });
    expect(refused!.lastError).toMatch(/No such mailbox/);
  });
});

// Fake timers for the dispatcher's lease renewal only: the database and the test's own waits keep real time.
const fakeIntervalsOnly = () => fakeOnly(['setInterval', 'clearInterval']);

describeEachDatabase('the dispatcher with Twilio', (driver) => {
  const TWILIO = {
    TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
    TWILIO_AUTH_TOKEN: 'test-auth-token',
    TWILIO_FROM: '+15005550006',
    PUBLIC_URL: 'https://kabari.example',
  };
  let testApp: TestApp;
  let restarted: FastifyInstance | undefined;
  let twilio: FakeTwilio | undefined;

  afterEach(async () => {
    jest.useRealTimers();
    jest.restoreAllMocks();
    await restarted?.close();
    restarted = undefined;
    await testApp?.close();
    await twilio?.close();
    twilio = undefined;
  });

  /** A local fake of Twilio's Messages API the SDK sends to, answering the script first, then taking every message. */
  async function fakeTwilio(...script: FakeTwilioAnswer[]): Promise<FakeTwilio> {
    twilio = await startFakeTwilio({
      accountSid: TWILIO.TWILIO_ACCOUNT_SID,
      authToken: TWILIO.TWILIO_AUTH_TOKEN,
      publicUrl: TWILIO.PUBLIC_URL,
      // These tests post no callbacks.
      forwardTo: () => 'http://127.0.0.1:9',
      inboundPath: '/api/v1/webhooks/twilio/inbound',
      ourNumber: TWILIO.TWILIO_FROM,
    });
    twilio.answer(...script);
    return twilio;
  }

  async function sendSms(app: FastifyInstance, number: string) {
    const requester = await createRequester(app, { displayName: 'Sari' });
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/requests/sms',
      headers: requester.headers,
      payload: { number, templateId: 'check-in', note: 'Home yet?', locale: 'en' },
    });
    expect(response.statusCode).toBe(200);
    return { request: response.json().data.request as { id: string; delivery: string }, headers: requester.headers };
  }

  const messageOf = async (app: FastifyInstance, requestId: string) => {
    const [row] = await app.db
      .select({ message: outboxMessages })
      .from(locationRequests)
      .innerJoin(outboxMessages, eq(outboxMessages.id, locationRequests.messageId))
      .where(eq(locationRequests.id, requestId));
    return row!.message;
  };

  const deliveryEvents = async (app: FastifyInstance, requestId: string) =>
    (await app.db.select().from(requestEvents).where(eq(requestEvents.requestId, requestId))).map(
      (event) => (event.payload as { delivery: string }).delivery,
    );

  const makeDue = (app: FastifyInstance, id: string) =>
    app.db.execute(sql`update outbox_messages set next_attempt_at = now() where id = ${id}`);

  it('retries a failing provider with backoff, loses nothing, sends once, and resumes after a restart', async () => {
    const failing = await fakeTwilio(TWILIO_REFUSALS.unavailable, 'network');
    testApp = await buildTestApp(driver, TWILIO, { build: { twilioApiBaseUrl: failing.baseUrl } });
    const { request } = await sendSms(testApp.app, '+6281234567890');
    expect(request.delivery).toBe('queued');

    await testApp.app.outbox.dispatchDue();
    let message = await messageOf(testApp.app, request.id);
    expect(message).toMatchObject({ state: 'queued', attempts: 1, transport: null });
    expect(message.lastError).toMatch(/Service unavailable/);
    // Backoff: 30 s after the first failure.
    expect(message.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(25_000);
    expect(await testApp.app.outbox.dispatchDue()).toBe(0);

    await makeDue(testApp.app, message.id);
    await testApp.app.outbox.dispatchDue();
    message = await messageOf(testApp.app, request.id);
    expect(message).toMatchObject({ state: 'queued', attempts: 2, lastError: 'socket hang up' });
    expect(message.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(55_000);
    expect(failing.messages).toHaveLength(2);

    // The process stops with the message still queued; a new one starts on the same database with Twilio up.
    await testApp.app.close();
    restarted = await buildApp(testApp.config, {
      logger: false,
      checkAnswers: true,
      twilioApiBaseUrl: failing.baseUrl,
    });
    const sentSince = () => failing.messages.slice(2);
    await restarted.ready();
    await makeDue(restarted, message.id);
    await restarted.outbox.dispatchDue();
    message = await messageOf(restarted, request.id);
    expect(message).toMatchObject({ state: 'sent', transport: 'twilio', attempts: 3, lastError: null });
    expect(sentSince()).toHaveLength(1);
    expect(sentSince()[0]!.fields).toMatchObject({ To: '+6281234567890', From: '+15005550006' });
    expect(sentSince()[0]!.fields.Body).toContain('https://kabari.example/enter-link?token=');

    // Nothing more goes out, however often the dispatcher runs.
    await makeDue(restarted, message.id);
    expect(await restarted.outbox.dispatchDue()).toBe(0);
    expect(sentSince()).toHaveLength(1);
    // The requester saw it created (queued), then sent; retries that stayed queued published nothing.
    expect(await deliveryEvents(restarted, request.id)).toEqual(['queued', 'sent']);
  });

  it('holds every SMS while Twilio refuses Kabari’s credentials, tells the operator once, and sends them once it accepts', async () => {
    const refusing = await fakeTwilio(TWILIO_REFUSALS.unauthorized, TWILIO_REFUSALS.unauthorized);
    testApp = await buildTestApp(
      driver,
      { ...TWILIO, OPERATOR_EMAIL: 'operator@kabari.test' },
      { build: { twilioApiBaseUrl: refusing.baseUrl } },
    );
    const sent = [await sendSms(testApp.app, '+6281234567801'), await sendSms(testApp.app, '+6281234567802')];
    await testApp.app.outbox.dispatchDue();
    const alerts = () =>
      testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, 'operator@kabari.test'));
    const held = async () => {
      for (const { request } of sent) {
        const message = await messageOf(testApp.app, request.id);
        // Held, not failed, and the tries do not count towards giving up.
        expect(message).toMatchObject({ state: 'queued', attempts: 0 });
        expect(message.lastError).toMatch(/^Twilio refused Kabari's credentials \(401\)/);
        expect(message.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
      }
    };
    await held();
    // Far more tries than a failing message gets: still held, and still one email to the operator.
    for (let round = 0; round < 10; round += 1) {
      refusing.answer(TWILIO_REFUSALS.unauthorized, TWILIO_REFUSALS.unauthorized);
      for (const { request } of sent) await makeDue(testApp.app, (await messageOf(testApp.app, request.id)).id);
      await testApp.app.outbox.dispatchDue();
    }
    await held();
    const [alert, ...more] = await alerts();
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ channel: 'email', subject: "Kabari: Twilio refuses Kabari's credentials" });
    expect(alert!.bodyText).toContain('Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, then restart the server.');
    expect(refusing.messages).toHaveLength(22);

    // The credentials accepted again: each goes out, once.
    for (const { request } of sent) await makeDue(testApp.app, (await messageOf(testApp.app, request.id)).id);
    await testApp.app.outbox.dispatchDue();
    for (const { request } of sent) {
      expect(await messageOf(testApp.app, request.id)).toMatchObject({ state: 'sent', transport: 'twilio' });
    }
    expect(refusing.messages).toHaveLength(24);
  });

  it('renews the claim of a message while a slow provider takes it, so no one else sends it meanwhile', async () => {
    let release: () => void = () => undefined;
    const slow = await fakeTwilio({ after: new Promise<void>((resolve) => (release = resolve)) });
    const calls = slow.messages;
    testApp = await buildTestApp(driver, TWILIO, {
      build: { twilioApiBaseUrl: slow.baseUrl, outboxTiming: { leaseRenewalMs: 20 } },
    });
    const { request } = await sendSms(testApp.app, '+6281234567893');
    const dispatching = testApp.app.outbox.dispatchDue();
    const until = async (condition: () => Promise<boolean> | boolean) => {
      while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
    };
    await until(() => calls.length === 1);
    const { id } = await messageOf(testApp.app, request.id);
    // The claim runs out while the provider is still busy with it...
    await testApp.app.db.execute(sql`update outbox_messages set next_attempt_at = now() - interval '1 second'
        where id = ${id}`);
    // ...and the sender renews it, so another dispatcher would not see it due.
    await until(
      async () =>
        (await messageOf(testApp.app, request.id)).nextAttemptAt.getTime() >
        Date.now() + (CLAIM_LEASE_SECONDS - 10) * 1000,
    );
    release();
    await dispatching;
    expect(await messageOf(testApp.app, request.id)).toMatchObject({ state: 'sent', transport: 'twilio', attempts: 1 });
    expect(calls).toHaveLength(1);
  });

  it('keeps the retry time of a failed message when a renewal of its batch falls due as the failure is written', async () => {
    const renewalMs = 20;
    let settling = false;
    const failing = await fakeTwilio(TWILIO_REFUSALS.unavailable);
    // The message has reached Twilio: its failure is written next.
    failing.onMessage = () => {
      settling = true;
    };
    testApp = await buildTestApp(driver, TWILIO, {
      build: { twilioApiBaseUrl: failing.baseUrl, outboxTiming: { leaseRenewalMs: renewalMs } },
    });
    const { db } = testApp.app;
    // The batch's renewal is fired by hand, at the worst moment: inside the transaction that writes the failure,
    // so a renewal naming the message would land right after it. Only the interval timers are fake.
    const transaction = db.transaction.bind(db);
    let renewalsDue = 0;
    jest.spyOn(db, 'transaction').mockImplementation(((
      work: Parameters<typeof transaction>[0],
      config?: Parameters<typeof transaction>[1],
    ) =>
      transaction(async (tx) => {
        const result = await work(tx);
        if (settling) {
          settling = false;
          renewalsDue = jest.getTimerCount();
          jest.advanceTimersByTime(renewalMs);
        }
        return result;
      }, config)) as typeof db.transaction);
    fakeIntervalsOnly();
    try {
      const { request } = await sendSms(testApp.app, '+6281234567894');
      await testApp.app.outbox.dispatchDue();
      expect(failing.messages).toHaveLength(1);
      // The renewal timer was running when the failure was written, so it did fire then.
      expect(renewalsDue).toBe(1);
      const message = await messageOf(testApp.app, request.id);
      expect(message).toMatchObject({ state: 'queued', attempts: 1 });
      // Backoff: 30 s after the first failure, not the 2-minute claim lease (margins for a slow machine).
      const untilRetry = message.nextAttemptAt.getTime() - Date.now();
      expect(retryDelaySeconds(1)).toBe(30);
      expect(untilRetry).toBeGreaterThan(25_000);
      expect(untilRetry).toBeLessThan(60_000);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps an SMS request’s consent link in our copy only until Twilio has it, or has refused it for good', async () => {
    const twilio = await fakeTwilio();
    testApp = await buildTestApp(driver, TWILIO, { build: { twilioApiBaseUrl: twilio.baseUrl } });
    const tokenIn = (text: string) => /enter-link\?token=([\w-]+)/.exec(text)?.[1] ?? '';
    const { request } = await sendSms(testApp.app, '+6281234567893');
    await testApp.app.outbox.dispatchDue();
    // The recipient has the link, whole.
    const delivered = twilio.messages[0]!.fields.Body!;
    const token = tokenIn(delivered);
    expect(token).toMatch(/^[\w-]{32}$/);
    const sent = await messageOf(testApp.app, request.id);
    expect(sent).toMatchObject({ state: 'sent', transport: 'twilio' });
    expect(sent.bodyText).toBe(delivered.split(token).join('[token]'));
    expect(await tablesHolding(testApp.app.db, token)).toEqual([]);

    // Refused for good: nobody will send it again, and the token goes too.
    twilio.answer(TWILIO_REFUSALS.invalidNumber);
    const refused = await sendSms(testApp.app, '+6281234567894');
    await testApp.app.outbox.dispatchDue();
    const refusedToken = tokenIn(twilio.messages[1]!.fields.Body!);
    expect(refusedToken).toMatch(/^[\w-]{32}$/);
    const failed = await messageOf(testApp.app, refused.request.id);
    expect(failed.state).toBe('failed');
    expect(failed.bodyText).toContain('/enter-link?token=[token] ');
    expect(await tablesHolding(testApp.app.db, refusedToken)).toEqual([]);
  });

  it('picks up a message whose sender died mid-send once its lease ends; fails a final refusal at once', async () => {
    const twilio = await fakeTwilio('network');
    testApp = await buildTestApp(driver, TWILIO, { build: { twilioApiBaseUrl: twilio.baseUrl } });
    const sent = await sendSms(testApp.app, '+6281234567891');
    await testApp.app.outbox.dispatchDue();
    const { id } = await messageOf(testApp.app, sent.request.id);
    // Another process claimed it (attempts + 1, leased for 2 minutes) and died before recording an outcome.
    await testApp.app.db.execute(
      sql`update outbox_messages set attempts = attempts + 1, next_attempt_at = now() + interval '120 seconds'
          where id = ${id}`,
    );
    expect(await testApp.app.outbox.dispatchDue()).toBe(0);
    await makeDue(testApp.app, id);
    expect(await testApp.app.outbox.dispatchDue()).toBe(1);
    expect(await messageOf(testApp.app, sent.request.id)).toMatchObject({ state: 'sent', attempts: 3 });
    expect(twilio.messages).toHaveLength(2);

    // An invalid number: Twilio's 400 is final, the message fails at once and the owner sees it failed.
    twilio.answer(TWILIO_REFUSALS.invalidNumber);
    const refused = await sendSms(testApp.app, '+6281234567892');
    await testApp.app.outbox.dispatchDue();
    const message = await messageOf(testApp.app, refused.request.id);
    expect(message).toMatchObject({ state: 'failed', attempts: 1 });
    expect(message.lastError).toMatch(/Twilio refused the message \(400, code 21211\)/);
    expect(await deliveryEvents(testApp.app, refused.request.id)).toEqual(['queued', 'failed']);
    const history = await testApp.app.inject({ method: 'GET', url: '/api/v1/requests', headers: refused.headers });
    expect(history.json().data.items[0]).toMatchObject({ id: refused.request.id, delivery: 'failed' });
  });
});

describeEachDatabase('the dispatcher: one channel never waits on another', (driver) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let pushService: TestPushService;
  let testApp: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    pushService = await startPushService();
    testApp = await buildTestApp(
      driver,
      { SMTP_URL: smtp.url },
      { build: { pushAgent: pushService.agent, pushAllowLoopback: true, outboxTiming: { pushRequestMs: 4_000 } } },
    );
  });

  afterAll(async () => {
    await testApp?.close();
    await pushService?.close();
    await smtp?.close();
  });

  it('delivers a reset code while a push service is still trickling its answer to an earlier notification', async () => {
    const { app } = testApp;
    const slow = pushService.browser('slow-service');
    pushService.answer('slow-service', 201, 'trickle');
    const owner = await createRequester(app, { displayName: 'Wati' });
    const on = await app.inject({
      method: 'POST',
      url: '/api/v1/push/subscriptions',
      headers: owner.headers,
      payload: slow.subscription,
    });
    expect(on.statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/v1/push/test', headers: owner.headers })).statusCode).toBe(
      200,
    );
    while (pushService.answering() === 0) await new Promise((resolve) => setImmediate(resolve));

    await createUser(app.db, { email: 'lanes@example.com', displayName: 'Wati', password: 'pw123456' });
    const arrival = smtp.nextMessage();
    const asked = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/sendCode',
      payload: { email: 'lanes@example.com', type: 1 },
    });
    expect(asked.statusCode).toBe(200);
    expect((await arrival).to).toBe('lanes@example.com');
    // The push is still being answered: the email did not wait for it.
    expect(pushService.answering()).toBe(1);
  }, 15_000);
});
