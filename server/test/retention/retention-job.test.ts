import { sql } from 'drizzle-orm';
import {
  dailySendCounts,
  geocodeCache,
  linkTombstones,
  outboxMessages,
  positions,
  requestEvents,
} from '../../src/db/schema';
import { sendDay } from '../../src/requests/daily-send-counts';
import { pruneExpiredData } from '../../src/retention/retention-job';
import { describeEachDatabase } from '../support/databases';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

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
    const message = (key: string, state: string, at: Date) => ({
      idempotencyKey: `retention-test:${key}`,
      channel: 'email',
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
      source: 'gps',
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

    expect(await pruneExpiredData(db, 30)).toEqual({
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
    expect(await pruneExpiredData(db, 30)).toEqual({
      ran: true,
      positions: 0,
      requestEvents: 0,
      geocodeCache: 0,
      linkTombstones: 0,
      outboxMessages: 0,
      dailySendCounts: 0,
    });
  });

  it('is configured by RETENTION_DAYS, 30 by default', () => {
    expect(testApp.config.retentionDays).toBe(30);
  });
});
