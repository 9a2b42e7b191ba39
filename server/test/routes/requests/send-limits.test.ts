import { and, eq, like, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app';
import { dailySendCounts, locationRequests, sendLimits } from '../../../src/db/schema/location-requests';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { keyedHash } from '../../../src/lib/keyed-hash';
import { describeEachDatabase } from '../../support/databases';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { runClockFromMiddayUtc } from '../../support/fake-clock';
import { buildTestApp, type TestApp } from '../../support/test-app';

let addressCounter = 0;
const nextAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;
let numberCounter = 0;
/** A fresh valid Indonesian mobile number per call. */
const freshNumber = () => `+628129876${String(numberCounter++).padStart(4, '0')}`;
let emailCounter = 0;
const freshEmail = () => `relative-${++emailCounter}-${Date.now()}@example.com`;
const OPERATOR = 'operator@kabari.test';

/** A Nigerian mobile number: valid, and not in the default SMS_COUNTRIES (Indonesia only). */
const NIGERIAN_NUMBER = '+2348031234567';

describeEachDatabase('the daily send limits of an account, the SMS countries and the 3-hour slots', (driver) => {
  let testApp: TestApp;
  let first: FastifyInstance;

  beforeAll(async () => {
    runClockFromMiddayUtc();
    testApp = await buildTestApp(driver, {
      PUBLIC_URL: 'https://kabari.example',
      OPERATOR_EMAIL: OPERATOR,
      SMS_PER_ACCOUNT_PER_DAY: '5',
      EMAIL_PER_ACCOUNT_PER_DAY: '3',
      SMS_DAILY_BUDGET: '100',
    });
    first = testApp.app;
  });

  afterAll(async () => {
    // The tests that restart the server leave a newer one in testApp.app; close() closes the first.
    if (testApp && testApp.app !== first) await testApp.app.close();
    await testApp?.close();
    jest.useRealTimers();
  });

  const app = () => testApp.app;
  const send = (
    requester: TestRequester,
    channel: 'sms' | 'email',
    target: string,
    headers: Record<string, string> = {},
    on: FastifyInstance = app(),
  ) =>
    on.inject({
      method: 'POST',
      url: `/api/v1/requests/${channel}`,
      // Each call from its own address: the per-address rate limit is not what these tests are about.
      remoteAddress: nextAddress(),
      headers: { ...requester.headers, ...headers },
      payload: {
        ...(channel === 'sms' ? { number: target } : { email: target }),
        templateId: 'check-in',
        note: 'Home yet?',
        locale: 'en',
      },
    });
  const limitOf = (requester: TestRequester, query: string, headers: Record<string, string> = {}) =>
    app().inject({
      method: 'GET',
      url: `/api/v1/requests/limit?${query}`,
      remoteAddress: nextAddress(),
      headers: { ...requester.headers, ...headers },
    });
  const messagesTo = (recipient: string) =>
    app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, recipient));

  it('lets one account send at most SMS_PER_ACCOUNT_PER_DAY SMS a day, even 20 at once', async () => {
    const requester = await createRequester(app(), { displayName: 'Sari' });
    const numbers = Array.from({ length: 20 }, freshNumber);
    const responses = await Promise.all(numbers.map((number) => send(requester, 'sms', number)));
    const accepted = responses.filter((response) => response.statusCode === 200);
    const refused = responses.filter((response) => response.statusCode === 429);
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    const refusal = refused[0]!.json();
    expect(refusal.data.rule).toBe('account-day');
    expect(refusal.message).toMatch(
      /^Today's SMS requests are used up: one account can send 5 a day\. The next one is possible in .+; requests by email or link still work\.$/,
    );
    // The next day starts at midnight UTC.
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(Date.parse(refusal.data.nextAllowedAt)).toBe(midnight.getTime());
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);

    // Exactly five requests and five messages, and no 3-hour slot taken for a refused number.
    const requests = await app()
      .db.select()
      .from(locationRequests)
      .where(eq(locationRequests.userId, requester.userId));
    expect(requests).toHaveLength(5);
    const messages = await app().db.select().from(outboxMessages).where(like(outboxMessages.recipient, '+628129876%'));
    expect(messages.filter((message) => numbers.includes(message.recipient))).toHaveLength(5);
    const refusedNumber = numbers.find((number) => !requests.some((request) => request.target === number))!;
    const slot = `target:${keyedHash(app().auth.secrets.hmacSecret, 'send-limit-target', refusedNumber)}`;
    expect(await app().db.select().from(sendLimits).where(eq(sendLimits.key, slot))).toEqual([]);

    // Said in Indonesian, and up front by the limit check.
    const indonesian = await send(requester, 'sms', freshNumber(), { 'accept-language': 'id' });
    expect(indonesian.json().message).toMatch(
      /^Jatah permintaan lewat SMS hari ini sudah habis: satu akun bisa mengirim 5 per hari\. Permintaan berikutnya bisa dikirim dalam \d+ (jam|menit)/,
    );
    const limit = await limitOf(requester, `channel=sms&number=${encodeURIComponent(freshNumber())}`);
    expect(limit.json().data).toMatchObject({
      nextAllowedAt: null,
      optedOut: false,
      refusal: { rule: 'account-day', nextAllowedAt: midnight.toISOString() },
    });
    expect(limit.json().data.refusal.message).toMatch(
      /^Today's SMS requests are used up: one account can send 5 a day\./,
    );
    // Email is counted on its own.
    expect((await send(requester, 'email', freshEmail())).statusCode).toBe(200);
  });

  it('lets one account send at most EMAIL_PER_ACCOUNT_PER_DAY emails a day, even 20 at once', async () => {
    const requester = await createRequester(app(), { displayName: 'Budi' });
    const addresses = Array.from({ length: 20 }, freshEmail);
    const responses = await Promise.all(addresses.map((email) => send(requester, 'email', email)));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(3);
    const refused = responses.filter((response) => response.statusCode === 429);
    expect(refused).toHaveLength(17);
    expect(refused[0]!.json().data.rule).toBe('account-day');
    expect(refused[0]!.json().message).toMatch(/^Today's email requests are used up: one account can send 3 a day\./);
    const sent = (await Promise.all(addresses.map(messagesTo))).flat();
    expect(sent).toHaveLength(3);
  });

  it('holds the counts in the database: a restarted server (or another instance) keeps refusing', async () => {
    const requester = await createRequester(app(), { displayName: 'Rina' });
    for (let index = 0; index < 5; index += 1) {
      expect((await send(requester, 'sms', freshNumber())).statusCode).toBe(200);
    }

    // PGlite's data folder is one process's at a time: close this server before the next one opens it.
    await app().close();
    testApp.app = await buildApp(testApp.config, { logger: false, checkAnswers: true });
    await testApp.app.ready();
    const refused = await send(requester, 'sms', freshNumber());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().data.rule).toBe('account-day');
  });

  it('sends SMS only to the SMS_COUNTRIES (Indonesia by default), says so up front, and stores nothing', async () => {
    const requester = await createRequester(app(), { displayName: 'Sari' });
    const refused = await send(requester, 'sms', NIGERIAN_NUMBER);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'Kabari sends SMS only to numbers in Indonesia. Ask this person by email or with a link instead.',
    );
    const inIndonesian = await send(requester, 'sms', NIGERIAN_NUMBER, { 'accept-language': 'id' });
    expect(inIndonesian.json().message).toBe(
      'Kabari hanya mengirim SMS ke nomor di Indonesia. Mintalah lokasinya lewat email atau tautan sebagai gantinya.',
    );
    expect(await messagesTo(NIGERIAN_NUMBER)).toEqual([]);
    expect(
      await app()
        .db.select()
        .from(dailySendCounts)
        .where(eq(dailySendCounts.key, `sms:account:${requester.userId}`)),
    ).toEqual([]);

    // The number search says it before anyone pays or writes a message.
    const lookup = await app().inject({
      method: 'GET',
      url: `/api/v1/numbers/lookup?number=${encodeURIComponent(NIGERIAN_NUMBER)}&locale=id`,
      remoteAddress: nextAddress(),
    });
    expect(lookup.json().data).toMatchObject({
      countryCode: 'NG',
      valid: true,
      smsAllowed: false,
      smsRefusal: expect.stringMatching(/^Kabari hanya mengirim SMS ke nomor di Indonesia\./),
    });
    const indonesian = await app().inject({
      method: 'GET',
      url: `/api/v1/numbers/lookup?number=${encodeURIComponent(freshNumber())}`,
      remoteAddress: nextAddress(),
    });
    expect(indonesian.json().data).toMatchObject({ countryCode: 'ID', smsAllowed: true });
    expect(indonesian.json().data).not.toHaveProperty('smsRefusal');
    const limit = await limitOf(requester, `channel=sms&number=${encodeURIComponent(NIGERIAN_NUMBER)}`);
    expect(limit.json().data.refusal).toEqual({
      rule: 'country',
      message: 'Kabari sends SMS only to numbers in Indonesia. Ask this person by email or with a link instead.',
      nextAllowedAt: null,
    });
  });

  it('keys the 3-hour slots by a keyed hash, never by the number or the address', async () => {
    const requester = await createRequester(app(), { displayName: 'Sari' });
    const number = freshNumber();
    const email = freshEmail();
    expect((await send(requester, 'sms', number)).statusCode).toBe(200);
    expect((await send(requester, 'email', email)).statusCode).toBe(200);
    const secret = app().auth.secrets.hmacSecret;
    const keys = (await app().db.select({ key: sendLimits.key }).from(sendLimits)).map((row) => row.key);
    expect(keys).toContain(`target:${keyedHash(secret, 'send-limit-target', number)}`);
    expect(keys).toContain(`target:${keyedHash(secret, 'send-limit-target', email)}`);
    for (const key of keys) {
      expect(key).not.toContain(number.slice(3));
      expect(key).not.toContain('@');
    }
    // And the slot still holds.
    const again = await send(requester, 'sms', number);
    expect(again.statusCode).toBe(429);
    expect(again.json().data.rule).toBe('target');
  });

  it('moves 3-hour slots stored under a raw number or address to their hash at start, dropping stale ones', async () => {
    // Real time: the slots' ages are measured against the database's clock (now()), which the tests' Date, started
    // at 12:00 UTC, is hours away from later in the day.
    jest.useRealTimers();
    const requester = await createRequester(app(), { displayName: 'Sari' });
    const recent = freshNumber();
    const recentEmail = freshEmail();
    const stale = freshNumber();
    await app()
      .db.insert(sendLimits)
      .values([
        { key: `target:${recent}`, lastSentAt: new Date(Date.now() - 60 * 60 * 1000) },
        { key: `target:${recentEmail}`, lastSentAt: new Date(Date.now() - 2 * 60 * 60 * 1000) },
        { key: `target:${stale}`, lastSentAt: new Date(Date.now() - 4 * 60 * 60 * 1000) },
      ]);

    await app().close();
    testApp.app = await buildApp(testApp.config, { logger: false, checkAnswers: true });
    await testApp.app.ready();

    const raw = await app()
      .db.select()
      .from(sendLimits)
      .where(and(like(sendLimits.key, 'target:%'), like(sendLimits.key, '%+%')));
    expect(raw).toEqual([]);
    expect(await app().db.select().from(sendLimits).where(like(sendLimits.key, '%@%'))).toEqual([]);
    const secret = app().auth.secrets.hmacSecret;
    const [moved] = await app()
      .db.select()
      .from(sendLimits)
      .where(eq(sendLimits.key, `target:${keyedHash(secret, 'send-limit-target', recent)}`));
    expect(Date.now() - moved!.lastSentAt.getTime()).toBeGreaterThan(59 * 60 * 1000);

    // The limit held across the upgrade for the recent ones; the stale one is free.
    const limited = await send(requester, 'sms', recent);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().data.rule).toBe('target');
    expect((await send(requester, 'email', recentEmail)).statusCode).toBe(429);
    expect((await send(requester, 'sms', stale)).statusCode).toBe(200);
  });
});

