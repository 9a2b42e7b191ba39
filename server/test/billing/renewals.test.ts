import { eq } from 'drizzle-orm';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { users } from '../../src/db/schema/accounts';
import { payments, subscriptions } from '../../src/db/schema/billing';
import { outboxMessages } from '../../src/db/schema/outbox';
import type { SavedChargeRequest } from '../../src/payments/processor';
import { sandboxProcessor } from '../../src/payments/sandbox-processor';
import { describeEachDatabase } from '../support/databases';
import { signUpSubscriber } from '../support/sign-up';
import { buildTestApp, type TestApp } from '../support/test-app';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/**
 * Records every renewal charge the sandbox is sent (both instances of a test share the sandbox processor), optionally
 * failing before it answers; undone by the returned function.
 */
function recordSandboxCharges(calls: SavedChargeRequest[], beforeAnswer?: () => void): () => void {
  const original = sandboxProcessor.chargeSaved.bind(sandboxProcessor);
  const spy = jest.spyOn(sandboxProcessor, 'chargeSaved').mockImplementation(async (request) => {
    calls.push(request);
    beforeAnswer?.();
    return original(request);
  });
  return () => spy.mockRestore();
}

describeEachDatabase('the renewal job', (driver) => {
  let testApp: TestApp;
  const start = new Date('2031-03-01T09:00:00Z');

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0', BILLING_PERIOD_DAYS: '30' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;

  async function subscriptionOf(email: string) {
    const [row] = await app()
      .db.select({ subscription: subscriptions })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(users.email, email));
    return row!.subscription;
  }

  const mailTo = (email: string) => app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));

  it('reminds before the renewal, charges it once when due, sends the receipt, and never charges twice', async () => {
    app().billing.clock.set(start);
    const { email, token } = await signUpSubscriber(app(), { locale: 'id' });
    const userId = (await subscriptionOf(email)).userId;

    const early = await app().billing.runRenewals(new Date(start.getTime() + HOUR), userId);
    expect(early).toMatchObject({ renewed: 0, reminded: 1 });
    const reminder = (await mailTo(email)).find((message) =>
      message.subject?.startsWith('Langganan Kabari Anda diperpanjang'),
    );
    expect(reminder?.bodyText).toContain('Rp');

    const due = new Date(start.getTime() + DAY + 60_000);
    expect(await app().billing.runRenewals(due, userId)).toMatchObject({ renewed: 1, failed: 0 });
    expect(await app().billing.runRenewals(due, userId)).toMatchObject({ renewed: 0, failed: 0 });

    const subscription = await subscriptionOf(email);
    expect(subscription).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(subscription.validUntil.toISOString()).toBe(new Date(start.getTime() + DAY + 30 * DAY).toISOString());
    const charged = await app().db.select().from(payments).where(eq(payments.userId, userId));
    expect(charged.map((payment) => [payment.kind, payment.state, payment.amount]).sort()).toEqual([
      ['first_day', 'succeeded', 14900],
      ['renewal', 'succeeded', 449000],
    ]);
    const receipts = (await mailTo(email)).filter((message) => message.subject?.startsWith('Tanda terima'));
    expect(receipts).toHaveLength(2);

    app().billing.clock.set(due);
    const list = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/payments',
      headers: { authorization: token! },
    });
    expect(list.json().data.items[0]).toMatchObject({
      kind: 'renewal',
      amount: 449000,
      currencyCode: 'IDR',
      cardLast4: '4242',
    });
    app().billing.clock.set(null);
  });

  it('a failed renewal expires the subscription and says so by email', async () => {
    app().billing.clock.set(start);
    const { email, token } = await signUpSubscriber(app(), { cardNumber: '4000 0000 0000 0341' });
    const userId = (await subscriptionOf(email)).userId;
    const due = new Date(start.getTime() + DAY + 1);
    expect(await app().billing.runRenewals(due, userId)).toMatchObject({ failed: 1, renewed: 0 });
    expect((await subscriptionOf(email)).status).toBe('expired');
    const notice = (await mailTo(email)).find((message) => message.subject?.includes('payment failed'));
    expect(notice?.bodyText).toContain('Your card was declined.');

    app().billing.clock.set(due);
    const info = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/subscribe/info',
      headers: { authorization: token! },
    });
    expect(info.json().data).toMatchObject({ status: 'expired', expiredStatus: 1, nextDebitDay: null });
    app().billing.clock.set(null);
  });

  it('sends the same idempotency key again when a pass dies between the charge and its commit', async () => {
    app().billing.clock.set(start);
    const { email } = await signUpSubscriber(app());
    const userId = (await subscriptionOf(email)).userId;
    const calls: SavedChargeRequest[] = [];
    let crash = true;
    const stopRecording = recordSandboxCharges(calls, () => {
      if (crash) throw new Error('the process died');
    });
    const due = new Date(start.getTime() + DAY + 1);
    try {
      await expect(app().billing.runRenewals(due, userId)).rejects.toThrow('the process died');
      expect((await subscriptionOf(email)).periodIndex).toBe(0);
      crash = false;
      expect(await app().billing.runRenewals(due, userId)).toMatchObject({ renewed: 1 });
    } finally {
      stopRecording();
      app().billing.clock.set(null);
    }
    expect(calls.map((call) => call.idempotencyKey)).toEqual([calls[0]!.idempotencyKey, calls[0]!.idempotencyKey]);
    const renewals = await app()
      .db.select()
      .from(payments)
      .where(eq(payments.idempotencyKey, calls[0]!.idempotencyKey));
    expect(renewals).toHaveLength(1);
  });

  it('expires a cancelled subscription once its paid period is over', async () => {
    app().billing.clock.set(start);
    const { email, token } = await signUpSubscriber(app());
    const cancel = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/cancel',
      headers: { authorization: token! },
    });
    expect(cancel.json().data).toMatchObject({ status: 'cancelled', expiredStatus: 0, nextDebitDay: null });
    const userId = (await subscriptionOf(email)).userId;
    expect(await app().billing.runRenewals(new Date(start.getTime() + DAY + 1), userId)).toMatchObject({
      expired: 1,
      renewed: 0,
    });
    expect((await subscriptionOf(email)).status).toBe('expired');
    app().billing.clock.set(null);
  });

  if (driver === 'postgres') {
    it('two instances on one database racing through the same due renewals charge each exactly once', async () => {
      const second = await buildApp(
        loadConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          RSA_PRIVATE_KEY: process.env.KABARI_TEST_RSA_PRIVATE_KEY,
          ...testApp.database.env,
          RENEWAL_INTERVAL_SECONDS: '0',
        }),
        { logger: false, checkAnswers: true },
      );
      await second.ready();
      const calls: SavedChargeRequest[] = [];
      const stopRecording = recordSandboxCharges(calls);
      try {
        const raceStart = new Date('2032-06-01T00:00:00Z');
        app().billing.clock.set(raceStart);
        const emails: string[] = [];
        for (let index = 0; index < 6; index += 1) emails.push((await signUpSubscriber(app())).email);
        app().billing.clock.set(null);

        calls.length = 0;
        const due = new Date(raceStart.getTime() + DAY + 1);
        const [first, other] = await Promise.all([app().billing.runRenewals(due), second.billing.runRenewals(due)]);
        // Earlier tests' subscribers are due at this moment too: every charge made is one renewal, once.
        expect(first.renewed + other.renewed).toBe(calls.length);
        expect(calls.length).toBeGreaterThanOrEqual(6);
        const keys = calls.map((call) => call.idempotencyKey);
        expect(new Set(keys).size).toBe(keys.length);
        for (const email of emails) {
          const subscription = await subscriptionOf(email);
          expect(subscription.periodIndex).toBe(1);
          const renewals = await app().db.select().from(payments).where(eq(payments.subscriptionId, subscription.id));
          expect(renewals.filter((payment) => payment.kind === 'renewal')).toHaveLength(1);
        }
      } finally {
        stopRecording();
        await second.close();
      }
    });
  }
});
