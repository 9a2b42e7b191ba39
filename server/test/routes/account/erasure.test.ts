import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { queryRows } from '../../../src/db/open-database';
import { pushSubscriptions } from '../../../src/db/schema/accounts';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { tokenFromMessage } from '../../support/request-token';
import { throttleKey } from '../../../src/auth/throttle';
import { encryptPassword } from '../../support/jsencrypt';
import { freshIp, signUpSubscriber } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

// Google's public resolver: the bundled DB-IP database knows its place, so Share stores a position.
const PUBLIC_IP = '8.8.8.8';

/** An SMTP server that takes every message: with a real provider, a message is sent, not kept in the outbox. */
async function startSmtpServer(): Promise<{ port: number; received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received.push(session.envelope.rcptTo.map((to) => to.address).join(','));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { port, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describeEachDatabase('deleting an account', (driver) => {
  let testApp: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    testApp = await buildTestApp(
      driver,
      {
        TRUST_PROXY: '127.0.0.1',
        RENEWAL_INTERVAL_SECONDS: '0',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        OPERATOR_EMAIL: 'operator@kabari.test',
      },
      // The browser's push endpoint below is on this machine.
      { build: { pushAllowLoopback: true } },
    );
  });

  afterAll(async () => {
    await testApp?.close();
    await smtp?.close();
  });

  const app = () => testApp.app;
  const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object, ip = freshIp()) =>
    app().inject({
      method,
      url,
      headers: { ...(token ? { authorization: token } : {}), 'x-forwarded-for': ip },
      ...(payload ? { payload } : {}),
    });

  /** Every table of the database, each row as JSON, and the tables where `text` appears (case-insensitive). */
  async function tablesHolding(text: string): Promise<string[]> {
    const tables = await queryRows<{ name: string }>(
      app().db,
      sql`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
    );
    const holding: string[] = [];
    for (const { name } of tables) {
      const rows = await queryRows<Record<string, unknown>>(app().db, sql`select * from ${sql.identifier(name)}`);
      if (JSON.stringify(rows).toLowerCase().includes(text.toLowerCase())) holding.push(name);
    }
    return holding;
  }

  it('erases every row tied to the account or its email; payments stay, without the person', async () => {
    const { email, token } = await signUpSubscriber(app(), { password: 'erase-me-please-1' });
    const userId: string = (await call('GET', '/api/v1/auth/session', token)).json().data.userCacheInfo.id;

    // A life on Kabari: requests of every kind, a recipient who shares and one who reports, a message through the
    // contact form from the same address, a refund request, a limit check, a wrong password.
    const sms = await call('POST', '/api/v1/requests/sms', token, {
      number: '+6281298765001',
      templateId: 'check-in',
      note: 'Sudah sampai?',
      locale: 'en',
    });
    expect(sms.statusCode).toBe(200);
    expect(
      (
        await call('POST', '/api/v1/requests/email', token, {
          email: 'ibu@example.com',
          templateId: 'check-in',
          note: '',
          locale: 'en',
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('POST', '/api/v1/links', token, { title: 'Weekend trip', locale: 'en' })).statusCode).toBe(200);
    const sharedToken = await tokenFromMessage(app().db, sms.json().data.request.id);
    const share = (action: string, payload?: object) =>
      call('POST', `/api/v1/share/links/${sharedToken}${action}`, undefined, payload, PUBLIC_IP);
    expect((await share('/consent')).statusCode).toBe(200);
    expect(
      (
        await share('/positions', {
          latitude: -6.2,
          longitude: 106.8,
          accuracy: 15,
          recordedAt: new Date().toISOString(),
        })
      ).statusCode,
    ).toBe(200);
    expect((await share('/report', { reason: 'spam', details: 'Not my family' })).statusCode).toBe(200);
    expect(
      (
        await call('POST', '/api/v1/contact/messages', undefined, {
          name: 'Rina',
          email,
          topic: 'billing',
          message: 'A question about my subscription, please.',
          locale: 'en',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', '/api/v1/refunds', token, { email, reason: 'I no longer need it', locale: 'en' })).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/v1/requests/limit?channel=sms&number=%2B6281298765002', token)).statusCode).toBe(
      200,
    );
    const publicKey = (await call('GET', '/api/v1/auth/publicKey')).json().data.publicKey;
    const wrong = await call('POST', '/api/v1/auth/login', undefined, {
      email,
      password: encryptPassword(publicKey, 'not-the-password-1'),
    });
    expect(wrong.statusCode).toBe(400);
    // Notifications turned on in a browser, and a test notification waiting for it (nothing listens at its endpoint:
    // it is never delivered, and stays queued).
    const browser = {
      endpoint: 'https://127.0.0.1:9/erase-me',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    };
    expect((await call('POST', '/api/v1/push/subscriptions', token, browser)).statusCode).toBe(200);
    expect((await call('POST', '/api/v1/push/test', token)).statusCode).toBe(200);
    const [subscription] = await app().db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    expect(
      await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, subscription!.id)),
    ).toHaveLength(1);
    // The sign-in counter of the address is kept under a keyed hash of it: looked for by that key.
    const emailCounter = throttleKey(app().auth.secrets.hmacSecret, 'login:account', email);
    expect(await tablesHolding(emailCounter)).toEqual(['auth_throttles']);
    await app().outbox.dispatchDue();
    expect(await tablesHolding(userId)).not.toEqual([]);

    const deleted = await call('POST', '/api/v1/personnal/account/delete', token, {
      password: encryptPassword(publicKey, 'erase-me-please-1'),
    });
    expect(deleted.statusCode).toBe(200);
    // The one message the deletion writes, telling the person it is done, goes out and is then forgotten.
    await app().outbox.dispatchDue();
    expect(smtp.received).toContain(email);

    expect(await tablesHolding(userId)).toEqual([]);
    expect(await tablesHolding(email)).toEqual([]);
    expect(await tablesHolding(emailCounter)).toEqual([]);
    // What the law asks us to keep stays: the payment, detached from the person.
    const kept = await queryRows<{ user_id: string | null; amount: number }>(
      app().db,
      sql`select user_id, amount from payments where amount = 99`,
    );
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.every((payment) => payment.user_id === null)).toBe(true);
    // Nothing about the requests either: the recipient's number or address, the message. (send_limits counts the
    // messages a number or address received, whoever sent them: it protects them, not the account.)
    const withoutSendLimits = (tables: string[]) => tables.filter((table) => table !== 'send_limits');
    expect(withoutSendLimits(await tablesHolding('6281298765001'))).toEqual([]);
    expect(withoutSendLimits(await tablesHolding('ibu@example.com'))).toEqual([]);
    expect(await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email))).toEqual([]);
    expect(await tablesHolding(browser.endpoint)).toEqual([]);
    expect(await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, subscription!.id))).toEqual(
      [],
    );
  });
});
