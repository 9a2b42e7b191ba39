import { and, eq, like } from 'drizzle-orm';
import { users } from '../../src/db/schema/accounts';
import { payments, subscriptions } from '../../src/db/schema/billing';
import { outboxMessages } from '../../src/db/schema/outbox';
import { describeEachDatabase } from '../support/databases';
import { startPushService, type TestPushService } from '../support/push-service';
import { freshEmail, signUpSubscriber, signUpWithQris } from '../support/sign-up';
import { buildTestApp, type TestApp } from '../support/test-app';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// A subscription paid with QRIS, an e-wallet or a transfer is never charged by itself: its owner is reminded to pay
// 7 days and 1 day before its period ends, by email (in their language) and on each browser with notifications on,
// with a link to the payment choices; once each per period, and not when there is nothing to pay for.
describeEachDatabase('Reminders to pay for a subscription that renews when paid', (driver) => {
  let testApp: TestApp;
  let pushService: TestPushService;
  const app = () => testApp.app;

  beforeAll(async () => {
    pushService = await startPushService();
    testApp = await buildTestApp(
      driver,
      {
        PUBLIC_URL: 'https://kabari.example',
        PAYMENTS_SANDBOX: 'true',
        RENEWAL_INTERVAL_SECONDS: '0',
        BILLING_PERIOD_DAYS: '30',
      },
      // The tests' push service listens on this machine, which only this allowance lets the server send to.
      { build: { pushAgent: pushService.agent, pushAllowLoopback: true } },
    );
  });
  afterAll(async () => {
    await testApp?.close();
    await pushService?.close();
  });
  afterEach(() => app().billing.clock.set(null));

  const payInSandbox = (registerId: string) =>
    app().inject({ method: 'POST', url: `/api/v1/personnal/sandboxPayments/${registerId}/pay` });

  /** Signs up with QRIS (the Indonesian price) and pays the first day; `reads`: the language the account reads. */
  const localSubscriber = async (reads: 'en' | 'id', start: Date) => {
    app().billing.clock.set(start);
    const { email, token } = await signUpWithQris(app(), freshEmail('pay-reminder'));
    // An account that reads English keeps the rupiah price it signed up with.
    await app().db.update(users).set({ locale: reads }).where(eq(users.email, email));
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    return { email, token, userId: user!.id };
  };

  const subscriptionOf = async (userId: string) =>
    (await app().db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!;
  /** Pays the next period ahead, as the My subscription page does, at `at`. */
  const payAhead = async (token: string, at: Date) => {
    app().billing.clock.set(at);
    const started = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/renew',
      headers: { authorization: token },
      payload: { method: 'local', channel: 'qris' },
    });
    expect(started.statusCode).toBe(200);
    return started.json().data as { registerId: string; payment: { expiresAt: string } };
  };
  /** Moves the current period so that it ends at `end` (after a day of trial, the 30-day period is long to wait). */
  const periodEndingAt = async (userId: string, end: Date) => {
    await app()
      .db.update(subscriptions)
      .set({
        status: 'active',
        periodIndex: 1,
        currentPeriodStart: new Date(end.getTime() - 30 * DAY),
        validUntil: end,
      })
      .where(eq(subscriptions.userId, userId));
  };
  const run = (at: Date, userId: string) => app().billing.runRenewals(at, userId);
  const payReminders = (email: string) =>
    app()
      .db.select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.recipient, email), like(outboxMessages.idempotencyKey, 'pay-reminder:%')))
      .orderBy(outboxMessages.createdAt);
  const renewalReminders = (email: string) =>
    app()
      .db.select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.recipient, email), like(outboxMessages.idempotencyKey, 'renewal-reminder:%')));

  it('reminds 7 days and 1 day before the end, once each, in Indonesian, with the link to pay', async () => {
    const start = new Date('2032-01-10T03:00:00Z');
    const { email, userId } = await localSubscriber('id', start);
    const end = new Date('2032-02-20T03:00:00Z');
    await periodEndingAt(userId, end);
    const { id } = await subscriptionOf(userId);

    expect(await run(new Date(end.getTime() - 7 * DAY - MINUTE), userId)).toMatchObject({ reminded: 0 });
    const sevenDays = new Date(end.getTime() - 7 * DAY + MINUTE);
    // Two passes at once (two instances), then once more: one reminder.
    const passes = await Promise.all([run(sevenDays, userId), run(sevenDays, userId)]);
    expect(passes.map((pass) => pass.reminded).sort()).toEqual([0, 1]);
    expect(await run(sevenDays, userId)).toMatchObject({ reminded: 0 });
    expect(await run(new Date(end.getTime() - 3 * DAY), userId)).toMatchObject({ reminded: 0 });

    const [first] = await payReminders(email);
    expect(first).toMatchObject({
      idempotencyKey: `pay-reminder:${id}:1:7`,
      locale: 'id',
      subject: 'Langganan Kabari Anda berakhir pada 20 Februari 2032: bayar periode berikutnya',
    });
    expect(first!.bodyText).toBe(
      [
        'Halo Rina,',
        'Langganan Kabari Anda dibayar lewat QRIS, dompet digital, atau transfer bank, jadi tidak diperpanjang ' +
          'otomatis dan tidak ada tagihan otomatis. Langganan berakhir pada 20 Februari 2032.',
        'Agar tetap bisa memakai Kabari tanpa terputus, bayar Rp\u00a0449.000 untuk periode berikutnya. Periode baru ' +
          'dimulai saat periode sekarang berakhir, jadi membayar lebih awal tidak mengurangi hari langganan Anda.',
        'Bayar periode berikutnya:\nhttps://kabari.example/id/dashboard/modules/MySubscription?renew=1',
        '',
        '— Kabari',
      ].join('\n\n'),
    );
    expect(first!.bodyHtml).toContain('<a href="https://kabari.example/id/dashboard/modules/MySubscription?renew=1">');

    const oneDay = new Date(end.getTime() - DAY + MINUTE);
    expect(await run(oneDay, userId)).toMatchObject({ reminded: 1 });
    expect(await run(oneDay, userId)).toMatchObject({ reminded: 0 });
    expect(await run(new Date(end.getTime() - HOUR), userId)).toMatchObject({ reminded: 0 });
    expect(await run(new Date(end.getTime() + HOUR), userId)).toMatchObject({ reminded: 0 });
    const sent = await payReminders(email);
    expect(sent.map((message) => message.idempotencyKey)).toEqual([`pay-reminder:${id}:1:7`, `pay-reminder:${id}:1:1`]);
    expect(sent[1]!.subject).toBe('Pengingat terakhir: langganan Kabari Anda berakhir pada 20 Februari 2032');
    // Nothing renews it by itself: never the "it renews automatically" reminder.
    expect(await renewalReminders(email)).toEqual([]);
  });

  it('writes in English to an account that reads English, and reaches each browser with notifications on', async () => {
    const { email, token, userId } = await localSubscriber('en', new Date('2032-03-01T03:00:00Z'));
    const end = new Date('2032-04-15T10:00:00Z');
    await periodEndingAt(userId, end);
    for (const browser of ['reminder-phone', 'reminder-laptop']) {
      const on = await app().inject({
        method: 'POST',
        url: '/api/v1/push/subscriptions',
        headers: { authorization: token },
        payload: pushService.browser(browser).subscription,
      });
      expect(on.statusCode).toBe(200);
    }

    expect(await run(new Date(end.getTime() - 6 * DAY), userId)).toMatchObject({ reminded: 1 });
    const [mail] = await payReminders(email);
    expect(mail).toMatchObject({
      locale: 'en',
      subject: 'Your Kabari subscription ends on 15 April 2032: pay for the next period',
    });
    expect(mail!.bodyText).toContain(
      'Your Kabari subscription was paid with QRIS, an e-wallet or a bank transfer, so it does not renew by itself ' +
        'and nothing will be charged. It ends on 15 April 2032.',
    );
    expect(mail!.bodyText).toContain('pay IDR\u00a0449,000 for the next period');
    expect(mail!.bodyText).toContain(
      'Pay for the next period:\nhttps://kabari.example/dashboard/modules/MySubscription?renew=1',
    );

    await app().outbox.dispatchDue();
    for (const browser of ['reminder-phone', 'reminder-laptop']) {
      const pushes = pushService.received.filter((push) => push.browser === browser);
      expect(pushes.map((push) => JSON.parse(push.payload))).toEqual([
        {
          title: 'Your Kabari subscription ends on 15 April 2032',
          body: 'It does not renew by itself. Pay IDR\u00a0449,000 for the next period to keep using Kabari.',
          url: 'https://kabari.example/dashboard/modules/MySubscription?renew=1',
          tag: 'pay-reminder',
        },
      ]);
    }
  });

  it('sends only the reminder due now when found late: the 7-day one at 3 days, only the 1-day one at 12 hours', async () => {
    const late = await localSubscriber('id', new Date('2032-05-01T03:00:00Z'));
    const end = new Date('2032-06-10T03:00:00Z');
    await periodEndingAt(late.userId, end);
    expect(await run(new Date(end.getTime() - 3 * DAY), late.userId)).toMatchObject({ reminded: 1 });
    expect(await run(new Date(end.getTime() - 12 * HOUR), late.userId)).toMatchObject({ reminded: 1 });
    const { id } = await subscriptionOf(late.userId);
    expect((await payReminders(late.email)).map((message) => message.idempotencyKey)).toEqual([
      `pay-reminder:${id}:1:7`,
      `pay-reminder:${id}:1:1`,
    ]);

    const later = await localSubscriber('id', new Date('2032-05-01T03:00:00Z'));
    await periodEndingAt(later.userId, end);
    expect(await run(new Date(end.getTime() - 12 * HOUR), later.userId)).toMatchObject({ reminded: 1 });
    expect(await run(new Date(end.getTime() - 6 * HOUR), later.userId)).toMatchObject({ reminded: 0 });
    const { id: laterId } = await subscriptionOf(later.userId);
    const only = await payReminders(later.email);
    expect(only.map((message) => message.idempotencyKey)).toEqual([`pay-reminder:${laterId}:1:1`]);
    // The only reminder of the period is not called the last one.
    expect(only[0]!.subject).toBe('Langganan Kabari Anda berakhir pada 10 Juni 2032: bayar periode berikutnya');
  });

  it('reminds no more once the next period is paid ahead, and reminds again before that period ends', async () => {
    const { email, token, userId } = await localSubscriber('id', new Date('2032-07-01T03:00:00Z'));
    const end = new Date('2032-08-10T03:00:00Z');
    await periodEndingAt(userId, end);
    expect(await run(new Date(end.getTime() - 7 * DAY + MINUTE), userId)).toMatchObject({ reminded: 1 });

    // A payment started and not finished yet: no reminder while it waits.
    // QRIS stays payable for 15 minutes.
    const { registerId } = await payAhead(token, new Date(end.getTime() - DAY - 5 * MINUTE));
    expect(await run(new Date(end.getTime() - DAY + MINUTE), userId)).toMatchObject({ reminded: 0 });
    app().billing.clock.set(new Date(end.getTime() - DAY + 2 * MINUTE));
    expect((await payInSandbox(registerId)).json().data).toEqual({ state: 'created' });
    const paid = await subscriptionOf(userId);
    expect(paid).toMatchObject({ periodIndex: 2, currentPeriodStart: end });

    expect(await run(new Date(end.getTime() - HOUR), userId)).toMatchObject({ reminded: 0 });
    expect(await run(new Date(end.getTime() + 20 * DAY), userId)).toMatchObject({ reminded: 0 });
    expect(await run(new Date(paid.validUntil.getTime() - 7 * DAY + MINUTE), userId)).toMatchObject({ reminded: 1 });
    expect((await payReminders(email)).map((message) => message.idempotencyKey)).toEqual([
      `pay-reminder:${paid.id}:1:7`,
      `pay-reminder:${paid.id}:2:7`,
    ]);
  });

  it('reminds again once a payment that was waiting has failed', async () => {
    const { email, token, userId } = await localSubscriber('id', new Date('2032-09-01T03:00:00Z'));
    const end = new Date('2032-10-10T03:00:00Z');
    await periodEndingAt(userId, end);
    const { registerId, payment } = await payAhead(token, new Date(end.getTime() - 7 * DAY + MINUTE));
    expect(await run(new Date(end.getTime() - 7 * DAY + 2 * MINUTE), userId)).toMatchObject({ reminded: 0 });
    // The code was not paid in time: the payment page's next look ends the attempt.
    app().billing.clock.set(new Date(Date.parse(payment.expiresAt) + 1000));
    await app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });
    const [failed] = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(failed).toMatchObject({ state: 'failed', failureCode: 'payment_expired' });
    expect(await run(new Date(end.getTime() - 6 * DAY), userId)).toMatchObject({ reminded: 1 });
    expect(await payReminders(email)).toHaveLength(1);
  });

  it('reminds on the day of trial bought with QRIS: it too ends unless paid', async () => {
    const start = new Date('2033-02-01T03:00:00Z');
    const { email, userId } = await localSubscriber('en', start);
    expect(await run(new Date(start.getTime() + MINUTE), userId)).toMatchObject({ reminded: 1 });
    expect(await run(new Date(start.getTime() + HOUR), userId)).toMatchObject({ reminded: 0 });
    const { id } = await subscriptionOf(userId);
    const [mail] = await payReminders(email);
    expect(mail).toMatchObject({
      idempotencyKey: `pay-reminder:${id}:0:1`,
      subject: 'Your Kabari subscription ends on 2 February 2033: pay for the next period',
    });
  });

  it('says in each receipt that the subscription does not renew by itself, and when to pay', async () => {
    const start = new Date('2033-03-01T03:00:00Z');
    const { email, token, userId } = await localSubscriber('id', start);
    const registerId = (await payAhead(token, new Date(start.getTime() + HOUR))).registerId;
    await payInSandbox(registerId);
    const { validUntil } = await subscriptionOf(userId);
    expect(validUntil).toEqual(new Date(start.getTime() + 31 * DAY));
    const receipts = await app()
      .db.select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.recipient, email), like(outboxMessages.idempotencyKey, 'receipt:%')))
      .orderBy(outboxMessages.createdAt);
    expect(receipts).toHaveLength(2);
    for (const [receipt, until, next] of [
      [receipts[0]!, '2 Maret 2033', 'Rp\u00a0449.000'],
      [receipts[1]!, '1 April 2033', 'Rp\u00a0449.000'],
    ] as const) {
      expect(receipt.bodyText).toContain(
        `Akses Anda sudah dibayar sampai ${until}. Karena dibayar lewat QRIS, dompet digital, atau transfer bank, ` +
          `langganan tidak diperpanjang otomatis: untuk melanjutkan, bayar ${next} untuk periode berikutnya mulai 7 ` +
          'hari sebelum tanggal tersebut. Kami akan mengingatkan Anda 7 hari dan 1 hari sebelumnya.',
      );
      expect(receipt.bodyText).not.toContain('diperpanjang otomatis sebesar');
    }
  });

  it('reminds nobody who cancelled', async () => {
    const { email, token, userId } = await localSubscriber('id', new Date('2032-11-01T03:00:00Z'));
    const end = new Date('2032-12-10T03:00:00Z');
    await periodEndingAt(userId, end);
    app().billing.clock.set(new Date(end.getTime() - 10 * DAY));
    const cancelled = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/cancel',
      headers: { authorization: token },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await run(new Date(end.getTime() - 7 * DAY + MINUTE), userId)).toMatchObject({ reminded: 0 });
    expect(await run(new Date(end.getTime() - DAY + MINUTE), userId)).toMatchObject({ reminded: 0 });
    expect(await payReminders(email)).toEqual([]);
  });

  it('still tells a card subscriber that the subscription renews by itself, and sends no reminder to pay', async () => {
    const start = new Date('2033-01-05T09:00:00Z');
    app().billing.clock.set(start);
    const { email } = await signUpSubscriber(app(), { locale: 'id' });
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    expect(await run(new Date(start.getTime() + HOUR), user!.id)).toMatchObject({ reminded: 1 });
    const [reminder] = await renewalReminders(email);
    expect(reminder!.subject).toBe('Langganan Kabari Anda diperpanjang pada 6 Januari 2033');
    const [receipt] = await app()
      .db.select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.recipient, email), like(outboxMessages.idempotencyKey, 'receipt:%')));
    expect(receipt!.bodyText).toContain('Setelah itu langganan diperpanjang otomatis sebesar Rp\u00a0449.000');
    expect(await payReminders(email)).toEqual([]);
  });
});
