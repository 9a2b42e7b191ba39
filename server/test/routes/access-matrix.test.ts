import { desc, eq } from 'drizzle-orm';
import { outboxMessages } from '../../src/db/schema/outbox';
import { optOutKey } from '../../src/requests/opt-outs';
import { locationRequests, positions } from '../../src/db/schema/location-requests';
import { createSession } from '../../src/auth/sessions';
import { voiceNoteAudio, voiceNotes } from '../../src/db/schema/voice-notes';
import { checkVoiceAudio } from '../../src/voice/audio-check';
import { voiceAudio } from '../support/voice-audio';
import { insertRequest } from '../support/share-fixtures';
import { createRequester, type TestRequester } from '../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../support/test-app';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';

/**
 * Who may reach which object, for every route whose path names one (an id or a token), generated from the routes
 * the app publishes in its OpenAPI document: a new route with a path parameter and no entry here fails the test.
 *
 * The callers tried against a subscriber's object: nobody signed in, another subscriber, and the owner once their
 * subscription has expired. Against a recipient's link: a token nobody was given, the token of a link its requester
 * cancelled, and the token of a link that was erased (Stop and erase, account deletion). Against a request in the
 * consent overview: no session, a session of another address, and a session of the address that ended.
 */
type Kind = 'owned-request' | 'owned-voice-note' | 'own-session' | 'sign-up' | 'recipient-link' | 'overview-request';

const MATRIX: Record<string, Kind> = {
  'DELETE /api/v1/requests/{id}': 'owned-request',
  'POST /api/v1/requests/{id}/cancel': 'owned-request',
  'POST /api/v1/links/{id}/cancel': 'owned-request',
  'GET /api/v1/requests/{id}/positions': 'owned-request',
  'POST /api/v1/requests/{id}/views': 'owned-request',
  'GET /api/v1/voice-notes/{id}/audio': 'owned-voice-note',
  'POST /api/v1/voice-notes/{id}/remove': 'owned-voice-note',
  'POST /api/v1/personnal/sessions/{id}/revoke': 'own-session',
  'GET /api/v1/personnal/registerQuery/{id}': 'sign-up',
  'POST /api/v1/personnal/sandboxPayments/{id}/pay': 'sign-up',
  'GET /api/v1/share/links/{token}': 'recipient-link',
  'GET /api/v1/share/links/{token}/views': 'recipient-link',
  'GET /api/v1/share/links/{token}/events': 'recipient-link',
  'POST /api/v1/share/links/{token}/consent': 'recipient-link',
  'POST /api/v1/share/links/{token}/positions': 'recipient-link',
  'POST /api/v1/share/links/{token}/live': 'recipient-link',
  'POST /api/v1/share/links/{token}/live/end': 'recipient-link',
  'POST /api/v1/share/links/{token}/live/heard': 'recipient-link',
  'POST /api/v1/share/links/{token}/stop': 'recipient-link',
  'POST /api/v1/share/links/{token}/decline': 'recipient-link',
  'POST /api/v1/share/links/{token}/withdraw': 'recipient-link',
  'POST /api/v1/share/links/{token}/opt-out': 'recipient-link',
  'POST /api/v1/share/links/{token}/report': 'recipient-link',
  'GET /api/v1/share/links/{token}/voice-note': 'recipient-link',
  'POST /api/v1/share/links/{token}/voice-reply': 'recipient-link',
  'GET /api/v1/share/links/{token}/voice-reply': 'recipient-link',
  'POST /api/v1/my-requests/{id}/decline': 'overview-request',
  'POST /api/v1/my-requests/{id}/stop': 'overview-request',
  'POST /api/v1/my-requests/{id}/withdraw': 'overview-request',
  'POST /api/v1/my-requests/{id}/report': 'overview-request',
  'GET /api/v1/my-requests/{id}/voice-note': 'overview-request',
};

