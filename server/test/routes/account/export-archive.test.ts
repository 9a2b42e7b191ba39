import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/open-database';
import { voiceNotes } from '../../../src/db/schema/voice-notes';
import { audioStore } from '../../../src/voice/voice-notes';
import { describeEachDatabase } from '../../support/databases';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';

// Short, so that the deadline's test is quick, yet time enough to read every note of the account several times over
// (a few tenths of a second for all of them here, on a busy machine): an export reading ahead without bound would
// have. An export that must arrive whole gets LONG_DEADLINE_MS instead.
const DEADLINE_MS = 2_000;
const LONG_DEADLINE_MS = 100_000;
// 8 MB of audio, more than the connection's buffers hold: the old export read it all for a client that read nothing.
const NOTE_BYTES = 512 * 1024;
const BIG_NOTES = 16;
// What the kernel buffers on a loopback connection (up to Linux's default 4 MB send buffer and the reader's
// receive buffer), the stream's own small buffers, and a note on its way: at most 6 MB of notes read ahead.
const READ_AHEAD_NOTES = (6 * 1024 * 1024) / NOTE_BYTES;
// A deadline and a whole export of 8 MB read from PGlite on a busy machine.
const SLOW_TEST_MS = 180_000;

interface Download {
  status: number;
  /** Reads the rest, to the end: the whole body. */
  readAll(): Promise<Buffer>;
  /**
   * Resolves when the server closes its end of the connection. Seen on the server's socket: a client that reads
   * nothing does not read the close either.
   */
  serverClosed: Promise<void>;
  /** Drops the connection (the test is done with it). */
  drop(): void;
}

describeEachDatabase('the data export, streamed to a client that may read slowly or not at all', (driver) => {
  let testApp: TestApp;
  let base: string;
  let bigAccount: TestRequester;
  // Read by the server at each export's start.
  const exportLimits = { deadlineMs: DEADLINE_MS };

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' }, { build: { exportLimits } });
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
    bigAccount = await accountWithNotes(BIG_NOTES, NOTE_BYTES);
  });

  afterEach(() => {
    jest.restoreAllMocks();
    exportLimits.deadlineMs = DEADLINE_MS;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** An account with `count` voice notes of `bytes` each. */
  async function accountWithNotes(count: number, bytes: number): Promise<TestRequester> {
    const requester = await createRequester(testApp.app, { displayName: 'Wati' });
    const audio = randomBytes(bytes);
    for (let n = 0; n < count; n += 1) {
      const [row] = await testApp.app.db
        .insert(voiceNotes)
        .values({
          userId: requester.userId,
          kind: 'request',
          mediaType: 'audio/webm',
          durationMs: 1000,
          byteSize: bytes,
        })
        .returning({ id: voiceNotes.id });
      await audioStore.save(testApp.app.db, row!.id, audio);
    }
    return requester;
  }

  /**
   * Until the account's export lease is given back. A client that drops the download closes the connection first; the
   * server gives the lease back as the stream closes, a moment later (one statement, longer on PostgreSQL).
   */
  async function leaseGivenBack(requester: TestRequester): Promise<void> {
    const key = `account-export:${requester.userId}`;
    while ((await queryRows(testApp.app.db, sql`select 1 from auth_throttles where key = ${key}`)).length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Starts the export on a connection of its own and reads nothing until told to. */
  function startExport(requester: TestRequester, locale = 'en'): Promise<Download> {
    const serverClosed = new Promise<void>((resolveClosed) => {
      testApp.app.server.once('connection', (socket: Socket) => socket.once('close', () => resolveClosed()));
    });
    return new Promise((resolve, reject) => {
      const request = http.get(
        `${base}/api/v1/personnal/account/export`,
        { agent: false, headers: { ...requester.headers, 'accept-language': locale } },
        (response) => {
          response.pause();
          resolve({
            status: response.statusCode ?? 0,
            serverClosed,
            drop: () => request.destroy(),
            readAll: async () => {
              const chunks: Buffer[] = [];
              for await (const chunk of response) chunks.push(chunk as Buffer);
              return Buffer.concat(chunks);
            },
          });
        },
      );
      request.on('error', reject);
    });
  }

  it(
    'reads only a few notes ahead of a client that reads nothing, and ends it at the deadline',
    async () => {
      const requester = bigAccount;
      const reads = jest.spyOn(audioStore, 'read');
      const started = Date.now();
      const stalled = await startExport(requester);
      expect(stalled.status).toBe(200);
      // The deadline ends it: until then the export had all the time it wanted to read ahead.
      await stalled.serverClosed;
      expect(Date.now() - started).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
      stalled.drop();
      // What the connection's buffers hold, and a note on its way: never the account's whole audio.
      expect(reads.mock.calls.length).toBeLessThanOrEqual(READ_AHEAD_NOTES);

      // The deadline gave the account's export back before it closed the connection: another may start at once (the
      // next test reads one whole).
      const again = await startExport(requester);
      expect(again.status).toBe(200);
      again.drop();
      await again.serverClosed;
      await leaseGivenBack(requester);
    },
    SLOW_TEST_MS,
  );

  it(
    'allows one export at a time per account: a second one is refused, in both languages, and the first completes',
    async () => {
      const requester = bigAccount;
      const otherAccount = await accountWithNotes(1, 1024);
      exportLimits.deadlineMs = LONG_DEADLINE_MS;
      const first = await startExport(requester);
      expect(first.status).toBe(200);
      for (const [locale, message] of [
        ['en', 'Your data is already being exported. Wait until that download has finished, then try again.'],
        ['id', 'Data Anda sedang diekspor. Tunggu sampai unduhan itu selesai, lalu coba lagi.'],
      ] as const) {
        const second = await startExport(requester, locale);
        expect(second.status).toBe(429);
        expect(JSON.parse((await second.readAll()).toString('utf8')).message).toBe(message);
      }
      // Another account is not held up.
      const other = await startExport(otherAccount);
      expect(other.status).toBe(200);
      await other.readAll();

      const files = unzipSync(new Uint8Array(await first.readAll()));
      expect(JSON.parse(strFromU8(files['kabari-my-data.json']!)).voiceNotes).toHaveLength(BIG_NOTES);
      expect(Object.keys(files)).toHaveLength(BIG_NOTES + 1);
      // Once it has arrived, the next one may start.
      const next = await startExport(requester);
      expect(next.status).toBe(200);
      next.drop();
      await next.serverClosed;
    },
    SLOW_TEST_MS,
  );
});
