import { eq } from 'drizzle-orm';
import { contactMessages, users } from '../../src/db/schema/accounts';
import { payments, refundRequests } from '../../src/db/schema/billing';
import { dailySendCounts } from '../../src/db/schema/location-requests';
import { operatorAuditLog, operators } from '../../src/db/schema/operators';
import { outboxMessages } from '../../src/db/schema/outbox';
import { StripeProcessor } from '../../src/payments/stripe';
import { processorsOf } from '../../src/payments/processors';
import { sendDay } from '../../src/requests/daily-send-counts';
import {
  contactMessages as contactQueue,
  failedMessages,
  markContactMessage,
  retryFailedMessage,
} from '../../src/safety-desk/desk-queues';
import { markRefunded, refundsOwed, refundThroughProcessor } from '../../src/safety-desk/refund-queue';
import { smsSpendToday } from '../../src/safety-desk/sms-spend';
import { describeEachDatabase } from '../support/databases';
import { FAKE_PROVIDERS_ENV } from '../support/fake-providers';
import {
  fakeStripeApi,
  stripeRefundsMade,
  type RecordedStripeCall,
  type StripeRefundAnswer,
} from '../support/fake-stripe';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

describeEachDatabase('the safety desk’s queues', (driver) => {
  let testApp: TestApp;
  let operator: { id: string; email: string };
  const stripeCalls: RecordedStripeCall[] = [];
  let refundAnswer: StripeRefundAnswer = 'refunded';

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { ...FAKE_PROVIDERS_ENV, SANDBOX_PAYMENTS: 'true' });
    const [row] = await testApp.app.db
      .insert(operators)
      .values({ email: 'queues@kabari.localhost' })
      .returning({ id: operators.id, email: operators.email });
    operator = row!;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;
  const processors = () =>
    processorsOf({
      sandbox: true,
      stripe: new StripeProcessor(
        testApp.config.billing.stripe!,
        fakeStripeApi(stripeCalls, () => 'succeeded', { refund: () => refundAnswer }),
      ),
      paypal: undefined,
    });
  const deps = () => ({ db: db(), processors: processors() });
  const auditOf = async (objectId: string) =>
    (await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.objectId, objectId))).map(
      (row) => row.action,
    );

  async function payment(userId: string | null, values: Partial<typeof payments.$inferInsert>) {
    const [row] = await db()
      .insert(payments)
      .values({
        userId,
        kind: 'first_day',
        periodIndex: 0,
        idempotencyKey: `desk-test:${Math.random()}`,
        provider: 'stripe',
        providerRef: `pi_${Math.random().toString(36).slice(2)}`,
        currency: 'USD',
        amount: 299,
        state: 'succeeded',
        ...values,
      })
      .returning();
    return row!;
  }

  it('lists what is owed, refunds it once through the processor, and records a refund made by hand', async () => {
    const userId = await insertRequester(db(), 'Dewi');
    const [user] = await db().select().from(users).where(eq(users.id, userId));
    const owed = await payment(userId, { refundReason: 'suspension', refundOwedAt: new Date() });
    const disputed = await payment(userId, { state: 'disputed', disputedAt: new Date() });
    const sandboxPaid = await insertRequester(db(), 'Eko');
    await payment(sandboxPaid, { provider: 'sandbox' });
    const [request] = await db()
      .insert(refundRequests)
      .values({ userId: sandboxPaid, email: 'eko@example.com', reason: 'Not needed', locale: 'en' })
      .returning();

    const queue = await refundsOwed(deps());
    const entry = (id: string) => queue.find((item) => item.id === id);
    expect(entry(owed.id)).toMatchObject({ source: 'suspension', state: 'owed', canRefund: true, email: user!.email });
    expect(entry(disputed.id)).toMatchObject({ source: 'dispute', state: 'disputed', canRefund: false });
    expect(entry(request!.id)).toMatchObject({
      source: 'refund_form',
      provider: 'sandbox',
      amountMinor: 299,
      canRefund: true,
    });

    // Two clicks at once: one refund at Stripe (one idempotency key), recorded once.
    const results = await Promise.allSettled([
      refundThroughProcessor(deps(), operator, owed.id, 'Suspended'),
      refundThroughProcessor(deps(), operator, owed.id, 'Suspended'),
    ]);
    expect(results.some((result) => result.status === 'fulfilled')).toBe(true);
    expect(stripeRefundsMade(stripeCalls)).toEqual([`refund:${owed.idempotencyKey}`]);
    const [refunded] = await db().select().from(payments).where(eq(payments.id, owed.id));
    expect(refunded).toMatchObject({ state: 'refunded', refundedAmount: 299, refundOwedAt: null });
    expect(await auditOf(owed.id)).toContain('refund.refund');
    await expect(refundThroughProcessor(deps(), operator, owed.id, null)).rejects.toMatchObject({ statusCode: 404 });

    // A dispute is not refunded beside it; it can be marked with a reference.
    await expect(refundThroughProcessor(deps(), operator, disputed.id, null)).rejects.toMatchObject({
      statusCode: 409,
    });
    await markRefunded(db(), operator, disputed.id, 'dp_accepted_1', 'Dispute accepted');
    expect((await refundsOwed(deps())).some((item) => item.id === disputed.id)).toBe(false);

    // The refund form's request, through the sandbox: the request is answered.
    await refundThroughProcessor(deps(), operator, request!.id, null);
    const [answered] = await db().select().from(refundRequests).where(eq(refundRequests.id, request!.id));
    expect(answered).toMatchObject({ state: 'refunded' });
    expect(answered!.refundedAt).not.toBeNull();
  });

  it('records a refund the processor refuses, for a refund by hand', async () => {
    const userId = await insertRequester(db(), 'Fajar');
    const owed = await payment(userId, { refundReason: 'suspension', refundOwedAt: new Date() });
    refundAnswer = 'expired';
    try {
      await expect(refundThroughProcessor(deps(), operator, owed.id, null)).rejects.toMatchObject({ statusCode: 409 });
    } finally {
      refundAnswer = 'refunded';
    }
    const listed = (await refundsOwed(deps())).find((item) => item.id === owed.id);
    expect(listed).toMatchObject({ state: 'refused', canRefund: false });
    await markRefunded(db(), operator, owed.id, 'BANK-123', null);
    const [row] = await db().select().from(payments).where(eq(payments.id, owed.id));
    expect(row).toMatchObject({ state: 'refunded', refundReference: 'BANK-123' });
    await expect(markRefunded(db(), operator, owed.id, 'BANK-123', null)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('marks contact messages read, then answered with a note', async () => {
    const [message] = await db()
      .insert(contactMessages)
      .values({
        name: 'Sinta',
        email: 'sinta@example.com',
        topic: 'misuse',
        message: 'Someone keeps asking',
        locale: 'id',
      })
      .returning();
    expect((await contactQueue(db(), 'open')).messages.map((row) => row.id)).toContain(message!.id);
    const read = await markContactMessage(db(), operator, message!.id, { answered: false });
    expect(read.message.readAt).not.toBeNull();
    const answered = await markContactMessage(db(), operator, message!.id, {
      answered: true,
      note: 'Replied by email',
    });
    expect(answered.message).toMatchObject({ answerNote: 'Replied by email', readAt: read.message.readAt });
    expect((await contactQueue(db(), 'answered')).messages.map((row) => row.id)).toContain(message!.id);
    expect((await contactQueue(db(), 'open')).messages.map((row) => row.id)).not.toContain(message!.id);
    expect(await auditOf(message!.id)).toEqual(['contact_message.read', 'contact_message.answered']);
    await expect(
      markContactMessage(db(), operator, '00000000-0000-4000-8000-000000000000', { answered: false }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });

  it('shows failed messages masked, and retries one once; never one that carried a consent link', async () => {
    const [failed] = await db()
      .insert(outboxMessages)
      .values({
        idempotencyKey: `desk-failed:${Math.random()}`,
        channel: 'email',
        recipient: 'budi.santoso@example.com',
        subject: 'Your receipt',
        bodyText: 'Receipt',
        state: 'failed',
        attempts: 8,
        lastError: 'mailbox unavailable',
      })
      .returning();
    const userId = await insertRequester(db(), 'Gita');
    const [linkMessage] = await db()
      .insert(outboxMessages)
      .values({
        idempotencyKey: `desk-failed:${Math.random()}`,
        channel: 'sms',
        recipient: '+628123456789',
        bodyText: 'Gita asks where you are: [token]',
        state: 'failed',
        attempts: 8,
      })
      .returning();
    await insertRequest(db(), userId, { messageId: linkMessage!.id });

    const { messages } = await failedMessages(db());
    expect(messages.find((row) => row.id === failed!.id)).toMatchObject({
      recipient: 'b•••@example.com',
      retryable: true,
    });
    expect(messages.find((row) => row.id === linkMessage!.id)).toMatchObject({
      recipient: '+62•••89',
      retryable: false,
    });
    expect(JSON.stringify(messages)).not.toContain('budi.santoso');
    expect(JSON.stringify(messages)).not.toContain('8123456789');

    const outbox = { kick: jest.fn() };
    expect(await retryFailedMessage(db(), outbox, operator, failed!.id)).toEqual({ id: failed!.id, state: 'queued' });
    expect(await retryFailedMessage(db(), outbox, operator, failed!.id)).toEqual({ id: failed!.id, state: 'queued' });
    const [row] = await db().select().from(outboxMessages).where(eq(outboxMessages.id, failed!.id));
    expect(row).toMatchObject({ state: 'queued', attempts: 0 });
    expect(await auditOf(failed!.id)).toEqual(['failed_message.retry']);
    await expect(retryFailedMessage(db(), outbox, operator, linkMessage!.id)).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it("adds up today's SMS and WhatsApp messages per country and per account against the caps, each at its price", async () => {
    const userId = await insertRequester(db(), 'Hadi');
    const day = sendDay();
    await db()
      .insert(dailySendCounts)
      .values([
        { key: `sms:account:${userId}`, day, count: 3 },
        { key: 'sms:all', day, count: 5 },
      ])
      .onConflictDoNothing();
    await insertRequest(db(), userId, { target: '+628123450001' });
    await insertRequest(db(), userId, { target: '+60123456789' });
    // By WhatsApp: counted in the same caps, priced at its own price.
    await insertRequest(db(), userId, { target: '+628123450002', sentByWhatsapp: true });
    const limits = testApp.config.requests.sendLimits;
    const prices = { sms: { minor: 5, currency: 'USD' }, whatsapp: { minor: 2, currency: 'USD' } };
    const spend = await smsSpendToday(db(), limits, prices);
    expect(spend.caps).toEqual({
      dailyBudget: limits.smsDailyBudget,
      perAccountPerDay: limits.smsPerAccountPerDay,
      countries: limits.smsCountries,
    });
    expect(spend.perAccount).toEqual(
      expect.arrayContaining([
        {
          userId,
          displayName: 'Hadi',
          count: 3,
          whatsappCount: 1,
          spentMinor: 2 * 5 + 1 * 2,
          cap: limits.smsPerAccountPerDay,
        },
      ]),
    );
    expect(spend.perCountry.find((row) => row.country === 'MY')).toMatchObject({ allowed: false, whatsappCount: 0 });
    const indonesia = spend.perCountry.find((row) => row.country === 'ID')!;
    expect(indonesia.count).toBeGreaterThanOrEqual(2);
    expect(indonesia.whatsappCount).toBeGreaterThanOrEqual(1);
    expect(spend.total.count).toBeGreaterThanOrEqual(5);
    expect(spend.whatsapp.count).toBeGreaterThanOrEqual(1);
    expect(spend.whatsapp.spentMinor).toBe(spend.whatsapp.count * 2);
    expect(spend.sms).toEqual({ count: spend.total.count - spend.whatsapp.count, spentMinor: spend.sms.count * 5 });
    expect(spend.total.spentMinor).toBe(spend.sms.spentMinor! + spend.whatsapp.spentMinor!);

    // Without a WhatsApp price, what includes WhatsApp messages has no cost, rather than an SMS's.
    const smsPriceOnly = await smsSpendToday(db(), limits, { sms: prices.sms, whatsapp: undefined });
    expect(smsPriceOnly.perAccount.find((row) => row.userId === userId)!.spentMinor).toBeNull();
    expect(smsPriceOnly.whatsapp.spentMinor).toBeNull();
    expect(smsPriceOnly.sms.spentMinor).toBe(smsPriceOnly.sms.count * 5);
    expect(smsPriceOnly.currency).toBe('USD');
    const unpriced = await smsSpendToday(db(), limits, { sms: undefined, whatsapp: undefined });
    expect([unpriced.total.spentMinor, unpriced.currency]).toEqual([null, null]);
  });
});