/** A body each recipient route accepts, so that a refusal is about the link and not about the input. */
const RECIPIENT_BODIES: Record<string, object | Buffer> = {
  positions: { latitude: -6.2, longitude: 106.8, accuracy: 20, recordedAt: new Date().toISOString() },
  live: { minutes: 15 },
  end: { liveUntil: new Date(Date.now() + 15 * 60_000).toISOString() },
  heard: { liveUntil: new Date(Date.now() + 15 * 60_000).toISOString() },
  report: { reason: 'spam' },
};

/**
 * What a recipient's link answers once it is not open, route by route. An erased link's page says so (a tombstone
 * keeps the token's hash and nothing about the recipient), and its recipient can still opt out and report abuse;
 * a cancelled link says who cancelled it, and shares nothing.
 */
const CLOSED_LINK: Record<string, { erased: number; cancelled: number }> = {
  'GET /api/v1/share/links/{token}': { erased: 200, cancelled: 200 },
  'POST /api/v1/share/links/{token}/opt-out': { erased: 200, cancelled: 200 },
  'POST /api/v1/share/links/{token}/report': { erased: 200, cancelled: 200 },
};
const CLOSED_LINK_REFUSED = { erased: 404, cancelled: 409 };

/** The operator's console: every route under /api/v1/operator is for a signed-in operator only, but these. */
const isConsoleRoute = (route: string) => route.split(' ')[1]!.startsWith('/api/v1/operator/');
const CONSOLE_OPEN = [
  'POST /api/v1/operator/enrolment/begin',
  'POST /api/v1/operator/enrolment/finish',
  'POST /api/v1/operator/session',
];

