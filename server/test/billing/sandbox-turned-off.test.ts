import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { users } from '../../src/db/schema/accounts';
import { payments, subscriptions } from '../../src/db/schema/billing';
import { outboxMessages } from '../../src/db/schema/outbox';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { FAKE_PROVIDERS_ENV } from '../support/fake-providers';
import { signUpSubscriber } from '../support/sign-up';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** The app on `database`, as a restart with `env` would bring it up. */
async function startApp(database: TestDatabase, env: Record<string, string>): Promise<FastifyInstance> {
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      RSA_PRIVATE_KEY: process.env.KABARI_TEST_RSA_PRIVATE_KEY,
      ...database.env,
      RENEWAL_INTERVAL_SECONDS: '0',
      BILLING_PERIOD_DAYS: '30',
      ...env,
    }),
    { logger: false, checkAnswers: true },
  );
  await app.ready();
  return app;
}

// A trial site took sandbox subscriptions; the operator then turned the sandbox off. Those subscriptions must not go
// on renewing for free: each ends with its paid period, and its owner is told once, in their language.
describe.each([
  ['payments not configured (PAYMENTS_SANDBOX=false)', { PAYMENTS_SANDBOX: 'false' }],
  ['a real provider configured', FAKE_PROVIDERS_ENV],
])('a sandbox subscription after the sandbox is turned off: %s', (_title, sandboxOff) => {
  let database: TestDatabase;
  let app: FastifyInstance | undefined;
  const start = new Date('2033-05-01T09:00:00Z');

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('is neither reminded nor renewed: it ends at its period’s end, with one email', async () => {
    // With the sandbox on: a subscriber pays the first day with the sandbox's test card.
    app = await startApp(database, { PAYMENTS_SANDBOX: 'true' });
    app.billing.clock.set(start);
    const { email, token } = await signUpSubscriber(app, { locale: 'id' });
    await app.close();

    // Restarted with the sandbox off.
    app = await startApp(database, sandboxOff);
    const current = app;
    const [{ subscription }] = (await current.db
      .select({ subscription: subscriptions })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(users.email, email))) as [{ subscription: typeof subscriptions.$inferSelect }];
    expect(subscription).toMatchObject({ provider: 'sandbox', status: 'trial', periodIndex: 0 });
    const subscriptionNow = async () =>
      (await current.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id)))[0]!;
    const mail = () => current.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));
    const mailBefore = (await mail()).length;

    // The subscriber is not told of a next charge that will not come.
    const info = await current.inject({
      method: 'GET',
      url: '/api/v1/personnal/subscribe/info',
      headers: { authorization: token! },
    });
    expect(info.json().data).toMatchObject({ status: 'trial', provider: 'sandbox', nextDebitDay: null });

    // Days before its end: no "it renews" reminder, since it will not.
    const early = await current.billing.runRenewals(new Date(start.getTime() + HOUR), subscription.userId);
    expect(early).toMatchObject({ reminded: 0, renewed: 0, failed: 0 });
    expect(await mail()).toHaveLength(mailBefore);

    // At its end: not charged, not renewed, ended, and its owner told.
    const due = new Date(subscription.validUntil.getTime() + 60_000);
    expect(await current.billing.runRenewals(due, subscription.userId)).toMatchObject({ renewed: 0, failed: 1 });
    expect(await subscriptionNow()).toMatchObject({ status: 'expired', periodIndex: 0 });
    const renewals = await current.db.select().from(payments).where(eq(payments.subscriptionId, subscription.id));
    expect(renewals.map((payment) => payment.kind)).toEqual(['first_day']);

    // Another pass, as every instance runs one a minute: nothing more happens, and the email goes once.
    const later = new Date(due.getTime() + DAY);
    expect(await current.billing.runRenewals(later, subscription.userId)).toMatchObject({ renewed: 0, failed: 0 });
    const sent = (await mail()).slice(mailBefore);
    expect(sent.map((message) => message.subject)).toEqual([
      'Langganan Kabari Anda telah berakhir: pembayaran sandbox tidak lagi diterima',
    ]);
    expect(sent[0]!.bodyText).toContain('tidak ada biaya yang ditagih');
    expect(sent[0]!.bodyText).toContain('Rp');
  });
});
