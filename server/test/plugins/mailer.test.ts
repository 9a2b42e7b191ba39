import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { createUser } from '../../src/auth/users';
import { outboxMessages } from '../../src/db/schema';
import { retryDelaySeconds } from '../../src/plugins/mailer';
import { describeEachDatabase } from '../support/databases';
import { buildTestApp, type TestApp } from '../support/test-app';

interface Received {
  to: string;
  raw: string;
}

/** A real SMTP server on a free port that records what it receives, and can refuse on demand. */
async function startSmtpServer() {
  const received: Received[] = [];
  const waiters: ((message: Received) => void)[] = [];
  let refuseNext = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuseNext > 0) {
          refuseNext -= 1;
          const error = Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 });
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
    refuse: (count: number) => {
      refuseNext = count;
    },
    nextMessage: () => new Promise<Received>((resolve) => waiters.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('retryDelaySeconds', () => {
  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(20)).toBe(3600);
  });
});

describeEachDatabase('the mailer with SMTP_URL', (driver) => {
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

    await testApp.app.mailer.dispatchDue();
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
    await testApp.app.mailer.dispatchDue();
  });

  it('keeps a refused message and retries it later, sending it once', async () => {
    smtp.refuse(1);
    const before = smtp.received.length;
    await testApp.app.mailer.queue(testApp.app.db, {
      idempotencyKey: 'retry-test',
      to: 'retry@example.com',
      locale: 'en',
      subject: 'Retry',
      text: 'Hello again',
      html: '<p>Hello again</p>',
    });
    expect(await testApp.app.mailer.dispatchDue()).toBe(1);
    const failed = await rowFor('retry-test');
    expect(failed).toMatchObject({ state: 'queued', attempts: 1 });
    expect(failed?.lastError).toMatch(/Mailbox busy/);
    expect(failed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    // Not due yet: nothing is sent.
    expect(await testApp.app.mailer.dispatchDue()).toBe(0);

    await testApp.app.db.execute(
      sql`update outbox_messages set next_attempt_at = now() where idempotency_key = 'retry-test'`,
    );
    const arrival = smtp.nextMessage();
    await testApp.app.mailer.dispatchDue();
    expect((await arrival).to).toBe('retry@example.com');
    expect(await rowFor('retry-test')).toMatchObject({ state: 'sent', attempts: 2 });
    expect(smtp.received.length).toBe(before + 1);
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
    await testApp.app.mailer.queue(testApp.app.db, email);
    await testApp.app.mailer.queue(testApp.app.db, email);
    const rows = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, 'once-only'));
    expect(rows).toHaveLength(1);
  });
});
