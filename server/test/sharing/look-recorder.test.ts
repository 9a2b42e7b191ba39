import { eq } from 'drizzle-orm';
import { mapViews } from '../../src/db/schema/location-requests';
import { LookRecorder } from '../../src/sharing/look-recorder';
import { LOOK_EVERY_MS } from '../../src/sharing/map-views';
import { describeEachDatabase, openedTestDatabase } from '../support/databases';
import { insertRequest, insertRequester } from '../support/share-fixtures';

describeEachDatabase('the look recorder', (driver) => {
  const database = openedTestDatabase(driver);

  /** Requests whose recipients share now: only those are recorded and remembered. */
  async function sharedRequests(count: number): Promise<string[]> {
    const userId = await insertRequester(database.current.db);
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      ids.push((await insertRequest(database.current.db, userId, { consent: 'sharing', status: 'gps_tracked' })).id);
    }
    return ids;
  }

  it('forgets the looks that are due again once it holds more than it keeps, and sweeps at most once a minute', async () => {
    const [a, b, c, d, e, f, g] = await sharedRequests(7);
    const recorder = new LookRecorder(database.current.db, 2);
    const start = Date.parse('2026-12-07T10:00:00Z');
    const at = (seconds: number) => new Date(start + seconds * 1000);
    expect(LOOK_EVERY_MS).toBe(60_000);

    await recorder.record([a!, b!, c!], at(0));
    // Three kept, none due again yet: the sweep at 0 s took none.
    expect(recorder.size).toBe(3);
    await recorder.record([d!], at(30));
    expect(recorder.size).toBe(4);
    // A minute after the last sweep: a, b and c are due again and go; d stays.
    await recorder.record([e!], at(60));
    expect(recorder.size).toBe(2);
    // d is due again at 90 s, but the last sweep was 35 s ago: no sweep yet, so d stays remembered.
    await recorder.record([f!], at(95));
    expect(recorder.size).toBe(3);
    // A minute after the last sweep: d and e go.
    await recorder.record([g!], at(120));
    expect(recorder.size).toBe(2);
  });

  it('records a shared request’s look at most once a minute, and remembers no request that is not shared now', async () => {
    const [shared] = await sharedRequests(1);
    const userId = await insertRequester(database.current.db);
    const waiting = await insertRequest(database.current.db, userId, { consent: 'none' });
    const recorder = new LookRecorder(database.current.db);
    const start = Date.parse('2026-12-07T11:00:00Z');
    const lastSeen = async (requestId: string) =>
      (await database.current.db.select().from(mapViews).where(eq(mapViews.requestId, requestId))).map((view) =>
        view.lastSeenAt.getTime(),
      );

    await recorder.record([shared!, waiting.id], new Date(start));
    expect(recorder.size).toBe(1);
    expect(await lastSeen(shared!)).toEqual([start]);
    expect(await lastSeen(waiting.id)).toEqual([]);
    // Within the minute: remembered, not written again.
    await recorder.record([shared!], new Date(start + 30_000));
    expect(await lastSeen(shared!)).toEqual([start]);
    // A minute on: the same view goes on, seen now.
    await recorder.record([shared!], new Date(start + LOOK_EVERY_MS));
    expect(await lastSeen(shared!)).toEqual([start + LOOK_EVERY_MS]);
  });
});
