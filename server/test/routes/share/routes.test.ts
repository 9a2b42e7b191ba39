import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { queryRows } from '../../../src/db/open-database';
import { keyedHash } from '../../../src/lib/keyed-hash';
import { users } from '../../../src/db/schema/accounts';
import {
  abuseReports,
  linkTombstones,
  locationRequests,
  optOuts,
  positions,
  requestEvents,
} from '../../../src/db/schema/location-requests';
import type { PositionView } from '../../../src/requests/view-types';
import { describeEachDatabase } from '../../support/databases';
import { insertRequest, insertRequester } from '../../support/share-fixtures';
import { tableDigests } from '../../support/table-digests';
import { buildSecondInstance, buildTestApp, type TestApp } from '../../support/test-app';

// Google's public resolver: the bundled DB-IP database places it in the United States.
const PUBLIC_IP = '8.8.8.8';
const jakarta = { latitude: -6.1754, longitude: 106.8272, accuracy: 12 };

describeEachDatabase('the recipient’s consent routes', (driver) => {
  let testApp: TestApp;
  let requesterId: string;

  beforeAll(async () => {
    // Behind a proxy on this machine (inject's peer is 127.0.0.1): the client address comes from X-Forwarded-For.
    testApp = await buildTestApp(driver, { TRUST_PROXY: '127.0.0.1' });
    requesterId = await insertRequester(testApp.app.db, 'Budi Santoso');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;
  const call = (method: 'GET' | 'POST', url: string, payload?: object, ip = PUBLIC_IP) =>
    testApp.app.inject({ method, url, payload, headers: { 'x-forwarded-for': ip } });
  const link = (token: string, action = '') => `/api/v1/share/links/${encodeURIComponent(token)}${action}`;
  const requestRow = async (id: string) =>
    (await db().select().from(locationRequests).where(eq(locationRequests.id, id)))[0];
  const positionsOf = (id: string) => db().select().from(positions).where(eq(positions.requestId, id));
  // In the order they were published: a table's physical order changes with updates elsewhere.
  const eventsOf = (id: string) =>
    db().select().from(requestEvents).where(eq(requestEvents.requestId, id)).orderBy(requestEvents.id);
  const gpsNow = () => ({ ...jakarta, recordedAt: new Date().toISOString() });

  it('opening a link names the requester and records only that it was opened', async () => {
    const request = await insertRequest(db(), requesterId);
    const response = await call('GET', link(request.token));
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      requesterName: 'Budi Santoso',
      channel: 'sms',
      state: 'open',
      expiresAt: request.expiresAt.toISOString(),
      liveUntil: null,
      canOptOut: true,
      shared: { approximate: false, precise: false },
      voiceNote: null,
      voiceReply: null,
    });
    const opened = await requestRow(request.id);
    expect(opened).toMatchObject({ status: 'pending', consent: 'none', locatedAt: null });
    expect(opened?.openedAt).toBeInstanceOf(Date);
    expect(await positionsOf(request.id)).toHaveLength(0);
    // The requester hears that it was opened, and nothing about who opened it.
    const events = await eventsOf(request.id);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0]?.payload)).not.toContain(PUBLIC_IP);

    // A second opening changes nothing.
    await call('GET', link(request.token));
    expect((await requestRow(request.id))?.openedAt).toEqual(opened?.openedAt);
    expect(await eventsOf(request.id)).toHaveLength(1);
  });

  it('keeps the recipient’s address in no table, before consent or after', async () => {
    const request = await insertRequest(db(), requesterId);
    // An address of its own, so that any copy of it anywhere is found.
    const ip = '198.51.100.203';
    const tablesHolding = async (text: string) => {
      const tables = await queryRows<{ name: string }>(
        db(),
        sql`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`,
      );
      const holding: string[] = [];
      for (const { name } of tables) {
        const rows = await queryRows<Record<string, unknown>>(db(), sql`select * from ${sql.identifier(name)}`);
        if (JSON.stringify(rows).includes(text)) holding.push(name);
      }
      return holding;
    };
    expect((await call('GET', link(request.token), undefined, ip)).statusCode).toBe(200);
    expect(await tablesHolding(ip)).toEqual([]);
    expect((await call('POST', link(request.token, '/report'), { reason: 'spam' }, ip)).statusCode).toBe(200);
    expect((await call('POST', link(request.token, '/consent'), undefined, ip)).statusCode).toBe(200);
    expect(await tablesHolding(ip)).toEqual([]);
    // The throttle still counts that address: its counters exist, under a key that does not show it.
    const counters = await queryRows<{ key: string }>(
      db(),
      sql`select key from auth_throttles where key like 'share:%'`,
    );
    expect(counters.some((row) => row.key.startsWith('share:ip:'))).toBe(true);
  });

  it('answers an unknown token with 404 Invalid link! and stores nothing', async () => {
    // The throttle counts the attempts (the test above); nothing else changes.
    const before = await tableDigests(db(), ['auth_throttles']);
    for (const action of ['', '/consent', '/decline', '/stop', '/withdraw', '/opt-out']) {
      const response = await call(action ? 'POST' : 'GET', link('no-such-token', action));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ status: 404, message: 'Invalid link!', data: null });
    }
    expect(await tableDigests(db(), ['auth_throttles'])).toBe(before);
  });

  it('Share records the approximate place of the IP (IP Located), then a GPS position makes it GPS Tracked', async () => {
    const request = await insertRequest(db(), requesterId);
    const consent = await call('POST', link(request.token, '/consent'));
    expect(consent.statusCode).toBe(200);
    const body = consent.json().data;
    expect(body.state).toBe('sharing');
    expect(body.attribution).toEqual({
      text: 'IP Geolocation by DB-IP',
      url: 'https://db-ip.com/',
      license: 'CC BY 4.0',
    });
    expect(body.approximate).toMatchObject({ source: 'ip', accuracyMeters: null });
    expect(body.approximate.address).toMatch(/United States$/);
    // The parts, for each reader's language.
    expect(body.approximate.place).toMatchObject({ countryCode: 'US' });
    expect(await requestRow(request.id)).toMatchObject({ status: 'ip_located', consent: 'sharing' });

    const posted = await call('POST', link(request.token, '/positions'), gpsNow());
    expect(posted.statusCode).toBe(200);
    expect(posted.json().data).toEqual({ accepted: true, liveUntil: null });
    expect(await requestRow(request.id)).toMatchObject({ status: 'gps_tracked' });
    const stored = await positionsOf(request.id);
    expect(stored.map((p) => p.source).sort()).toEqual(['gps', 'ip']);
    const gps = stored.find((p) => p.source === 'gps');
    expect(gps).toMatchObject({ latitude: jakarta.latitude, longitude: jakarta.longitude, accuracyMeters: 12 });
    expect(gps?.address).toMatch(/^[\w ]*Jakarta, Indonesia$/);
    expect(gps?.place).toMatchObject({ name: expect.stringMatching(/Jakarta$/), countryCode: 'ID', distanceKm: null });

    // Each change reached the requester as a live event.
    const types = (await eventsOf(request.id)).map((event) => event.type);
    expect(types).toEqual(['position', 'request', 'position', 'request']);

    // Without live sharing, a second position is not taken.
    const second = await call('POST', link(request.token, '/positions'), gpsNow());
    expect(second.json().data).toEqual({ accepted: false, liveUntil: null });
    expect(await positionsOf(request.id)).toHaveLength(2);

    const page = await call('GET', link(request.token));
    expect(page.json().data).toMatchObject({ state: 'sharing', shared: { approximate: true, precise: true } });
  });

  it('says honestly when the IP address has no known place, and stays pending until a GPS position', async () => {
    const request = await insertRequest(db(), requesterId);
    const consent = await call('POST', link(request.token, '/consent'), undefined, '10.20.30.40');
    expect(consent.json().data).toMatchObject({ state: 'sharing', approximate: null });
    expect(await requestRow(request.id)).toMatchObject({ status: 'pending', consent: 'sharing' });
    expect(await positionsOf(request.id)).toHaveLength(0);
    await call('POST', link(request.token, '/positions'), gpsNow());
    expect(await requestRow(request.id)).toMatchObject({ status: 'gps_tracked' });
  });

  it('refuses positions before consent, and bad positions, storing nothing', async () => {
    const request = await insertRequest(db(), requesterId);
    const early = await call('POST', link(request.token, '/positions'), gpsNow());
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('You have not agreed to share your location through this link.');
    await call('POST', link(request.token, '/consent'));
    const bad = await call('POST', link(request.token, '/positions'), { ...gpsNow(), latitude: 123 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^latitude: /);
    expect((await positionsOf(request.id)).filter((p) => p.source === 'gps')).toHaveLength(0);
  });

  it('live sharing takes positions until its end, then stops taking them', async () => {
    const request = await insertRequest(db(), requesterId);
    await call('POST', link(request.token, '/consent'));
    expect((await call('POST', link(request.token, '/live'), { minutes: 30 })).statusCode).toBe(400);
    const live = await call('POST', link(request.token, '/live'), { minutes: 15 });
    expect(live.statusCode).toBe(200);
    const liveUntil = new Date(live.json().data.liveUntil).getTime();
    expect(liveUntil - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(liveUntil - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    for (let i = 0; i < 3; i += 1) {
      expect((await call('POST', link(request.token, '/positions'), gpsNow())).json().data.accepted).toBe(true);
    }
    // The window ends.
    await db()
      .update(locationRequests)
      .set({ liveUntil: new Date(Date.now() - 1000) })
      .where(eq(locationRequests.id, request.id));
    expect((await call('POST', link(request.token, '/positions'), gpsNow())).json().data.accepted).toBe(false);
    expect((await positionsOf(request.id)).filter((p) => p.source === 'gps')).toHaveLength(3);
  });

  it('stores and publishes each of a live share’s positions once, in order, with its own position, when they come at once', async () => {
    const request = await insertRequest(db(), requesterId);
    await call('POST', link(request.token, '/consent'));
    const { liveUntil } = (await call('POST', link(request.token, '/live'), { minutes: 15 })).json().data;
    expect((await call('POST', link(request.token, '/positions'), gpsNow())).json().data.accepted).toBe(true);
    const heardBefore = (await requestRow(request.id))!.liveHeardAt!.getTime();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call('POST', link(request.token, '/positions'), { ...gpsNow(), accuracy: 100 + i }, `198.51.100.${10 + i}`),
      ),
    );
    for (const answer of answers) expect(answer.json().data).toEqual({ accepted: true, liveUntil });
    const stored = (await positionsOf(request.id)).filter((p) => p.source === 'gps');
    expect(stored.map((p) => p.accuracyMeters).sort((a, b) => a! - b!)).toEqual([12, 100, 101, 102, 103, 104, 105]);
    // The consent's approximate place was published first; then the browser's positions.
    const published = (await eventsOf(request.id)).filter(
      (event) => event.type === 'position' && (event.payload as { position: PositionView }).position.source === 'gps',
    );
    expect(published).toHaveLength(7);
    for (const event of published) {
      const { requestId, position } = event.payload as { requestId: string; position: { id: number } };
      expect(requestId).toBe(request.id);
      const own = stored.find((p) => p.id === position.id)!;
      expect(position).toEqual({
        id: own.id,
        source: 'gps',
        latitude: own.latitude,
        longitude: own.longitude,
        accuracyMeters: own.accuracyMeters,
        address: own.address,
        place: own.place,
        recordedAt: own.recordedAt.toISOString(),
      });
    }
    // Published in the order they were stored.
    const positionIds = published.map((event) => (event.payload as { position: { id: number } }).position.id);
    expect(positionIds).toEqual([...positionIds].sort((a, b) => a - b));
    expect((await requestRow(request.id))!.liveHeardAt!.getTime()).toBeGreaterThanOrEqual(heardBefore);
  });

  it('counts each live position as a use of its link: past the link’s limit, 429 with Retry-After, nothing stored or published', async () => {
    const request = await insertRequest(db(), requesterId);
    await call('POST', link(request.token, '/consent'));
    await call('POST', link(request.token, '/live'), { minutes: 15 });
    expect((await call('POST', link(request.token, '/positions'), gpsNow())).json().data.accepted).toBe(true);
    // 60 uses of a link a minute, from any address: the three above, then live positions, each from an address of
    // its own (so only the link's limit is reached).
    for (let use = 4; use <= 60; use += 1) {
      const answer = await call('POST', link(request.token, '/positions'), gpsNow(), `198.51.100.${use}`);
      expect(answer.json().data.accepted).toBe(true);
    }
    const stored = (await positionsOf(request.id)).length;
    const published = (await eventsOf(request.id)).length;
    const heard = (await requestRow(request.id))!.liveHeardAt;
    const over = await call('POST', link(request.token, '/positions'), gpsNow(), '198.51.100.200');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.json().message).toMatch(/^Too many requests/);
    expect(await positionsOf(request.id)).toHaveLength(stored);
    expect(await eventsOf(request.id)).toHaveLength(published);
    expect((await requestRow(request.id))!.liveHeardAt).toEqual(heard);
  });

  it('counts each live position as a use from its address: past the address’s limit, 429, nothing stored', async () => {
    // Five live links, each shared from elsewhere; then one address sends their positions in turn: 240 uses a
    // minute from one address (48 of each link's 60).
    const requests = [];
    for (let i = 0; i < 5; i += 1) {
      const request = await insertRequest(db(), requesterId);
      await call('POST', link(request.token, '/consent'));
      await call('POST', link(request.token, '/live'), { minutes: 15 });
      await call('POST', link(request.token, '/positions'), gpsNow());
      requests.push(request);
    }
    const ip = '198.51.100.250';
    for (let use = 0; use < 240; use += 1) {
      const answer = await call('POST', link(requests[use % 5]!.token, '/positions'), gpsNow(), ip);
      expect(answer.statusCode).toBe(200);
    }
    const storedBefore = await Promise.all(requests.map(async (request) => (await positionsOf(request.id)).length));
    const over = await call('POST', link(requests[0]!.token, '/positions'), gpsNow(), ip);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await positionsOf(requests[0]!.id)).length).toBe(storedBefore[0]);
    // Another address still shares through the same link.
    expect((await call('POST', link(requests[0]!.token, '/positions'), gpsNow(), '198.51.100.251')).statusCode).toBe(
      200,
    );
  });

  it('ends a live window early when the page’s watch ends, keeping consent; a newer window is kept', async () => {
    const request = await insertRequest(db(), requesterId);
    await call('GET', link(request.token));
    await call('POST', link(request.token, '/consent'));
    await call('POST', link(request.token, '/positions'), gpsNow());
    const first = (await call('POST', link(request.token, '/live'), { minutes: 60 })).json().data.liveUntil;
    const eventsBefore = (await eventsOf(request.id)).length;

    expect((await call('POST', link(request.token, '/live/end'), {})).statusCode).toBe(400);
    const end = await call('POST', link(request.token, '/live/end'), { liveUntil: first });
    expect(end.statusCode).toBe(200);
    expect(end.json().data).toEqual({ liveUntil: null });
    expect(await requestRow(request.id)).toMatchObject({ consent: 'sharing', liveUntil: null });
    // The requester's view goes off live at once, through the live stream.
    const events = await eventsOf(request.id);
    expect(events).toHaveLength(eventsBefore + 1);
    expect(events.at(-1)).toMatchObject({ type: 'request', payload: { consent: 'sharing', liveUntil: null } });
    // Its last position carries the place's parts, for the requester's language.
    expect(events.at(-1)?.payload).toMatchObject({
      lastPosition: { address: 'Jakarta, Indonesia', place: { name: 'Jakarta', countryCode: 'ID' } },
    });
    // Positions stop being taken; the link still says sharing, so live sharing can start again.
    expect((await call('POST', link(request.token, '/positions'), gpsNow())).json().data).toEqual({
      accepted: false,
      liveUntil: null,
    });
    expect((await call('GET', link(request.token))).json().data).toMatchObject({ state: 'sharing', liveUntil: null });
    // Again: nothing is live, nothing is published.
    expect((await call('POST', link(request.token, '/live/end'), { liveUntil: first })).json().data).toEqual({
      liveUntil: null,
    });
    expect(await eventsOf(request.id)).toHaveLength(eventsBefore + 1);

    // A late call about the old window leaves the window the recipient has started since.
    const second = (await call('POST', link(request.token, '/live'), { minutes: 15 })).json().data.liveUntil;
    expect(second).not.toBe(first);
    const late = await call('POST', link(request.token, '/live/end'), { liveUntil: first });
    expect(late.json().data).toEqual({ liveUntil: second });
    expect((await requestRow(request.id))?.liveUntil?.toISOString()).toBe(second);
    expect((await call('POST', link(request.token, '/positions'), gpsNow())).json().data.accepted).toBe(true);

    // After Stop sharing nothing is live; before consent there is nothing to end.
    await call('POST', link(request.token, '/stop'));
    expect((await call('POST', link(request.token, '/live/end'), { liveUntil: second })).json().data).toEqual({
      liveUntil: null,
    });
    const open = await insertRequest(db(), requesterId);
    const refused = await call('POST', link(open.token, '/live/end'), { liveUntil: second });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('You have not agreed to share your location through this link.');
    expect((await call('POST', link('no-such-token', '/live/end'), { liveUntil: second })).statusCode).toBe(404);
  });

  it('Stop sharing ends it at once; positions are refused afterwards; the link says stopped', async () => {
    const request = await insertRequest(db(), requesterId);
    await call('POST', link(request.token, '/consent'));
    await call('POST', link(request.token, '/live'), { minutes: 60 });
    const stop = await call('POST', link(request.token, '/stop'));
    expect(stop.json().data).toEqual({ state: 'stopped' });
    expect(await requestRow(request.id)).toMatchObject({ consent: 'stopped', liveUntil: null });
    expect((await call('POST', link(request.token, '/positions'), gpsNow())).statusCode).toBe(409);
    expect((await call('POST', link(request.token, '/consent'))).statusCode).toBe(409);
    expect((await call('GET', link(request.token))).json().data.state).toBe('stopped');
  });

  it('Decline records the refusal and nothing else', async () => {
    const request = await insertRequest(db(), requesterId);
    expect((await call('POST', link(request.token, '/decline'))).json().data).toEqual({ state: 'declined' });
    expect(await requestRow(request.id)).toMatchObject({ consent: 'declined', status: 'pending' });
    expect(await positionsOf(request.id)).toHaveLength(0);
    expect((await call('POST', link(request.token, '/consent'))).statusCode).toBe(409);
    expect((await call('GET', link(request.token))).json().data.state).toBe('declined');
  });

  it('Stop and erase deletes every position and every event that carried one', async () => {
    const request = await insertRequest(db(), requesterId);
    await call('POST', link(request.token, '/consent'));
    await call('POST', link(request.token, '/positions'), gpsNow());
    expect(await positionsOf(request.id)).toHaveLength(2);

    const withdraw = await call('POST', link(request.token, '/withdraw'));
    expect(withdraw.json().data).toEqual({ state: 'withdrawn' });
    expect(await positionsOf(request.id)).toHaveLength(0);
    expect(await requestRow(request.id)).toMatchObject({ consent: 'withdrawn', status: 'pending', locatedAt: null });
    // The requester learns only that consent was withdrawn.
    const events = await eventsOf(request.id);
    expect(events.map((event) => event.type)).toEqual(['withdrawn', 'request']);
    expect(JSON.stringify(events)).not.toMatch(/latitude|106\.8/);
    expect(events[1]?.payload).toMatchObject({ consent: 'withdrawn', status: 'pending', lastPosition: null });
    expect((await call('GET', link(request.token))).json().data).toMatchObject({
      state: 'withdrawn',
      shared: { approximate: false, precise: false },
    });
  });

  it('after Stop and erase the link shows only that it ended, for the rest of its 7 days', async () => {
    const expiresAt = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
    const request = await insertRequest(db(), requesterId, { expiresAt });
    await call('POST', link(request.token, '/consent'));
    await call('POST', link(request.token, '/positions'), gpsNow());
    await call('POST', link(request.token, '/live'), { minutes: 60 });
    expect((await call('POST', link(request.token, '/withdraw'))).statusCode).toBe(200);

    const page = await call('GET', link(request.token));
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toEqual({
      requesterName: '',
      channel: 'sms',
      state: 'withdrawn',
      expiresAt: expiresAt.toISOString(),
      liveUntil: null,
      canOptOut: true,
      shared: { approximate: false, precise: false },
      voiceNote: null,
      voiceReply: null,
    });
    expect(JSON.stringify(page.json())).not.toContain('Budi');
    // Nothing can be shared through it again, and it keeps its lifetime: not cut short, not extended.
    expect((await call('POST', link(request.token, '/consent'))).statusCode).toBe(409);
    expect((await call('POST', link(request.token, '/positions'), gpsNow())).statusCode).toBe(409);
    expect((await call('POST', link(request.token, '/live'), { minutes: 15 })).statusCode).toBe(409);
    expect((await requestRow(request.id))?.expiresAt.toISOString()).toBe(expiresAt.toISOString());
  });

  it('answers expired and cancelled links with their state, and refuses to share through them', async () => {
    const expired = await insertRequest(db(), requesterId, { expiresAt: new Date(Date.now() - 60_000) });
    expect((await call('GET', link(expired.token))).json().data.state).toBe('expired');
    expect((await call('POST', link(expired.token, '/consent'))).statusCode).toBe(409);
    const cancelled = await insertRequest(db(), requesterId, { consent: 'cancelled', cancelledAt: new Date() });
    expect((await call('GET', link(cancelled.token))).json().data.state).toBe('cancelled');
    const refused = await call('POST', link(cancelled.token, '/consent'));
    expect(refused.json().message).toBe('The person who asked cancelled this request.');
    expect(await positionsOf(expired.id)).toHaveLength(0);
    expect(await positionsOf(cancelled.id)).toHaveLength(0);
  });

  it('opts the number out by its hash and declines the open request; a link has no target to opt out', async () => {
    const request = await insertRequest(db(), requesterId, { target: '+628111222333' });
    const optOut = await call('POST', link(request.token, '/opt-out'));
    expect(optOut.json().data).toEqual({ optedOut: true });
    // Keyed with the server's secret: a plain sha256 of a phone number is brute-forced in minutes.
    const hash = keyedHash(testApp.app.auth.secrets.hmacSecret, 'opt-out', '+628111222333');
    const [stored] = await db().select().from(optOuts).where(eq(optOuts.targetHash, hash));
    expect(stored).toMatchObject({ channel: 'sms' });
    const plain = createHash('sha256').update('+628111222333').digest('hex');
    expect(await db().select().from(optOuts).where(eq(optOuts.targetHash, plain))).toEqual([]);
    expect(JSON.stringify(await db().select().from(optOuts))).not.toContain('628111222333');
    expect(await requestRow(request.id)).toMatchObject({ consent: 'declined' });
    // Twice is fine.
    expect((await call('POST', link(request.token, '/opt-out'))).statusCode).toBe(200);

    const linkOnly = await insertRequest(db(), requesterId, { channel: 'link', target: null });
    expect((await call('GET', link(linkOnly.token))).json().data.canOptOut).toBe(false);
    const refused = await call('POST', link(linkOnly.token, '/opt-out'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/^This link was not sent to a phone number or an email address/);
  });

  it('stores an abuse report with its request, and refuses a bad one', async () => {
    const request = await insertRequest(db(), requesterId);
    const report = await call('POST', link(request.token, '/report'), {
      reason: 'stalking',
      details: 'I do not know them',
    });
    expect(report.statusCode).toBe(200);
    const [stored] = await db().select().from(abuseReports).where(eq(abuseReports.id, report.json().data.id));
    expect(stored).toMatchObject({
      requestId: request.id,
      requesterId,
      reason: 'stalking',
      details: 'I do not know them',
    });
    const bad = await call('POST', link(request.token, '/report'), { reason: 'because' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^reason: reason must be one of/);
  });

  it('keeps opt-out and report working after the requester deletes the request, and who was reported', async () => {
    const target = '+628777000111';
    const hash = keyedHash(testApp.app.auth.secrets.hmacSecret, 'opt-out', target);
    const request = await insertRequest(db(), requesterId, { target, targetHash: hash });
    const before = await call('POST', link(request.token, '/report'), { reason: 'harassment' });
    await db().delete(locationRequests).where(eq(locationRequests.id, request.id));

    const page = await call('GET', link(request.token));
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({ state: 'deleted', requesterName: '', canOptOut: true, channel: 'sms' });
    // Sharing is not possible through it.
    expect((await call('POST', link(request.token, '/consent'))).statusCode).toBe(404);

    expect((await call('POST', link(request.token, '/opt-out'))).json().data).toEqual({ optedOut: true });
    expect(await db().select().from(optOuts).where(eq(optOuts.targetHash, hash))).toHaveLength(1);

    const after = await call('POST', link(request.token, '/report'), { reason: 'stalking' });
    expect(after.statusCode).toBe(200);
    const reportOf = async (id: string) => (await db().select().from(abuseReports).where(eq(abuseReports.id, id)))[0];
    expect(await reportOf(before.json().data.id)).toMatchObject({ requestId: null, requesterId });
    expect(await reportOf(after.json().data.id)).toMatchObject({ requestId: null, requesterId, reason: 'stalking' });

    // The tombstone keeps hashes and the requester's id: neither the token nor the number.
    const tombstones = JSON.stringify(await db().select().from(linkTombstones));
    expect(tombstones).not.toContain(request.token);
    expect(tombstones).not.toContain('628777000111');
  });

  it('keeps them working when the requester deletes their account', async () => {
    const leaving = await insertRequester(db(), 'Leaving User');
    const request = await insertRequest(db(), leaving, { channel: 'link', target: null });
    await db().delete(users).where(eq(users.id, leaving));
    expect((await call('GET', link(request.token))).json().data).toMatchObject({ state: 'deleted', canOptOut: false });
    expect((await call('POST', link(request.token, '/opt-out'))).statusCode).toBe(409);
    const report = await call('POST', link(request.token, '/report'), { reason: 'unknown_requester' });
    const [stored] = await db().select().from(abuseReports).where(eq(abuseReports.id, report.json().data.id));
    expect(stored).toMatchObject({ requestId: null, requesterId: leaving });
  });

  it('answers in Indonesian when the caller asks for it', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: link('no-such-token'),
      headers: { 'x-forwarded-for': PUBLIC_IP, 'accept-language': 'id' },
    });
    expect(response.json().message).toBe('Tautan tidak valid!');
    // The schemas' messages too.
    const request = await insertRequest(db(), requesterId);
    await call('POST', link(request.token, '/consent'));
    const live = await testApp.app.inject({
      method: 'POST',
      url: link(request.token, '/live'),
      payload: { minutes: 30 },
      headers: { 'x-forwarded-for': PUBLIC_IP, 'accept-language': 'id' },
    });
    expect(live.statusCode).toBe(400);
    expect(live.json().message).toBe('Pilih 15 menit, 1 jam, atau 8 jam.');
  });

  it('throttles one address', async () => {
    const request = await insertRequest(db(), requesterId);
    const ip = '203.0.113.77';
    let last = 0;
    for (let i = 0; i < 7 && last !== 429; i += 1) {
      last = (await call('POST', link(request.token, '/report'), { reason: 'spam' }, ip)).statusCode;
    }
    expect(last).toBe(429);
  });

  it('GET /api/v1/locate/country gives the country of the caller’s IP, null when unknown', async () => {
    const known = await call('GET', '/api/v1/locate/country', undefined, '1.1.1.1');
    expect(known.json().data).toMatchObject({ countryCode: 'AU', attribution: { url: 'https://db-ip.com/' } });
    const unknown = await call('GET', '/api/v1/locate/country', undefined, '192.168.1.20');
    expect(unknown.json().data.countryCode).toBeNull();
  });
});

