import { sql } from 'drizzle-orm';
import {
  authThrottles,
  contactMessages,
  sessions,
  verificationCodes,
  visitorReports,
} from '../../src/db/schema/accounts';
import { payments, refundRequests, registrations, webhookEvents } from '../../src/db/schema/billing';
import {
  abuseReports,
  dailySendCounts,
  geocodeCache,
  linkTombstones,
  positions,
  requestEvents,
  sendLimits,
} from '../../src/db/schema/location-requests';
import { outboxMessages } from '../../src/db/schema/outbox';
import { sendDay } from '../../src/requests/daily-send-counts';
import { pruneExpiredData } from '../../src/retention/retention-job';
import { describeEachDatabase } from '../support/databases';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

const DAY = 24 * 60 * 60 * 1000;

describeEachDatabase('the retention job', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('deletes positions, live events, geocoding answers and delivered messages older than RETENTION_DAYS, and keeps newer ones', async () => {
    const { db } = testApp.app;
    const userId = await insertRequester(db);
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const message = (key: string, state: 'queued' | 'sent' | 'failed', at: Date) => ({
      idempotencyKey: `retention-test:${key}`,
      channel: 'email' as const,
      recipient: `${key}@kabari.test`,
      subject: 'Your code',
      bodyText: 'Your Kabari code is 123456',
      state,
      createdAt: at,
      sentAt: state === 'sent' ? at : null,
    });
    const stored = await db
      .insert(outboxMessages)
      .values([
        message('old-sent', 'sent', daysAgo(31)),
        message('old-failed', 'failed', daysAgo(45)),
        message('new-sent', 'sent', daysAgo(2)),
        message('old-queued', 'queued', daysAgo(31)),
        message('old-request-message', 'sent', daysAgo(31)),
      ])
      .returning({ id: outboxMessages.id, key: outboxMessages.idempotencyKey });
    const requestMessageId = stored.find((row) => row.key.endsWith('old-request-message'))!.id;
    const request = await insertRequest(db, userId, { messageId: requestMessageId });
    const position = (createdAt: Date) => ({
      requestId: request.id,
      source: 'gps' as const,
      latitude: -6.2,
      longitude: 106.8,
      recordedAt: createdAt,
      createdAt,
    });
    await db.insert(positions).values([position(daysAgo(31)), position(daysAgo(29))]);
    await db.insert(requestEvents).values([
      { userId, requestId: request.id, type: 'request', payload: {}, createdAt: daysAgo(40) },
      { userId, requestId: request.id, type: 'request', payload: {}, createdAt: daysAgo(1) },
    ]);

    await db.insert(geocodeCache).values([
      { key: 'nominatim:old', place: { name: 'Jalan Lama 1', countryCode: 'ID' }, createdAt: daysAgo(31) },
      { key: 'nominatim:new', place: { name: 'Jalan Baru 2', countryCode: 'ID' }, createdAt: daysAgo(2) },
    ]);
    await db.insert(linkTombstones).values([
      { tokenHash: 'old-token-hash', requesterId: userId, channel: 'sms', deletedAt: daysAgo(400) },
      { tokenHash: 'new-token-hash', requesterId: userId, channel: 'sms', deletedAt: daysAgo(40) },
    ]);

    // A day's send counts are read only that day (and the next): older days go, whatever RETENTION_DAYS says.
    await db.insert(dailySendCounts).values([
      { key: `sms:account:${userId}`, day: sendDay(daysAgo(2)), count: 4 },
      { key: 'sms:all', day: sendDay(daysAgo(2)), count: 9 },
      { key: 'sms:all', day: sendDay(daysAgo(1)), count: 7 },
      { key: 'sms:all', day: sendDay(), count: 3 },
    ]);

    expect(await pruneExpiredData(db, 30)).toMatchObject({
      ran: true,
      positions: 1,
      requestEvents: 1,
      geocodeCache: 1,
      linkTombstones: 1,
      outboxMessages: 2,
      dailySendCounts: 2,
    });
    expect((await db.select().from(dailySendCounts)).map((row) => row.day).sort()).toEqual([
      sendDay(daysAgo(1)),
      sendDay(),
    ]);
    // Kept: the newer message, the one still waiting to go out, and the message a request's history refers to.
    expect(
      (await db.select({ key: outboxMessages.idempotencyKey }).from(outboxMessages))
        .map((row) => row.key.replace('retention-test:', ''))
        .filter((key) => !key.includes(':'))
        .sort(),
    ).toEqual(['new-sent', 'old-queued', 'old-request-message']);
    expect((await db.select().from(geocodeCache)).map((row) => row.key)).toEqual(['nominatim:new']);
    expect((await db.select().from(linkTombstones)).map((row) => row.tokenHash)).toEqual(['new-token-hash']);
    expect(await db.$count(positions, sql`${positions.requestId} = ${request.id}`)).toBe(1);
    expect(await db.$count(requestEvents, sql`${requestEvents.requestId} = ${request.id}`)).toBe(1);
    // Nothing left to do the second time.
    expect(await pruneExpiredData(db, 30)).toMatchObject({
      ran: true,
      positions: 0,
      requestEvents: 0,
      geocodeCache: 0,
      linkTombstones: 0,
      outboxMessages: 0,
      dailySendCounts: 0,
    });
  });

  it('deletes every other kind of personal data once its stated period is over, and keeps what is newer', async () => {
    const { db } = testApp.app;
    const userId = await insertRequester(db);
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000);
    const daysAgo = (days: number) => hoursAgo(days * 24);
    const report = (visitorId: string, createdAt: Date) => ({
      visitorId,
      userAgent: 'Mozilla/5.0 (retention test)',
      deviceType: 'mobile' as const,
      pageUrl: 'https://kabari.example/',
      visitTime: createdAt,
      createdAt,
    });
    // The case: a 400-day-old report survived the job.
    await db
      .insert(visitorReports)
      .values([report('old', daysAgo(400)), report('month', daysAgo(31)), report('new', daysAgo(29))]);
    await db.insert(authThrottles).values([
      { key: 'retention-test:spent', count: 3, windowStartedAt: hoursAgo(25) },
      { key: 'retention-test:running', count: 3, windowStartedAt: hoursAgo(2) },
    ]);
    await db.insert(sendLimits).values([
      { key: 'retention-test:spent', lastSentAt: hoursAgo(25) },
      { key: 'retention-test:running', lastSentAt: hoursAgo(2) },
    ]);
    const code = (email: string, expiresAt: Date) => ({
      email,
      purpose: 'reset_password' as const,
      codeHash: email,
      expiresAt,
    });
    await db
      .insert(verificationCodes)
      .values([code('expired@kabari.test', hoursAgo(1)), code('valid@kabari.test', new Date(Date.now() + 600_000))]);
    const signUp = (email: string, updatedAt: Date) => ({
      email,
      displayName: 'Sign Up',
      locale: 'en' as const,
      provider: 'sandbox' as const,
      state: 'sign_failed' as const,
      createdAt: updatedAt,
      updatedAt,
    });
    const [, , owedSignUp] = await db
      .insert(registrations)
      .values([
        signUp('old-sign-up@kabari.test', daysAgo(31)),
        signUp('new-sign-up@kabari.test', daysAgo(2)),
        // Paid another amount than asked a month ago, and not yet given back: its email is whom the operator pays.
        signUp('owed-sign-up@kabari.test', daysAgo(31)),
      ])
      .returning({ id: registrations.id });
    await db.insert(webhookEvents).values([
      { provider: 'stripe', eventId: 'evt_old', type: 'payment_intent.succeeded', receivedAt: daysAgo(91) },
      { provider: 'stripe', eventId: 'evt_new', type: 'payment_intent.succeeded', receivedAt: daysAgo(89) },
    ]);
    const contact = (email: string, createdAt: Date) => ({
      name: 'Visitor',
      email,
      topic: 'question' as const,
      message: 'A question for the retention test',
      locale: 'en' as const,
      createdAt,
    });
    await db
      .insert(contactMessages)
      .values([contact('old-contact@kabari.test', daysAgo(366)), contact('new-contact@kabari.test', daysAgo(364))]);
    await db.insert(abuseReports).values([
      { requesterId: userId, reason: 'spam', details: 'old report', createdAt: daysAgo(366) },
      { requesterId: userId, reason: 'spam', details: 'new report', createdAt: daysAgo(364) },
    ]);
    await db.insert(refundRequests).values([
      { email: 'old-refund@kabari.test', reason: 'old', locale: 'en', createdAt: daysAgo(366) },
      { email: 'new-refund@kabari.test', reason: 'new', locale: 'en', createdAt: daysAgo(364) },
    ]);
    const session = (userAgent: string, values: { expiresAt: Date; revokedAt?: Date }) => ({
      userId,
      tokenHash: `retention-test:${userAgent}`,
      userAgent,
      ...values,
    });
    await db
      .insert(sessions)
      .values([
        session('expired long ago', { expiresAt: daysAgo(31) }),
        session('signed out long ago', { expiresAt: new Date(Date.now() + DAY), revokedAt: daysAgo(31) }),
        session('signed out lately', { expiresAt: new Date(Date.now() + DAY), revokedAt: daysAgo(2) }),
        session('in use', { expiresAt: new Date(Date.now() + DAY) }),
      ]);
    const payment = (key: string, createdAt: Date) => ({
      kind: 'renewal' as const,
      periodIndex: 1,
      idempotencyKey: `retention-test:${key}`,
      provider: 'sandbox' as const,
      currency: 'USD',
      amount: 2999,
      state: 'succeeded' as const,
      createdAt,
    });
    await db.insert(payments).values([
      payment('eleven-years', daysAgo(11 * 366)),
      payment('nine-years', daysAgo(9 * 365)),
      {
        ...payment('owed', daysAgo(31)),
        registrationId: owedSignUp!.id,
        refundReason: 'amount_mismatch' as const,
        refundOwedAt: daysAgo(31),
      },
    ]);

    expect(await pruneExpiredData(db, 30)).toMatchObject({
      ran: true,
      visitorReports: 2,
      authThrottles: 1,
      sendLimits: 1,
      verificationCodes: 1,
      registrations: 1,
      webhookEvents: 1,
      contactMessages: 1,
      abuseReports: 1,
      refundRequests: 1,
      sessions: 2,
      payments: 1,
    });
    expect((await db.select().from(visitorReports)).map((row) => row.visitorId)).toEqual(['new']);
    const keys = async (table: typeof authThrottles | typeof sendLimits) =>
      (await db.select({ key: table.key }).from(table))
        .map((row) => row.key)
        .filter((key) => key.startsWith('retention-test:'));
    expect(await keys(authThrottles)).toEqual(['retention-test:running']);
    expect(await keys(sendLimits)).toEqual(['retention-test:running']);
    expect((await db.select().from(verificationCodes)).map((row) => row.email)).toEqual(['valid@kabari.test']);
    expect((await db.select().from(registrations)).map((row) => row.email).sort()).toEqual([
      'new-sign-up@kabari.test',
      'owed-sign-up@kabari.test',
    ]);
    expect((await db.select().from(webhookEvents)).map((row) => row.eventId)).toEqual(['evt_new']);
    expect((await db.select().from(contactMessages)).map((row) => row.email)).toEqual(['new-contact@kabari.test']);
    expect((await db.select().from(abuseReports)).map((row) => row.details)).toEqual(['new report']);
    expect((await db.select().from(refundRequests)).map((row) => row.email)).toEqual(['new-refund@kabari.test']);
    expect((await db.select().from(sessions)).map((row) => row.userAgent).sort()).toEqual([
      'in use',
      'signed out lately',
    ]);
    expect(
      (await db.select().from(payments))
        .map((row) => row.idempotencyKey)
        .filter((key) => key.startsWith('retention-test:'))
        .sort(),
    ).toEqual(['retention-test:nine-years', 'retention-test:owed']);

    const again = await pruneExpiredData(db, 30);
    expect(Object.entries(again).filter(([key, count]) => key !== 'ran' && count !== 0)).toEqual([]);
  });

  it('is configured by RETENTION_DAYS, 30 by default', () => {
    expect(testApp.config.retentionDays).toBe(30);
  });
});