describe('the access matrix', () => {
  let testApp: TestApp;
  let owner: TestRequester;
  let stranger: TestRequester;
  let documented: string[];
  let address = 0;

  beforeAll(async () => {
    RECIPIENT_BODIES['voice-reply'] = await voiceAudio(1, 'ogg');
    testApp = await buildTestApp('pglite', { RENEWAL_INTERVAL_SECONDS: '0' });
    owner = await createRequester(testApp.app, { displayName: 'Sari' });
    stranger = await createRequester(testApp.app, { displayName: 'Budi' });
    const paths = (testApp.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    documented = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const call = (
    route: string,
    values: Record<string, string>,
    headers: Record<string, string> = {},
    payload?: object,
  ) => {
    const [method, template] = route.split(' ') as [string, string];
    const url = template.replace(/\{(\w+)\}/g, (_whole, name: string) => values[name] ?? '');
    const body = payload ?? RECIPIENT_BODIES[url.split('/').at(-1) ?? ''];
    address += 1;
    return testApp.app.inject({
      method: method as 'GET',
      url,
      headers,
      remoteAddress: `198.51.100.${address % 250}`,
      ...(method === 'GET' || method === 'DELETE' ? {} : { payload: body ?? {} }),
    });
  };

  it('has an entry for every route whose path names an object, and none for a route that is gone', () => {
    // The console's routes are all tried below, whatever their path names.
    const withObject = documented.filter((route) => /\{\w+\}/.test(route) && !isConsoleRoute(route)).sort();
    expect(withObject).toEqual(Object.keys(MATRIX).sort());
  });

  /** A session of the consent overview for `target`, proven through the code its message carries. */
  const overviewSession = async (target: string) => {
    const sent = await call('POST /api/v1/my-requests/code', {}, {}, { address: target });
    expect(sent.statusCode).toBe(200);
    const [message] = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, target))
      .orderBy(desc(outboxMessages.createdAt))
      .limit(1);
    const code = message!.bodyText.match(/\b(\d{6})\b/)![1]!;
    const opened = await call('POST /api/v1/my-requests/session', {}, {}, { address: target, code });
    const cookie = opened.cookies.find((set) => set.name === 'kabari-overview')!;
    return { cookie: `kabari-overview=${cookie.value}` };
  };

  const routesOf = (kind: Kind) => Object.keys(MATRIX).filter((route) => MATRIX[route] === kind);

  it("refuses a subscriber's request to nobody signed in (401) and to another subscriber (404, as if it did not exist)", async () => {
    for (const route of routesOf('owned-request')) {
      const request = await insertRequest(testApp.app.db, owner.userId);
      expect([route, (await call(route, { id: request.id })).statusCode]).toEqual([route, 401]);
      expect([route, (await call(route, { id: request.id }, stranger.headers)).statusCode]).toEqual([route, 404]);
      // Still there, unchanged: a refusal changes nothing.
      const [row] = await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, request.id));
      const { token: _token, ...stored } = request;
      expect([route, row]).toEqual([route, stored]);
    }
  });

  it('lets the owner whose subscription has expired see and end their own requests, and nobody else', async () => {
    const lapsed = await createRequester(testApp.app, {
      subscription: { status: 'expired', validUntil: new Date(Date.now() - 24 * 60 * 60 * 1000) },
    });
    for (const route of routesOf('owned-request')) {
      const request = await insertRequest(testApp.app.db, lapsed.userId);
      expect([route, (await call(route, { id: request.id }, lapsed.headers)).statusCode]).toEqual([route, 200]);
      expect([route, (await call(route, { id: request.id }, stranger.headers)).statusCode]).toEqual([route, 404]);
    }
  });

  it("refuses a subscriber's voice note to nobody signed in (401) and to another subscriber (404); its owner's stays theirs", async () => {
    const lapsed = await createRequester(testApp.app, {
      subscription: { status: 'expired', validUntil: new Date(Date.now() - 24 * 60 * 60 * 1000) },
    });
    for (const route of routesOf('owned-voice-note')) {
      const note = await insertVoiceNote(lapsed.userId);
      expect([route, (await call(route, { id: note })).statusCode]).toEqual([route, 401]);
      expect([route, (await call(route, { id: note }, stranger.headers)).statusCode]).toEqual([route, 404]);
      // Still there: a refusal changes nothing.
      expect([route, await testApp.app.db.$count(voiceNotes, eq(voiceNotes.id, note))]).toEqual([route, 1]);
      // An expired subscription still hears and removes its own.
      expect([route, (await call(route, { id: note }, lapsed.headers)).statusCode]).toEqual([route, 200]);
    }
  });

  /** A draft of the account's, stored as an upload would store it. */
  const insertVoiceNote = async (userId: string) => {
    const audio = await checkVoiceAudio(await voiceAudio(1, 'webm'));
    if (!audio.ok) throw new Error('the test note is not audio');
    const [row] = await testApp.app.db
      .insert(voiceNotes)
      .values({
        userId,
        kind: 'request',
        mediaType: audio.audio.mediaType,
        durationMs: audio.audio.durationMs,
        byteSize: audio.audio.bytes.length,
      })
      .returning();
    await testApp.app.db.insert(voiceNoteAudio).values({ voiceNoteId: row!.id, bytes: audio.audio.bytes });
    return row!.id;
  };

  it("refuses another account's session to be ended by anyone but its owner", async () => {
    const [route] = routesOf('own-session') as [string];
    const { sessionId, token } = await createSession(testApp.app.db, owner.userId, 'jest');
    const sessionWorks = async () =>
      (await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { authorization: token } }))
        .statusCode;
    expect((await call(route, { id: sessionId })).statusCode).toBe(401);
    expect((await call(route, { id: sessionId }, stranger.headers)).statusCode).toBe(404);
    // Refused, and not ended either; its owner can end it.
    expect(await sessionWorks()).toBe(200);
    expect((await call(route, { id: sessionId }, owner.headers)).statusCode).toBe(200);
    expect(await sessionWorks()).toBe(401);
  });

  it('knows a sign-up only by its own random id', async () => {
    for (const route of routesOf('sign-up')) {
      const unknown = await call(route, { id: '3f1c7a52-8c1e-4d4b-9a51-2f0d2b8e6a11' });
      expect([route, unknown.statusCode]).toEqual([route, 404]);
      const malformed = await call(route, { id: 'not-an-id' });
      expect([route, malformed.json()]).toMatchObject([
        route,
        { status: 400, message: 'id: This sign-up was not found.' },
      ]);
    }
  });

  it("refuses a recipient's link nobody was given (404), and answers an erased or cancelled one as its state says", async () => {
    for (const route of routesOf('recipient-link')) {
      const unknown = await call(route, { token: 'never-given-to-anyone-0000000000' });
      expect([route, unknown.statusCode]).toEqual([route, 404]);
      const expected = CLOSED_LINK[route] ?? CLOSED_LINK_REFUSED;
      const erased = await insertRequest(testApp.app.db, owner.userId);
      await testApp.app.db.delete(locationRequests).where(eq(locationRequests.id, erased.id));
      expect([route, (await call(route, { token: erased.token })).statusCode]).toEqual([route, expected.erased]);
      const cancelled = await insertRequest(testApp.app.db, owner.userId, {
        consent: 'cancelled',
        cancelledAt: new Date(),
      });
      const answer = await call(route, { token: cancelled.token });
      expect([route, answer.statusCode]).toEqual([route, expected.cancelled]);
      if (expected.cancelled === 200 && route.startsWith('GET ')) expect(answer.json().data.state).toBe('cancelled');
      const [row] = await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, cancelled.id));
      const shared = await testApp.app.db.select().from(positions).where(eq(positions.requestId, cancelled.id));
      expect([route, row?.consent, shared]).toEqual([route, 'cancelled', []]);
    }
  });

  it("refuses a request in the consent overview without a session (401), to another address's session (404), and once the session ended", async () => {
    const mine = '+6281255550101';
    const theirs = '+6281255550202';
    const mySession = await overviewSession(mine);
    const theirSession = await overviewSession(theirs);
    for (const route of routesOf('overview-request')) {
      const request = await insertRequest(testApp.app.db, owner.userId, {
        target: theirs,
        targetHash: optOutKey(testApp.app.auth.secrets.hmacSecret, theirs),
      });
      expect([route, (await call(route, { id: request.id })).statusCode]).toEqual([route, 401]);
      expect([route, (await call(route, { id: request.id }, mySession)).statusCode]).toEqual([route, 404]);
      // Still there, unchanged: a refusal changes nothing.
      const [row] = await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, request.id));
      const { token: _token, ...stored } = request;
      expect([route, row]).toEqual([route, stored]);
      // Its own address's session reaches it (the voice note: none was sent, 404 from the note, not the request).
      const own = await call(route, { id: request.id }, theirSession);
      expect([route, own.statusCode]).toEqual([
        route,
        route.endsWith('voice-note') ? 404 : route.endsWith('/stop') || route.endsWith('/withdraw') ? 409 : 200,
      ]);
    }
    await call('POST /api/v1/my-requests/session/end', {}, theirSession);
    const request = await insertRequest(testApp.app.db, owner.userId, {
      target: theirs,
      targetHash: optOutKey(testApp.app.auth.secrets.hmacSecret, theirs),
    });
    for (const route of routesOf('overview-request')) {
      expect([route, (await call(route, { id: request.id }, theirSession)).statusCode]).toEqual([route, 401]);
    }
  });

  it('answers every console route, to a visitor and to a subscriber, as it answers a path that does not exist', async () => {
    const consoleRoutes = documented.filter(isConsoleRoute);
    expect(consoleRoutes).toEqual(expect.arrayContaining([...CONSOLE_OPEN, 'GET /api/v1/operator/audit-log']));
    const origin = { origin: 'http://localhost:8080' };
    for (const route of consoleRoutes.filter((each) => !CONSOLE_OPEN.includes(each))) {
      const values = { id: '00000000-0000-4000-8000-000000000000', token: 'x' };
      const [method, template] = route.split(' ') as [string, string];
      const path = template.replace(/\{(\w+)\}/g, (_whole, name: string) => values[name as 'id'] ?? 'x');
      const unknown = await call(`${method} /api/v1/operator/no-such-thing`, {}, origin);
      const expected = unknown.body.replace('/api/v1/operator/no-such-thing', path);
      for (const headers of [
        origin,
        { ...origin, authorization: owner.token },
        { ...origin, cookie: `token=${owner.token}` },
      ]) {
        const answer = await call(route, values, headers);
        expect([route, answer.statusCode, answer.body]).toEqual([route, 404, expected]);
      }
    }
  });
});

