import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { revokeSession } from '../../src/auth/sessions';
import { LiveEventHub, DEFAULT_LIVE_EVENT_OPTIONS } from '../../src/live/live-event-hub';
import { publishRequestEvent } from '../../src/live/request-events';
import { describeEachDatabase } from '../support/databases';
import { linkRequest, signedInRequester } from '../support/live-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

/** Just enough of a ServerResponse for the hub: what it writes is kept as text. */
class RecordingResponse extends EventEmitter {
  text = '';
  destroyed = false;
  writableEnded = false;
  writableLength = 0;
  write(chunk: Buffer) {
    this.text += chunk.toString();
    return true;
  }
  end() {
    this.writableEnded = true;
  }
}

/** Polls a condition the hub fulfils asynchronously (a database read), for at most five seconds. */
async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold within 5 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const idsOf = (text: string, type: string) =>
  [...text.matchAll(new RegExp(`^id: (\\d+)\\nevent: ${type}$`, 'gm'))].map((match) => Number(match[1]));

describeEachDatabase('the live event hub', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('catching up after a lost connection reads the recent past again, but sends nothing twice', async () => {
    const { db } = testApp.app;
    const hub = new LiveEventHub(db, { error: jest.fn() }, { ...DEFAULT_LIVE_EVENT_OPTIONS, heartbeatMs: 60_000 });
    try {
      const alice = await signedInRequester(db, 'hub@example.com');
      const requestId = await linkRequest(db, alice.userId);
      const response = new RecordingResponse();
      await hub.watch(alice.userId, alice.sessionId, response as unknown as ServerResponse, undefined);
      const publish = () =>
        db.transaction((tx) =>
          publishRequestEvent(tx, { userId: alice.userId, requestId, type: 'withdrawn', payload: { requestId } }),
        );
      const announced = await publish();
      hub.notify(String(announced));
      // Committed while the hub heard nothing, with an id below one the hub has seen (another user's, whose
      // transaction took its id later but committed first).
      const unannounced = await publish();
      hub.notify(String(unannounced + 1000));
      await hub.catchUp();
      await hub.catchUp();
      expect(idsOf(response.text, 'withdrawn')).toEqual([announced, unannounced]);
    } finally {
      hub.close();
    }
  });

  it('a notification that arrives after the replay already sent its event is not sent again', async () => {
    const { db } = testApp.app;
    const hub = new LiveEventHub(db, { error: jest.fn() }, { ...DEFAULT_LIVE_EVENT_OPTIONS, heartbeatMs: 60_000 });
    try {
      const alice = await signedInRequester(db, 'hub-late@example.com');
      const requestId = await linkRequest(db, alice.userId);
      const publish = () =>
        db.transaction((tx) =>
          publishRequestEvent(tx, { userId: alice.userId, requestId, type: 'withdrawn', payload: { requestId } }),
        );
      const seen = await publish();
      const missed = await publish();
      // The browser reconnects after `seen`: the replay sends `missed` before its notification reaches this
      // instance (a busy database delivers notifications late), and nobody else watched this user meanwhile.
      const response = new RecordingResponse();
      await hub.watch(alice.userId, alice.sessionId, response as unknown as ServerResponse, seen);
      hub.notify(String(missed));
      const live = await publish();
      hub.notify(String(live));
      await waitUntil(() => idsOf(response.text, 'withdrawn').includes(live));
      expect(idsOf(response.text, 'withdrawn')).toEqual([missed, live]);
    } finally {
      hub.close();
    }
  });

  it("a live share's position carried whole by its notification goes out as carried, after the events heard before it", async () => {
    const { db } = testApp.app;
    const log = { error: jest.fn() };
    const hub = new LiveEventHub(db, log, { ...DEFAULT_LIVE_EVENT_OPTIONS, heartbeatMs: 60_000 });
    try {
      const alice = await signedInRequester(db, 'hub-carried@example.com');
      const requestId = await linkRequest(db, alice.userId);
      const response = new RecordingResponse();
      await hub.watch(alice.userId, alice.sessionId, response as unknown as ServerResponse, undefined);
      const withdrawn = await db.transaction((tx) =>
        publishRequestEvent(tx, { userId: alice.userId, requestId, type: 'withdrawn', payload: { requestId } }),
      );
      // Heard after the stored event, which the hub still has to read: it waits its turn. No row has this id, so
      // what is sent can only be what the notification carried.
      const carriedId = withdrawn + 1000;
      const payload = `{"requestId": "${requestId}", "position": {"id": 7}}`;
      const carry = (values: Record<string, unknown>) =>
        JSON.stringify({ id: carriedId, userId: alice.userId, requestId, type: 'position', payload, ...values });
      hub.notify(String(withdrawn));
      hub.notify(carry({}));
      // Not for a stream here, not a position, or not whole: nothing is sent, and nothing breaks.
      hub.notify(carry({ id: carriedId + 1, userId: '00000000-0000-4000-8000-000000000000' }));
      hub.notify(carry({ id: carriedId + 2, type: 'withdrawn' }));
      hub.notify(carry({ id: carriedId + 3, payload: undefined }));
      hub.notify('{"id": ');
      await waitUntil(() => idsOf(response.text, 'position').length > 0);
      expect(response.text.indexOf('event: withdrawn')).toBeLessThan(response.text.indexOf('event: position'));
      expect(response.text).toContain(`id: ${carriedId}\nevent: position\ndata: ${payload}\n\n`);
      // The queue goes on after what it dropped.
      hub.notify(carry({ id: carriedId + 10 }));
      await waitUntil(() => idsOf(response.text, 'position').length > 1);
      expect(idsOf(response.text, 'position')).toEqual([carriedId, carriedId + 10]);
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      hub.close();
    }
  });

  it('after announcements may have been missed, checks every stream and ends those whose session ended', async () => {
    const { db } = testApp.app;
    const hub = new LiveEventHub(db, { error: jest.fn() }, { ...DEFAULT_LIVE_EVENT_OPTIONS, heartbeatMs: 60_000 });
    try {
      const alice = await signedInRequester(db, 'hub-recheck-alice@example.com');
      const bob = await signedInRequester(db, 'hub-recheck-bob@example.com');
      const aliceResponse = new RecordingResponse();
      const bobResponse = new RecordingResponse();
      await hub.watch(alice.userId, alice.sessionId, aliceResponse as unknown as ServerResponse, undefined);
      await hub.watch(bob.userId, bob.sessionId, bobResponse as unknown as ServerResponse, undefined);
      await revokeSession(db, alice.sessionId);
      hub.recheckSessions(null);
      await waitUntil(() => aliceResponse.writableEnded);
      expect(bobResponse.writableEnded).toBe(false);
    } finally {
      hub.close();
    }
  });

  it('catching up pages through every unseen event, however many the stream already had in the recent past', async () => {
    const { db } = testApp.app;
    const hub = new LiveEventHub(
      db,
      { error: jest.fn() },
      { ...DEFAULT_LIVE_EVENT_OPTIONS, heartbeatMs: 60_000, catchUpPageSize: 2 },
    );
    try {
      const alice = await signedInRequester(db, 'hub-pages@example.com');
      const requestId = await linkRequest(db, alice.userId);
      const response = new RecordingResponse();
      await hub.watch(alice.userId, alice.sessionId, response as unknown as ServerResponse, undefined);
      const publish = () =>
        db.transaction((tx) =>
          publishRequestEvent(tx, { userId: alice.userId, requestId, type: 'withdrawn', payload: { requestId } }),
        );
      // Recent events the stream already had: more than a page of the overlap that catchUp reads again.
      const announced: number[] = [];
      for (let index = 0; index < 5; index += 1) {
        const id = await publish();
        hub.notify(String(id));
        announced.push(id);
      }
      // The stream has them (read after each notification) before the connection is lost.
      while (idsOf(response.text, 'withdrawn').length < announced.length) await new Promise(setImmediate);
      // Committed while the hub heard nothing: more than a page of them too.
      const unannounced: number[] = [];
      for (let index = 0; index < 5; index += 1) unannounced.push(await publish());
      await hub.catchUp();
      expect(idsOf(response.text, 'withdrawn')).toEqual([...announced, ...unannounced]);
    } finally {
      hub.close();
    }
  });
});