describeEachDatabase('the daily SMS budget', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { OPERATOR_EMAIL: OPERATOR, SMS_DAILY_BUDGET: '12' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;
  const send = (requester: TestRequester, channel: 'sms' | 'email', target: string, headers = {}) =>
    app().inject({
      method: 'POST',
      url: `/api/v1/requests/${channel}`,
      remoteAddress: nextAddress(),
      headers: { ...requester.headers, ...headers },
      payload: {
        ...(channel === 'sms' ? { number: target } : { email: target }),
        templateId: 'check-in',
        note: '',
        locale: 'en',
      },
    });
  const messagesTo = (recipient: string) =>
    app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, recipient));
  const limitOf = (requester: TestRequester, query: string) =>
    app().inject({
      method: 'GET',
      url: `/api/v1/requests/limit?${query}`,
      remoteAddress: nextAddress(),
      headers: requester.headers,
    });

  it('stops every SMS once the day’s budget is spent, even 20 at once, and emails the operator once', async () => {
    // 20 accounts, each well within its own limit: only the budget of 12 stops them.
    const requesters = await Promise.all(
      Array.from({ length: 20 }, (_, index) => createRequester(app(), { displayName: `Sender ${index}` })),
    );
    const responses = await Promise.all(requesters.map((requester) => send(requester, 'sms', freshNumber())));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(12);
    const refused = responses.filter((response) => response.statusCode === 429);
    expect(refused).toHaveLength(8);
    expect(refused.map((response) => response.json().data.rule)).toEqual(Array(8).fill('sms-budget'));
    expect(refused[0]!.json().message).toMatch(
      /^Kabari has sent all the SMS it can send today\. SMS requests are possible again in .+; requests by email or link still work\.$/,
    );

    const again = await send(requesters[0]!, 'sms', freshNumber(), { 'accept-language': 'id' });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^Kabari sudah mengirim semua SMS yang bisa dikirim hari ini\./);
    // One alert for the day, however many sends met the spent budget.
    const alerts = await messagesTo(OPERATOR);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toMatch(/^Kabari: the SMS budget of \d{4}-\d{2}-\d{2} is used up \(12 SMS\)$/);
    expect(alerts[0]!.bodyText).toContain('SMS_DAILY_BUDGET');

    // Told up front; email still works.
    const limit = await limitOf(requesters[1]!, `channel=sms&number=${encodeURIComponent(freshNumber())}`);
    expect(limit.json().data.refusal).toMatchObject({ rule: 'sms-budget' });
    expect((await send(requesters[1]!, 'email', freshEmail())).statusCode).toBe(200);

    // A new day (UTC) starts a new budget.
    await app()
      .db.update(dailySendCounts)
      .set({ day: sql`${dailySendCounts.day} - 1` })
      .where(eq(dailySendCounts.key, 'sms:all'));
    expect((await send(requesters[2]!, 'sms', freshNumber())).statusCode).toBe(200);
  });
});