/**
 * A route no session opens: Twilio's status callbacks are proven by their signature alone. Nobody, a subscriber (by
 * header or cookie) and a signature made with another token are refused alike, and change nothing.
 */
describe("the access matrix: Twilio's delivery receipts", () => {
  const authToken = 'access-matrix-auth-token';
  const path = '/api/v1/webhooks/twilio/status';
  let testApp: TestApp;
  let twilio: FakeTwilio;

  beforeAll(async () => {
    const env = {
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM: '+15005550006',
    };
    // The SDK pointed at a local fake of Twilio: nothing here reaches the network.
    twilio = await startFakeTwilio({
      accountSid: env.TWILIO_ACCOUNT_SID,
      authToken,
      publicUrl: 'https://kabari.example',
      forwardTo: () => 'http://127.0.0.1:9',
      inboundPath: '/api/v1/webhooks/twilio/inbound',
      ourNumber: env.TWILIO_FROM,
    });
    testApp = await buildTestApp('pglite', env, { build: { twilioApiBaseUrl: twilio.baseUrl } });
  });

  afterAll(async () => {
    await testApp?.close();
    await twilio?.close();
  });

  it('takes a receipt signed with the auth token only', async () => {
    const sid = `SM${'1'.repeat(32)}`;
    const [message] = await testApp.app.db
      .insert(outboxMessages)
      .values({
        idempotencyKey: 'access-matrix-receipt',
        channel: 'sms',
        recipient: '+6281234567890',
        bodyText: 'x',
        state: 'sent',
        transport: 'twilio',
        providerRef: sid,
      })
      .returning();
    const owner = await createRequester(testApp.app, { displayName: 'Sari' });
    const url = `${testApp.config.publicUrl}${path}`;
    // A status callback's fields, signed as Twilio signs them (with the auth token, or another one).
    const fields = { AccountSid: `AC${'0'.repeat(32)}`, MessageSid: sid, MessageStatus: 'delivered', SmsSid: sid };
    const unsigned = { 'content-type': 'application/x-www-form-urlencoded' };
    const signed = {
      payload: new URLSearchParams(fields).toString(),
      headers: { ...unsigned, 'x-twilio-signature': getExpectedTwilioSignature(authToken, url, fields) },
    };
    const forged = {
      headers: { ...unsigned, 'x-twilio-signature': getExpectedTwilioSignature('not-the-token', url, fields) },
    };
    for (const headers of [
      unsigned,
      { ...unsigned, ...owner.headers },
      { ...unsigned, cookie: `token=${owner.token}` },
      { ...forged.headers, ...owner.headers },
    ]) {
      const answer = await testApp.app.inject({ method: 'POST', url: path, headers, payload: signed.payload });
      expect(answer.statusCode).toBe(403);
    }
    const [unchanged] = await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.id, message!.id));
    expect(unchanged).toEqual(message);

    const taken = await testApp.app.inject({
      method: 'POST',
      url: path,
      headers: signed.headers,
      payload: signed.payload,
    });
    expect([taken.statusCode, taken.json().data.recorded]).toEqual([200, true]);
  });
});
