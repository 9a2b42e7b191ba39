import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { verificationCodes } from '../../../src/db/schema/accounts';
import { locationRequests, optOuts, positions } from '../../../src/db/schema/location-requests';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { optOutKey } from '../../../src/requests/opt-outs';
import { describeEachDatabase } from '../../support/databases';
import { insertRequest, insertRequester, type RequestValues } from '../../support/share-fixtures';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('the consent overview (/api/v1/my-requests)', (driver) => {
  let testApp: TestApp;
  let rina: string;
  let budi: string;
  let address = 0;
  let numbers = 0;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
    rina = await insertRequester(testApp.app.db, 'Rina Wijaya');
    budi = await insertRequester(testApp.app.db, 'Budi Santoso');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;
  const secret = () => testApp.app.auth.secrets.hmacSecret;
  // Each call from its own network address unless one is given, so the per-network throttles stay out of the way.
  const inject = (options: InjectOptions & { ip?: string }) => {
    address += 1;
    const { ip, ...rest } = options;
    return testApp.app.inject({ remoteAddress: ip ?? `198.51.100.${address % 250}`, ...rest });
  };
  /** A new Indonesian mobile number for each test, so that no test meets another's codes or throttles. */
  const newNumber = () => {
    numbers += 1;
    return `+62812${String(3_000_000 + numbers * 7919 + Math.floor(Math.random() * 1000)).padStart(7, '0')}`;
  };
  /** A request sent to `target` as the request routes store it (with its target's keyed hash). */
  const requestTo = (requester: string, target: string, values: RequestValues = {}) =>
    insertRequest(db(), requester, {
      channel: target.includes('@') ? 'email' : 'sms',
      target,
      targetHash: optOutKey(secret(), target),
      ...values,
    });
  const askCode = (target: string, ip?: string) =>
    inject({ method: 'POST', url: '/api/v1/my-requests/code', payload: { address: target, locale: 'en' }, ip });
  const lastCodeTo = async (target: string) => {
    const [message] = await db()
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, target))
      .orderBy(sql`${outboxMessages.createdAt} desc`)
      .limit(1);
    return message?.bodyText.match(/\b(\d{6})\b/)?.[1];
  };
  const enterCode = (target: string, code: string, ip?: string) =>
    inject({ method: 'POST', url: '/api/v1/my-requests/session', payload: { address: target, code }, ip });
  /** Proves the address through its message: the session's cookie header. */
  const prove = async (target: string) => {
    expect((await askCode(target)).statusCode).toBe(200);
    const answer = await enterCode(target, (await lastCodeTo(target))!);
    expect(answer.statusCode).toBe(200);
    const cookie = answer.cookies.find((set) => set.name === 'kabari-overview' && set.path === '/api/v1/my-requests');
    return `kabari-overview=${cookie!.value}`;
  };
  const overview = (cookie?: string) =>
    inject({ method: 'GET', url: '/api/v1/my-requests', headers: cookie ? { cookie } : {} });
  const post = (url: string, cookie?: string, payload?: object) =>
    inject({ method: 'POST', url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
  const rowOf = async (id: string) =>
    (await db().select().from(locationRequests).where(eq(locationRequests.id, id)))[0]!;

  it('answers a code alike whether or not any request went to the address, and sends one either way', async () => {
    const asked = newNumber();
    const never = newNumber();
    await requestTo(rina, asked);
    const first = await askCode(asked);
    const second = await askCode(never);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(first.json()).toEqual(second.json());
    expect(first.json()).toEqual({ status: 200, message: 'ok', data: { channel: 'sms' } });
    expect(await lastCodeTo(asked)).toMatch(/^\d{6}$/);
    expect(await lastCodeTo(never)).toMatch(/^\d{6}$/);
    // The code's row holds the address's keyed hash, never the address.
    const rows = await db().select().from(verificationCodes).where(eq(verificationCodes.purpose, 'overview_code'));
    expect(rows.some((row) => row.email.includes(asked) || row.email.includes(never))).toBe(false);
  });

  it('sends the code by email to an email address, and refuses what is neither, or a number outside the SMS countries', async () => {
    expect((await askCode('Sari@Example.com')).json().data).toEqual({ channel: 'email' });
    expect(await lastCodeTo('sari@example.com')).toMatch(/^\d{6}$/);
    const nonsense = await askCode('not an address');
    expect(nonsense.statusCode).toBe(400);
    const abroad = await askCode('+14155552671');
    expect(abroad.statusCode).toBe(400);
    expect(abroad.json().message).toContain('Indonesia');
  });

  it('throttles codes per address and per network', async () => {
    const target = newNumber();
    for (let i = 0; i < 3; i += 1) expect((await askCode(target)).statusCode).toBe(200);
    const fourth = await askCode(target);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.headers['retry-after']).toBeDefined();
    const ip = '203.0.113.77';
    const answers = [];
    for (let i = 0; i < 11; i += 1) answers.push((await askCode(newNumber(), ip)).statusCode);
    expect(answers.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(answers[10]).toBe(429);
  });

  it('refuses a wrong, a used and an expired code, counting each wrong one; the right one opens a strict session', async () => {
    const target = newNumber();
    await askCode(target);
    const code = (await lastCodeTo(target))!;
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await enterCode(target, wrong)).statusCode).toBe(400);
    const counted = await db()
      .select({ attempts: verificationCodes.attempts })
      .from(verificationCodes)
      .where(eq(verificationCodes.purpose, 'overview_code'))
      .orderBy(sql`${verificationCodes.createdAt} desc`)
      .limit(1);
    expect(counted[0]!.attempts).toBe(1);

    const opened = await enterCode(target, code);
    expect(opened.statusCode).toBe(200);
    const cookies = opened.cookies.filter((set) => set.name === 'kabari-overview');
    expect(cookies.map((set) => set.path).sort()).toEqual(['/api/v1/my-requests', '/id/my-requests', '/my-requests']);
    for (const set of cookies) {
      expect(set).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      const lifetime = new Date(set.expires!).getTime() - Date.now();
      expect(lifetime).toBeGreaterThan(14 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(15 * 60_000);
    }
    // Used once: the same code opens nothing again.
    expect((await enterCode(target, code)).statusCode).toBe(400);

    // Expired: a live code past its 10 minutes is refused.
    await askCode(target);
    const late = (await lastCodeTo(target))!;
    await db()
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.purpose, 'overview_code'));
    expect((await enterCode(target, late)).statusCode).toBe(400);
  });

  it('gives a code no more than 5 guesses, and holds guesses from one network across addresses', async () => {
    const target = newNumber();
    await askCode(target);
    const code = (await lastCodeTo(target))!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) expect((await enterCode(target, wrong)).statusCode).toBe(400);
    // The right code after five wrong ones: the code is dead.
    expect((await enterCode(target, code)).statusCode).toBe(400);

    const ip = '203.0.113.91';
    const statuses = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await enterCode(newNumber(), '123456', ip)).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });

  it('lists the open requests to the proven address and those ended in the last 30 days, and no one else’s', async () => {
    const target = newNumber();
    const day = 24 * 60 * 60_000;
    const waiting = await requestTo(rina, target);
    const shared = await requestTo(budi, target, {
      consent: 'sharing',
      consentedAt: new Date(),
      decidedAt: new Date(),
      liveUntil: new Date(Date.now() + 60 * 60_000),
    });
    await db()
      .insert(positions)
      .values([
        {
          requestId: shared.id,
          source: 'ip',
          latitude: -6.2,
          longitude: 106.8,
          recordedAt: new Date(Date.now() - 60_000),
        },
        {
          requestId: shared.id,
          source: 'gps',
          latitude: -6.2,
          longitude: 106.8,
          accuracyMeters: 10,
          recordedAt: new Date(),
        },
      ]);
    const declinedLately = await requestTo(rina, target, {
      consent: 'declined',
      decidedAt: new Date(Date.now() - 5 * day),
    });
    await requestTo(rina, target, {
      consent: 'stopped',
      decidedAt: new Date(Date.now() - 31 * day),
      createdAt: new Date(Date.now() - 32 * day),
    });
    await requestTo(rina, target, {
      expiresAt: new Date(Date.now() - 40 * day),
      createdAt: new Date(Date.now() - 47 * day),
    });
    const others = await requestTo(rina, newNumber());

    const cookie = await prove(target);
    const answer = await overview(cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const { requests, channel } = answer.json().data;
    expect(channel).toBe('sms');
    expect(requests.map((request: { id: string }) => request.id).sort()).toEqual(
      [waiting.id, shared.id, declinedLately.id].sort(),
    );
    expect(requests.find((request: { id: string }) => request.id === shared.id)).toMatchObject({
      requesterName: 'Budi Santoso',
      channel: 'sms',
      state: 'sharing',
      shared: { positions: 2 },
      looks: { count: 0, lastAt: null },
      endedAt: null,
    });
    expect(requests.find((request: { id: string }) => request.id === waiting.id)).toMatchObject({
      requesterName: 'Rina Wijaya',
      state: 'open',
    });
    // Where the recipient was is never in the answer.
    expect(answer.body).not.toContain('106.8');
    expect(requests.some((request: { id: string }) => request.id === others.id)).toBe(false);
  });

  it("never acts on another address's request: 404, and the request is unchanged", async () => {
    const mine = newNumber();
    const theirs = await requestTo(rina, newNumber(), { consent: 'sharing', consentedAt: new Date() });
    const cookie = await prove(mine);
    for (const action of ['decline', 'stop', 'withdraw']) {
      const refused = await post(`/api/v1/my-requests/${theirs.id}/${action}`, cookie);
      expect([action, refused.statusCode]).toEqual([action, 404]);
    }
    expect((await post(`/api/v1/my-requests/${theirs.id}/report`, cookie, { reason: 'spam' })).statusCode).toBe(404);
    expect(
      (await inject({ method: 'GET', url: `/api/v1/my-requests/${theirs.id}/voice-note`, headers: { cookie } }))
        .statusCode,
    ).toBe(404);
    expect((await rowOf(theirs.id)).consent).toBe('sharing');
  });

  it('refuses everything without a live session (401), and Quick exit ends one at once', async () => {
    expect((await overview()).statusCode).toBe(401);
    expect((await overview('kabari-overview=not-a-session')).statusCode).toBe(401);
    expect((await post('/api/v1/my-requests/stop-everything')).statusCode).toBe(401);
    expect((await post('/api/v1/my-requests/opt-out')).statusCode).toBe(401);
    const cookie = await prove(newNumber());
    expect((await overview(cookie)).statusCode).toBe(200);
    const ended = await post('/api/v1/my-requests/session/end', cookie);
    expect(ended.statusCode).toBe(200);
    expect(ended.cookies.filter((set) => set.name === 'kabari-overview' && set.value === '')).toHaveLength(3);
    expect((await overview(cookie)).statusCode).toBe(401);
  });

  it('ends a session after 15 minutes', async () => {
    const cookie = await prove(newNumber());
    await db()
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.purpose, 'overview_session'));
    expect((await overview(cookie)).statusCode).toBe(401);
  });

  it('Stop everything ends every share and declines every waiting request, and each requester is told as for the link', async () => {
    const target = newNumber();
    const live = await requestTo(rina, target, {
      consent: 'sharing',
      consentedAt: new Date(),
      liveUntil: new Date(Date.now() + 60 * 60_000),
    });
    const waiting = await requestTo(budi, target);
    const cookie = await prove(target);
    const answer = await post('/api/v1/my-requests/stop-everything', cookie);
    expect(answer.json()).toEqual({ status: 200, message: 'ok', data: { ended: 1, declined: 1 } });
    expect(await rowOf(live.id)).toMatchObject({ consent: 'stopped', liveUntil: null });
    expect((await rowOf(waiting.id)).consent).toBe('declined');
    const notices = await db()
      .select()
      .from(outboxMessages)
      .where(
        sql`${outboxMessages.idempotencyKey} like ${`%${live.id}%`} or ${outboxMessages.idempotencyKey} like ${`%${waiting.id}%`}`,
      );
    expect(notices.length).toBeGreaterThanOrEqual(2);
    // Never that it came from the overview.
    for (const notice of notices) expect(notice.bodyText).not.toMatch(/my-requests|overview/i);
    // Asked again, nothing is left to stop.
    expect((await post('/api/v1/my-requests/stop-everything', cookie)).json().data).toEqual({ ended: 0, declined: 0 });
  });

  it('Erase everything erases what was shared; one request can be stopped, erased, declined and reported alone', async () => {
    const target = newNumber();
    const shared = await requestTo(rina, target, { consent: 'sharing', consentedAt: new Date() });
    await db().insert(positions).values({
      requestId: shared.id,
      source: 'gps',
      latitude: -6.2,
      longitude: 106.8,
      accuracyMeters: 5,
      recordedAt: new Date(),
    });
    const single = await requestTo(budi, target, { consent: 'sharing', consentedAt: new Date() });
    const waiting = await requestTo(budi, target);
    const cookie = await prove(target);

    expect((await post(`/api/v1/my-requests/${single.id}/stop`, cookie)).json().data).toEqual({ state: 'stopped' });
    expect((await post(`/api/v1/my-requests/${single.id}/withdraw`, cookie)).json().data).toEqual({
      state: 'withdrawn',
    });
    expect((await post(`/api/v1/my-requests/${waiting.id}/decline`, cookie)).json().data).toEqual({
      state: 'declined',
    });
    const report = await post(`/api/v1/my-requests/${waiting.id}/report`, cookie, { reason: 'stalking' });
    expect(report.statusCode).toBe(200);
    expect(report.json().data.id).toEqual(expect.any(String));

    const erased = await post('/api/v1/my-requests/erase-everything', cookie);
    expect(erased.json().data).toEqual({ ended: 1, declined: 0 });
    expect((await rowOf(shared.id)).consent).toBe('withdrawn');
    expect(await db().$count(positions, eq(positions.requestId, shared.id))).toBe(0);
  });

  it('No more requests opts the address out (its keyed hash only) and declines what still waits', async () => {
    const target = 'putri@example.com';
    const waiting = await requestTo(rina, target);
    const cookie = await prove(target);
    expect((await post('/api/v1/my-requests/opt-out', cookie)).json().data).toEqual({ optedOut: true });
    const [row] = await db()
      .select()
      .from(optOuts)
      .where(eq(optOuts.targetHash, optOutKey(secret(), target)));
    expect(row).toMatchObject({ channel: 'email' });
    expect((await rowOf(waiting.id)).consent).toBe('declined');
  });
});