describe('a live share’s positions through two instances on one PostgreSQL', () => {
  const run = process.env.KABARI_TEST_POSTGRES_URL ? it : it.skip;

  run('let through exactly the link’s limit when they come at once through both', async () => {
    const first = await buildTestApp('postgres');
    let second: FastifyInstance | undefined;
    try {
      second = await buildSecondInstance(first);
      await second.ready();
      const requesterId = await insertRequester(first.app.db, 'Budi Santoso');
      const request = await insertRequest(first.app.db, requesterId);
      const post = (app: FastifyInstance, action: string, payload: object) =>
        app.inject({
          method: 'POST',
          url: `/api/v1/share/links/${encodeURIComponent(request.token)}${action}`,
          payload,
        });
      await post(first.app, '/consent', {});
      await post(second, '/live', { minutes: 15 });
      const gps = () => ({ ...jakarta, recordedAt: new Date().toISOString() });
      expect((await post(first.app, '/positions', gps())).json().data.accepted).toBe(true);
      // Three uses so far; 80 more at once, half through each instance: the link's 60 a minute let 57 through.
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) => post(i % 2 === 0 ? first.app : second!, '/positions', gps())),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(57);
      expect(statuses.filter((status) => status === 429)).toHaveLength(23);
      const stored = await first.app.db.select().from(positions).where(eq(positions.requestId, request.id));
      expect(stored.filter((position) => position.source === 'gps')).toHaveLength(58);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
