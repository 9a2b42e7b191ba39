import { eq, inArray, sql } from 'drizzle-orm';
import { pushSubscriptions, users } from '../../src/db/schema/accounts';
import { subscriptions } from '../../src/db/schema/billing';
import type { ConsentState, SubscriptionStatus } from '../../src/db/column-values';
import {
  linkTombstones,
  locationRequests,
  mapViews,
  positions,
  requestEvents,
} from '../../src/db/schema/location-requests';
import { outboxMessages } from '../../src/db/schema/outbox';
import { voiceNoteAudio, voiceNotes } from '../../src/db/schema/voice-notes';
import { pruneExpiredData } from '../../src/retention/retention-job';
import { describeEachDatabase } from '../support/databases';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

describeEachDatabase('the retention job, for accounts whose subscription ended long ago', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;

  /** An account made `createdDaysAgo` days ago, with a subscription in `status` valid until `validUntil`, if any. */
  async function account(
    name: string,
    createdDaysAgo: number,
    subscription?: { status: SubscriptionStatus; validUntil: Date },
  ): Promise<string> {
    const userId = await insertRequester(db(), name);
    await db()
      .update(users)
      .set({ createdAt: daysAgo(createdDaysAgo) })
      .where(eq(users.id, userId));
    if (subscription) {
      await db()
        .insert(subscriptions)
        .values({
          userId,
          status: subscription.status,
          provider: 'sandbox',
          currency: 'USD',
          firstDayAmount: 99,
          amount: 2999,
          periodDays: 30,
          currentPeriodStart: new Date(subscription.validUntil.getTime() - 30 * DAY),
          validUntil: subscription.validUntil,
        });
    }
    await db()
      .insert(pushSubscriptions)
      .values({ userId, endpoint: `https://push.example/${userId}`, p256dh: 'p256dh-key', auth: 'auth-secret' });
    return userId;
  }

  /** A request in `consent` with everything it can hold: its message, a position, a map view, an event, a note. */
  async function requestOf(userId: string, consent: ConsentState, expired = true) {
    const [message] = await db()
      .insert(outboxMessages)
      .values({
        idempotencyKey: `lapsed-test:${userId}:${consent}:${expired}`,
        channel: 'sms',
        recipient: '+628123456789',
        bodyText: 'Budi asks where you are: https://kabari.example/enter-link',
        state: 'sent',
        sentAt: daysAgo(400),
        createdAt: daysAgo(400),
      })
      .returning({ id: outboxMessages.id });
    const request = await insertRequest(db(), userId, {
      consent,
      note: 'Where are you, Mum?',
      messageId: message!.id,
      expiresAt: expired ? daysAgo(393) : new Date(Date.now() + DAY),
      createdAt: daysAgo(400),
    });
    await db().insert(positions).values({
      requestId: request.id,
      source: 'ip',
      latitude: -6.2,
      longitude: 106.8,
      recordedAt: new Date(),
    });
    await db().insert(mapViews).values({ requestId: request.id });
    await db().insert(requestEvents).values({ userId, requestId: request.id, type: 'request', payload: {} });
    const [note] = await db()
      .insert(voiceNotes)
      .values({ userId, requestId: request.id, kind: 'request', mediaType: 'audio/webm', durationMs: 900, byteSize: 4 })
      .returning();
    await db()
      .insert(voiceNoteAudio)
      .values({ voiceNoteId: note!.id, bytes: Buffer.from('note') });
    return { ...request, messageId: message!.id, noteId: note!.id };
  }

  it('deletes the ended requests (with what they held) and push subscriptions of accounts without a subscription for a year', async () => {
    // Ended 400 days ago; never had one, made 400 days ago; ended 300 days ago; active; on trial long past its date.
    const lapsed = await account('Lapsed', 800, { status: 'expired', validUntil: daysAgo(400) });
    const never = await account('Never Subscribed', 400);
    const recent = await account('Lately Lapsed', 800, { status: 'cancelled', validUntil: daysAgo(300) });
    const active = await account('Active', 800, { status: 'active', validUntil: new Date(Date.now() + 10 * DAY) });
    const trial = await account('Trial', 800, { status: 'trial', validUntil: daysAgo(400) });

    const ended = [];
    for (const consent of ['declined', 'stopped', 'withdrawn', 'cancelled', 'none'] as const) {
      ended.push(await requestOf(lapsed, consent));
    }
    ended.push(await requestOf(never, 'stopped'));
    // Kept: one the recipient still shares, one still open, and every request of the other accounts.
    const kept = [
      await requestOf(lapsed, 'sharing'),
      await requestOf(lapsed, 'none', false),
      await requestOf(recent, 'stopped'),
      await requestOf(active, 'withdrawn'),
      await requestOf(trial, 'declined'),
    ];
    const endedIds = ended.map((request) => request.id);
    const keptIds = kept.map((request) => request.id);

    const result = await pruneExpiredData(db(), 30);
    expect(result).toMatchObject({ locationRequests: 6, requestMessages: 6, pushSubscriptions: 2 });

    const left = (await db().select({ id: locationRequests.id }).from(locationRequests)).map((row) => row.id);
    expect(left).toEqual(expect.arrayContaining(keptIds));
    expect(left.filter((id) => endedIds.includes(id))).toEqual([]);
    // What they held went with them: the stranger's number and the note, the message, positions, views, notes.
    expect(
      await db().$count(
        outboxMessages,
        inArray(
          outboxMessages.id,
          ended.map((r) => r.messageId),
        ),
      ),
    ).toBe(0);
    expect(
      await db().$count(
        outboxMessages,
        inArray(
          outboxMessages.id,
          kept.map((r) => r.messageId),
        ),
      ),
    ).toBe(5);
    expect(await db().$count(positions, inArray(positions.requestId, endedIds))).toBe(0);
    expect(await db().$count(mapViews, inArray(mapViews.requestId, endedIds))).toBe(0);
    expect(await db().$count(requestEvents, inArray(requestEvents.requestId, endedIds))).toBe(0);
    expect(
      await db().$count(
        voiceNotes,
        inArray(
          voiceNotes.id,
          ended.map((r) => r.noteId),
        ),
      ),
    ).toBe(0);
    expect(
      await db().$count(
        voiceNoteAudio,
        inArray(
          voiceNoteAudio.voiceNoteId,
          ended.map((r) => r.noteId),
        ),
      ),
    ).toBe(0);
    expect(await db().$count(positions, inArray(positions.requestId, keptIds))).toBe(5);
    // The message's opt-out and report links keep working through the tombstone.
    expect(
      await db().$count(
        linkTombstones,
        inArray(
          linkTombstones.tokenHash,
          ended.map((r) => r.tokenHash),
        ),
      ),
    ).toBe(6);

    const pushLeft = (await db().select({ userId: pushSubscriptions.userId }).from(pushSubscriptions)).map(
      (row) => row.userId,
    );
    expect(pushLeft).toEqual(expect.arrayContaining([recent, active, trial]));
    expect(pushLeft).not.toContain(lapsed);
    expect(pushLeft).not.toContain(never);

    // The accounts themselves stay (deleting one is its owner's choice).
    expect(await db().$count(users, inArray(users.id, [lapsed, never]))).toBe(2);
    const again = await pruneExpiredData(db(), 30);
    expect(again).toMatchObject({ locationRequests: 0, requestMessages: 0, pushSubscriptions: 0 });
    expect(await db().$count(locationRequests, sql`${locationRequests.userId} = ${lapsed}`)).toBe(2);
  });
});
