import { eq, sql } from 'drizzle-orm';
import {
  locationRequests,
  optOuts,
  positions,
  requestEvents,
  sendLimits,
} from '../../../src/db/schema/location-requests';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { TARGET_LIMIT_CHECKS } from '../../../src/requests/send-rules';
import { keyedHash } from '../../../src/lib/keyed-hash';
import { optOutKey } from '../../../src/requests/opt-outs';
import { requestTokenHash } from '../../../src/requests/request-tokens';
import { describeEachDatabase } from '../../support/databases';
import { tokenFromMessage } from '../../support/request-token';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';

const DAY = 24 * 60 * 60 * 1000;
let numberCounter = 10;
/** A fresh valid Indonesian mobile number per call, so tests do not share a send limit. */
let addressCounter = 0;
const nextAddress = () => `10.0.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;
const freshNumber = () => `+628123456${String(numberCounter++).padStart(4, '0')}`;

describeEachDatabase('location requests by SMS and email', (driver) => {
  let testApp: TestApp;
  let sari: TestRequester;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, {
      PUBLIC_URL: 'https://kabari.example',
      DEV_OUTBOX: 'true',
      DEV_TOOLS_TOKEN: 'requests-test-token-0123456789abcdef',
    });
    sari = await createRequester(testApp.app, { displayName: 'Sari Wulandari' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** A number's 3-hour slot: keyed by a keyed hash of the number. */
  const targetKey = (number: string) =>
    `target:${keyedHash(testApp.app.auth.secrets.hmacSecret, 'send-limit-target', number)}`;

  const inject = (
    requester: TestRequester | null,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    // Each call from its own address: the per-address rate limit is not what these tests are about.
  ) => testApp.app.inject({ method, url, payload, headers: requester?.headers ?? {}, remoteAddress: nextAddress() });

  const sendSms = (requester: TestRequester, number: string, extra: Record<string, unknown> = {}) =>
    inject(requester, 'POST', '/api/v1/requests/sms', {
      number,
      templateId: 'check-in',
      note: 'Are you home yet?',
      locale: 'en',
      ...extra,
    });

  describe('templates and preview', () => {
    it('lists the templates in both languages, each default note short enough for an SMS', async () => {
      for (const locale of ['en', 'id']) {
        const response = await inject(null, 'GET', `/api/v1/requests/templates?channel=sms&locale=${locale}`);
        expect(response.statusCode).toBe(200);
        const items = response.json().data.items;
        expect(items.map((item: { id: string }) => item.id)).toEqual(['check-in', 'meet-up', 'keep-in-touch']);
        for (const item of items) {
          expect(item).toMatchObject({ channel: 'sms', locale });
          expect(item.defaultNote.length).toBeLessThanOrEqual(80);
        }
        expect(response.json().data.noteMaxLength).toBe(80);
      }
    });

    it('gives each channel its own note limit, the one the preview and the send enforce', async () => {
      const email = await inject(null, 'GET', '/api/v1/requests/templates?channel=email&locale=en');
      const limit = email.json().data.noteMaxLength;
      expect(limit).toBe(500);
      const preview = (note: string) =>
        inject(sari, 'POST', '/api/v1/requests/preview', {
          channel: 'email',
          templateId: 'check-in',
          note,
          locale: 'en',
        });
      expect((await preview('a'.repeat(limit))).statusCode).toBe(200);
      expect((await preview('a'.repeat(limit + 1))).statusCode).toBe(400);
    });

    it('previews the exact SMS: the requester by name, the note, the consent and opt-out links', async () => {
      const response = await inject(sari, 'POST', '/api/v1/requests/preview', {
        channel: 'sms',
        templateId: 'check-in',
        note: 'Are you home yet?',
        locale: 'en',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({
        text:
          'Kabari: Sari Wulandari asks to see your location. Note: "Are you home yet?" Share or decline: ' +
          'https://kabari.example/enter-link?token=%E2%80%A6 Stop all requests: ' +
          'https://kabari.example/enter-link?token=%E2%80%A6&action=opt-out ' +
          'All requests to you: https://kabari.example/my-requests',
      });
    });

    it('previews an Indonesian email with its subject and the /id consent page', async () => {
      const response = await inject(sari, 'POST', '/api/v1/requests/preview', {
        channel: 'email',
        templateId: 'meet-up',
        note: 'Kita ketemu di stasiun ya.',
        locale: 'id',
      });
      expect(response.statusCode).toBe(200);
      const { subject, text } = response.json().data;
      expect(subject).toBe('Sari Wulandari ingin melihat lokasi Anda');
      expect(text).toContain('Sari Wulandari memakai Kabari');
      expect(text).toContain('Kita ketemu di stasiun ya.');
      expect(text).toContain('https://kabari.example/id/enter-link?token=');
      expect(text).toContain('&action=opt-out');
    });

    it('refuses a note with a link, a too long SMS note, and an anonymous caller', async () => {
      const withLink = await inject(sari, 'POST', '/api/v1/requests/preview', {
        channel: 'email',
        templateId: 'check-in',
        note: 'Log in at https://bank.example to confirm',
        locale: 'en',
      });
      expect(withLink.statusCode).toBe(400);
      expect(withLink.json().message).toMatch(/cannot contain links/);
      const tooLong = await inject(sari, 'POST', '/api/v1/requests/preview', {
        channel: 'sms',
        templateId: 'check-in',
        note: 'x'.repeat(81),
        locale: 'en',
      });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().message).toBe('The note can be at most 80 characters in an SMS');
      const anonymous = await inject(null, 'POST', '/api/v1/requests/preview', {
        channel: 'sms',
        templateId: 'check-in',
        note: '',
        locale: 'en',
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('sending', () => {
    it('sends an SMS through the local outbox and shows it as kept in the outbox, not as sent', async () => {
      const number = freshNumber();
      const response = await sendSms(sari, number.replace('+62', '0'), { country: 'ID' });
      expect(response.statusCode).toBe(200);
      const request = response.json().data.request;
      expect(request).toMatchObject({
        channel: 'sms',
        target: number,
        title: null,
        url: null,
        status: 'pending',
        consent: 'none',
        // No SMS provider in tests: the message stays in the local outbox, and the requester is told so.
        delivery: 'outbox',
        openedTime: null,
        lastPosition: null,
      });
      expect(new Date(request.expiresAt).getTime() - Date.now()).toBeGreaterThan(7 * DAY - 60_000);

      const [row] = await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, request.id));
      const token = await tokenFromMessage(testApp.app.db, request.id);
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      // The request keeps only the token's hash: nothing that opens the link.
      expect(row).toMatchObject({ tokenHash: requestTokenHash(token), tokenCipher: null, legacyToken: null });
      expect(JSON.stringify(row)).not.toContain(token);
      const [message] = await testApp.app.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.id, row!.messageId!));
      // In the local outbox the message stays whole: reading it there is how a local trial opens the link.
      expect(message).toMatchObject({ channel: 'sms', recipient: number, state: 'sent', transport: 'local' });
      expect(message!.bodyText).toContain('Sari Wulandari asks to see your location');
      expect(message!.bodyText).toContain(`https://kabari.example/enter-link?token=${token} `);
      expect(message!.bodyText).toContain(`https://kabari.example/enter-link?token=${token}&action=opt-out`);

      // The owner's live stream hears of it.
      const events = await testApp.app.db.select().from(requestEvents).where(eq(requestEvents.requestId, request.id));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'request', userId: sari.userId });

      // /dev/outbox shows the SMS.
      const outbox = await inject(
        null,
        'GET',
        `/dev/outbox?recipient=${encodeURIComponent(number)}&format=json&token=${testApp.config.devTools.token}`,
      );
      expect(outbox.json().data).toEqual([
        expect.objectContaining({ channel: 'sms', recipient: number, bodyText: message!.bodyText }),
      ]);
    });

    it('accepts exactly one of 20 concurrent sends to one number, from different requesters', async () => {
      const number = freshNumber();
      const requesters = await Promise.all(
        Array.from({ length: 20 }, (_, index) => createRequester(testApp.app, { displayName: `Requester ${index}` })),
      );
      const responses = await Promise.all(requesters.map((requester) => sendSms(requester, number)));
      const codes = responses.map((response) => response.statusCode).sort();
      expect(codes.filter((code) => code === 200)).toHaveLength(1);
      expect(codes.filter((code) => code === 429)).toHaveLength(19);
      const refusal = responses.find((response) => response.statusCode === 429)!;
      const next = new Date(refusal.json().data.nextAllowedAt).getTime();
      expect(next).toBeGreaterThan(Date.now() + 3 * 60 * 60 * 1000 - 60_000);
      expect(next).toBeLessThanOrEqual(Date.now() + 3 * 60 * 60 * 1000);
      expect(refusal.json().message).toMatch(/^Kabari sends one request to the same number every 3 hours\. The next/);
      expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(3 * 60 * 60 - 60);

      const requests = await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.target, number));
      expect(requests).toHaveLength(1);
      const messages = await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, number));
      expect(messages).toHaveLength(1);
    });

    it('tells the limit before sending, and allows the next send once the window has passed', async () => {
      const number = freshNumber();
      const limitUrl = `/api/v1/requests/limit?channel=sms&number=${encodeURIComponent(number)}`;
      // Without Twilio, WhatsApp is offered too: the local outbox keeps it as it keeps SMS.
      expect((await inject(sari, 'GET', limitUrl)).json().data).toEqual({
        nextAllowedAt: null,
        optedOut: false,
        whatsapp: true,
      });
      expect((await sendSms(sari, number)).statusCode).toBe(200);
      const limited = (await inject(sari, 'GET', limitUrl)).json().data;
      expect(new Date(limited.nextAllowedAt).getTime()).toBeGreaterThan(Date.now());

      await testApp.app.db
        .update(sendLimits)
        .set({ lastSentAt: sql`now() - interval '3 hours 1 second'` })
        .where(eq(sendLimits.key, targetKey(number)));
      expect((await inject(sari, 'GET', limitUrl)).json().data.nextAllowedAt).toBeNull();
      expect((await sendSms(sari, number)).statusCode).toBe(200);
    });

    it("tells a target's limit only to subscribers, a limited number of times per account", async () => {
      const url = (number: string) => `/api/v1/requests/limit?channel=sms&number=${encodeURIComponent(number)}`;
      const never = await createRequester(testApp.app, { subscription: null });
      const lapsed = await createRequester(testApp.app, {
        subscription: { status: 'active', validUntil: new Date(Date.now() - 1000) },
      });
      for (const requester of [never, lapsed]) {
        const refused = await inject(requester, 'GET', url(freshNumber()));
        expect(refused.statusCode).toBe(403);
        const email = await inject(requester, 'GET', '/api/v1/requests/limit?channel=email&email=a%40example.com');
        expect(email.statusCode).toBe(403);
        // Their own link limit is theirs to know.
        expect((await inject(requester, 'GET', '/api/v1/requests/limit?channel=link')).statusCode).toBe(200);
      }

      // Every check counts, whichever address it comes from; the budget is the account's, kept in the database.
      const prober = await createRequester(testApp.app, {});
      for (let index = 0; index < TARGET_LIMIT_CHECKS.limit; index++) {
        expect((await inject(prober, 'GET', url(freshNumber()))).statusCode).toBe(200);
      }
      const stopped = await testApp.app.inject({
        method: 'GET',
        url: url(freshNumber()),
        headers: { ...prober.headers, 'accept-language': 'id' },
        remoteAddress: nextAddress(),
      });
      expect(stopped.statusCode).toBe(429);
      expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(0);
      expect(stopped.json().message).toMatch(/^Terlalu banyak permintaan\. Silakan coba lagi dalam \d+ menit\.$/);
      // Another subscriber is not affected, and the prober's own link limit still answers.
      expect((await inject(sari, 'GET', url(freshNumber()))).statusCode).toBe(200);
      expect((await inject(prober, 'GET', '/api/v1/requests/limit?channel=link')).statusCode).toBe(200);
    });

    it('never messages a number that opted out, and says so plainly', async () => {
      const number = freshNumber();
      await testApp.app.db
        .insert(optOuts)
        .values({ targetHash: optOutKey(testApp.app.auth.secrets.hmacSecret, number), channel: 'sms' });
      const response = await sendSms(sari, number);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        'This number has opted out of location requests. Kabari will not message it.',
      );
      expect(await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, number))).toEqual(
        [],
      );
      // The refusal took no send slot either.
      expect(
        await testApp.app.db
          .select()
          .from(sendLimits)
          .where(eq(sendLimits.key, targetKey(number))),
      ).toEqual([]);
      const limit = await inject(
        sari,
        'GET',
        `/api/v1/requests/limit?channel=sms&number=${encodeURIComponent(number)}`,
      );
      expect(limit.json().data).toEqual({ nextAllowedAt: null, optedOut: true, whatsapp: true });
    });

    it('sends an email request in Indonesian, and respects an email opt-out', async () => {
      const response = await inject(sari, 'POST', '/api/v1/requests/email', {
        email: 'Budi@Example.com',
        templateId: 'keep-in-touch',
        note: 'Kabari aku ya.',
        locale: 'id',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.request).toMatchObject({
        channel: 'email',
        target: 'budi@example.com',
        delivery: 'outbox',
      });
      const [message] = await testApp.app.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.recipient, 'budi@example.com'));
      expect(message!.subject).toBe('Sari Wulandari ingin melihat lokasi Anda');
      expect(message!.bodyText).toContain('https://kabari.example/id/enter-link?token=');
      expect(message!.bodyHtml).toContain('Kabari aku ya.');

      const again = await inject(sari, 'POST', '/api/v1/requests/email', {
        email: 'budi@example.com',
        templateId: 'check-in',
        note: '',
        locale: 'en',
      });
      expect(again.statusCode).toBe(429);
      expect(again.json().message).toMatch(/same email address every 3 hours/);

      await testApp.app.db
        .insert(optOuts)
        .values({ targetHash: optOutKey(testApp.app.auth.secrets.hmacSecret, 'sinta@example.com'), channel: 'email' });
      const optedOut = await inject(sari, 'POST', '/api/v1/requests/email', {
        email: 'sinta@example.com',
        templateId: 'check-in',
        note: '',
        locale: 'en',
      });
      expect(optedOut.statusCode).toBe(409);
    });

    it('refuses numbers that cannot take an SMS, with the form messages', async () => {
      const empty = await sendSms(sari, '  ');
      expect(empty.json()).toMatchObject({ status: 400, message: 'Please enter a number' });
      const fixedLine = await sendSms(sari, '+62215551234');
      expect(fixedLine.json()).toMatchObject({ status: 400, message: 'Please enter a valid mobile number' });
      const invalid = await sendSms(sari, '+62 12');
      expect(invalid.json()).toMatchObject({ status: 400, message: 'Please enter a valid mobile number' });
    });

    it('lets only subscribers whose subscription runs send', async () => {
      const expired = await createRequester(testApp.app, {
        subscription: { status: 'expired', validUntil: new Date(Date.now() - DAY) },
      });
      const lapsed = await createRequester(testApp.app, {
        subscription: { status: 'active', validUntil: new Date(Date.now() - 1000) },
      });
      const never = await createRequester(testApp.app, { subscription: null });
      for (const requester of [expired, lapsed, never]) {
        const response = await sendSms(requester, freshNumber());
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe('Your subscription has expired. Renew it to send location requests.');
      }
      // Cancelled keeps access until valid_until; a trial has it too.
      for (const status of ['cancelled', 'trial'] as const) {
        const requester = await createRequester(testApp.app, {
          subscription: { status, validUntil: new Date(Date.now() + DAY) },
        });
        expect((await sendSms(requester, freshNumber())).statusCode).toBe(200);
      }
      expect((await sendSms(sari, freshNumber(), {})).statusCode).toBe(200);
      const anonymous = await inject(null, 'POST', '/api/v1/requests/sms', {
        number: freshNumber(),
        templateId: 'check-in',
        note: '',
        locale: 'en',
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('free text that reaches a message', () => {
    it('refuses a note carrying a link under any top-level domain, or an email address, and sends nothing', async () => {
      for (const note of [
        'Verify at bca-verify.top/login',
        'Promo di diskon.shop',
        'Chat me on wa.me/6281234567890',
        'Tulis ke cs@bca-help.top',
        'Buka ｂｃａ－ｖｅｒｉｆｙ．ｔｏｐ',
      ]) {
        const number = freshNumber();
        const response = await sendSms(sari, number, { note });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/^The note cannot contain links or email addresses \(.+\)/);
        expect(await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, number))).toEqual(
          [],
        );
      }
      const email = await inject(sari, 'POST', '/api/v1/requests/email', {
        email: 'ibu@example.com',
        templateId: 'check-in',
        note: 'Silakan login di https://bank-aman.online untuk verifikasi',
        locale: 'id',
      });
      expect(email.statusCode).toBe(400);
      expect(email.json().message).toContain('(https://bank-aman.online)');
    });

    it('refuses a note carrying a phone number, in SMS and email, and sends nothing; times and years go', async () => {
      for (const note of [
        'BCA: rekening diblokir, hubungi 0812 3456 7890',
        'Call 0812-3456-7890 now',
        'WA +62 812 3456 7890',
        'Halo BCA 1500888',
      ]) {
        const number = freshNumber();
        const response = await sendSms(sari, number, { note });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/^The note cannot contain phone numbers \(.+\)/);
        expect(await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, number))).toEqual(
          [],
        );
      }
      const email = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/requests/email',
        headers: { ...sari.headers, 'accept-language': 'id' },
        remoteAddress: nextAddress(),
        payload: {
          email: 'ibu-nomor@example.com',
          templateId: 'check-in',
          note: 'Rekening Ibu diblokir. Segera telepon +62 21 500 888 untuk membukanya.',
          locale: 'id',
        },
      });
      expect(email.statusCode).toBe(400);
      expect(email.json().message).toBe(
        'Catatan tidak boleh berisi nomor telepon (+62 21 500 888): penerima menjawab lewat tautan di pesan itu sendiri',
      );
      expect(
        await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, 'ibu-nomor@example.com')),
      ).toEqual([]);

      const sent = await sendSms(sari, freshNumber(), { note: "Mum, it's 5 pm. Home by 17.30? Since 2019!" });
      expect(sent.statusCode).toBe(200);
    });

    it('refuses to send for a requester whose stored name passes for a bank', async () => {
      const phisher = await createRequester(testApp.app, { displayName: 'Bank BCA Security' });
      const number = freshNumber();
      const sms = await sendSms(phisher, number);
      expect(sms.statusCode).toBe(400);
      expect(sms.json().message).toBe(
        'Your display name cannot appear in a message to someone else: a name cannot contain the name of a bank or ' +
          "a payment service, nor Kabari's. Change it in My subscription, under Account, then send again.",
      );
      expect(await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, number))).toEqual(
        [],
      );
    });

    it('refuses to send for a requester whose stored name is no longer a name, saying how to change it', async () => {
      const phisher = await createRequester(testApp.app, {
        displayName: 'BCA Bank - verify: https://bca-verify.top/login',
      });
      const number = freshNumber();
      const preview = await inject(phisher, 'POST', '/api/v1/requests/preview', {
        channel: 'sms',
        templateId: 'check-in',
        note: '',
        locale: 'en',
      });
      expect(preview.statusCode).toBe(400);
      expect(preview.json().message).toBe(
        'Your display name cannot appear in a message to someone else: a name cannot contain a web address or an ' +
          'email address. Change it in My subscription, under Account, then send again.',
      );
      const sms = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/requests/sms',
        headers: { ...phisher.headers, 'accept-language': 'id' },
        remoteAddress: nextAddress(),
        payload: { number, templateId: 'check-in', note: '', locale: 'id' },
      });
      expect(sms.statusCode).toBe(400);
      expect(sms.json().message).toMatch(/^Nama tampilan Anda tidak bisa dipakai dalam pesan kepada orang lain/);
      const email = await inject(phisher, 'POST', '/api/v1/requests/email', {
        email: 'korban@example.com',
        templateId: 'check-in',
        note: '',
        locale: 'en',
      });
      expect(email.statusCode).toBe(400);
      expect(await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, number))).toEqual(
        [],
      );

      // The account screen takes a real name, and sending works again.
      const renamed = await inject(phisher, 'POST', '/api/v1/personnal/account/profile', { displayName: 'Budi' });
      expect(renamed.statusCode).toBe(200);
      const sent = await sendSms(phisher, number);
      expect(sent.statusCode).toBe(200);
      const [message] = await testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, number));
      expect(message!.bodyText).toMatch(/^Kabari: Budi asks to see your location\./);
    });
  });

  describe('history', () => {
    it('pages the owner’s requests newest first, with the last position; others see none of them', async () => {
      const owner = await createRequester(testApp.app, { displayName: 'Rina' });
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        const response = await sendSms(owner, freshNumber());
        ids.push(response.json().data.request.id);
      }
      await testApp.app.db.insert(positions).values([
        { requestId: ids[4]!, source: 'ip', latitude: -6.2, longitude: 106.8, recordedAt: new Date(Date.now() - 1000) },
        {
          requestId: ids[4]!,
          source: 'gps',
          latitude: -6.21,
          longitude: 106.85,
          accuracyMeters: 12,
          address: 'Jakarta',
          recordedAt: new Date(),
        },
      ]);

      const first = (await inject(owner, 'GET', '/api/v1/requests?page=1&pageSize=2')).json().data;
      expect(first.total).toBe(5);
      expect(first.page).toBe(1);
      expect(first.pageSize).toBe(2);
      expect(first.items.map((item: { id: string }) => item.id)).toEqual([ids[4], ids[3]]);
      expect(first.items[0].lastPosition).toMatchObject({ source: 'gps', latitude: -6.21, address: 'Jakarta' });
      expect(first.items[1].lastPosition).toBeNull();
      const last = (await inject(owner, 'GET', '/api/v1/requests?page=3&pageSize=2')).json().data;
      expect(last.items.map((item: { id: string }) => item.id)).toEqual([ids[0]]);
      // The last page's total is known from the page itself; a page past the end counts.
      expect(last.total).toBe(5);
      const past = (await inject(owner, 'GET', '/api/v1/requests?page=4&pageSize=2')).json().data;
      expect(past).toEqual({ items: [], total: 5, page: 4, pageSize: 2 });
      expect((await inject(owner, 'GET', '/api/v1/requests?page=1&pageSize=10')).json().data.total).toBe(5);

      const other = await createRequester(testApp.app);
      const theirs = (await inject(other, 'GET', '/api/v1/requests')).json().data;
      expect(theirs).toEqual({ items: [], total: 0, page: 1, pageSize: 10 });
      expect((await inject(null, 'GET', '/api/v1/requests')).statusCode).toBe(401);
    });

    it('gives the last position’s place parts, for the reader’s language; null on a position stored before them', async () => {
      const owner = await createRequester(testApp.app, { displayName: 'Sari' });
      const placed = (await sendSms(owner, freshNumber())).json().data.request.id;
      const older = (await sendSms(owner, freshNumber())).json().data.request.id;
      await testApp.app.db.insert(positions).values([
        {
          requestId: placed,
          source: 'gps',
          latitude: 35.68,
          longitude: 139.76,
          accuracyMeters: 20,
          address: '3 km from Tokyo, Japan',
          place: { name: 'Tokyo', countryCode: 'JP', distanceKm: 3 },
          recordedAt: new Date(),
        },
        {
          requestId: older,
          source: 'ip',
          latitude: -6.2,
          longitude: 106.8,
          address: 'Jakarta',
          recordedAt: new Date(),
        },
      ]);
      const { items } = (await inject(owner, 'GET', '/api/v1/requests')).json().data;
      const byId = new Map(items.map((item: { id: string }) => [item.id, item]));
      expect(byId.get(placed)).toMatchObject({
        lastPosition: {
          address: '3 km from Tokyo, Japan',
          place: { name: 'Tokyo', countryCode: 'JP', distanceKm: 3 },
        },
      });
      expect(byId.get(older)).toMatchObject({ lastPosition: { address: 'Jakarta', place: null } });
    });

    it('lets the owner cancel a pending SMS or email request, says when nothing changed, and hides it from others', async () => {
      const owner = await createRequester(testApp.app);
      const other = await createRequester(testApp.app);
      const id = (await sendSms(owner, freshNumber())).json().data.request.id;
      const byStranger = await inject(other, 'POST', `/api/v1/requests/${id}/cancel`);
      expect(byStranger.statusCode).toBe(404);
      expect(
        (await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, id)))[0]!.consent,
      ).toBe('none');

      const cancelled = await inject(owner, 'POST', `/api/v1/requests/${id}/cancel`);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().data).toMatchObject({ cancelled: true, request: { id, consent: 'cancelled' } });
      const again = await inject(owner, 'POST', `/api/v1/requests/${id}/cancel`);
      expect(again.json().data).toMatchObject({ cancelled: false, request: { id, consent: 'cancelled' } });

      // A declined request stays declined: the answer says nothing was cancelled.
      const email = `declined-${numberCounter}@example.com`;
      const declined = (
        await inject(owner, 'POST', '/api/v1/requests/email', { email, templateId: 'check-in', note: '', locale: 'en' })
      ).json().data.request.id;
      await testApp.app.db
        .update(locationRequests)
        .set({ consent: 'declined' })
        .where(eq(locationRequests.id, declined));
      const refused = await inject(owner, 'POST', `/api/v1/requests/${declined}/cancel`);
      expect(refused.json().data).toMatchObject({ cancelled: false, request: { consent: 'declined' } });
      expect((await inject(null, 'POST', `/api/v1/requests/${id}/cancel`)).statusCode).toBe(401);
    });

    it('answers every refusal in Indonesian for an Indonesian page', async () => {
      const inIndonesian = (requester: TestRequester | null, method: 'GET' | 'POST', url: string, payload?: object) =>
        testApp.app.inject({
          method,
          url,
          payload,
          headers: { ...(requester?.headers ?? {}), 'accept-language': 'id-ID,id;q=0.9' },
          remoteAddress: nextAddress(),
        });
      const sms = (number: string, note = '') => ({ number, templateId: 'check-in', note, locale: 'id' });
      const number = freshNumber();
      expect((await sendSms(sari, number)).statusCode).toBe(200);
      const limited = await inIndonesian(sari, 'POST', '/api/v1/requests/sms', sms(number));
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(
        /^Kabari mengirim satu permintaan ke nomor yang sama setiap 3 jam\. Permintaan berikutnya bisa dikirim dalam \d+ menit\.$/,
      );

      await testApp.app.db.insert(optOuts).values({
        targetHash: optOutKey(testApp.app.auth.secrets.hmacSecret, 'sinta-id@example.com'),
        channel: 'email',
      });
      const optedOut = await inIndonesian(sari, 'POST', '/api/v1/requests/email', {
        email: 'sinta-id@example.com',
        templateId: 'check-in',
        note: '',
        locale: 'id',
      });
      expect(optedOut.json()).toMatchObject({
        status: 409,
        message: expect.stringMatching(/^Alamat email ini sudah menolak/),
      });

      const expired = await createRequester(testApp.app, { subscription: null });
      const refused = await inIndonesian(expired, 'POST', '/api/v1/requests/sms', sms(freshNumber()));
      // The refusal says it is the subscription's: the app shows its expired state for this 403 only.
      expect(refused.json()).toEqual({
        status: 403,
        message: 'Langganan Anda sudah berakhir. Perpanjang untuk mengirim permintaan lokasi.',
        data: { refusal: 'subscription-needed' },
      });

      const withLink = await inIndonesian(sari, 'POST', '/api/v1/requests/sms', sms(freshNumber(), 'lihat bit.ly/x'));
      expect(withLink.json().message).toMatch(/^Catatan tidak boleh berisi tautan/);
      expect((await inIndonesian(sari, 'POST', '/api/v1/requests/sms', sms('  '))).json().message).toBe(
        'Silakan masukkan nomor',
      );
      const missing = await inIndonesian(sari, 'POST', '/api/v1/requests/00000000-0000-4000-8000-000000000000/cancel');
      expect(missing.json()).toMatchObject({ status: 404, message: 'Permintaan tidak ditemukan.' });
      const untitled = await inIndonesian(sari, 'POST', '/api/v1/links', { title: ' ', locale: 'id' });
      expect(untitled.json()).toMatchObject({ status: 400, message: 'Silakan isi judul' });
    });

    it('deletes a request with its positions for its owner only', async () => {
      const owner = await createRequester(testApp.app);
      const id = (await sendSms(owner, freshNumber())).json().data.request.id;
      await testApp.app.db
        .insert(positions)
        .values({ requestId: id, source: 'ip', latitude: 1, longitude: 2, recordedAt: new Date() });

      const other = await createRequester(testApp.app);
      const stranger = await inject(other, 'DELETE', `/api/v1/requests/${id}`);
      expect(stranger.statusCode).toBe(404);
      expect(stranger.json().message).toBe('Request not found.');
      const cancelByStranger = await inject(other, 'POST', `/api/v1/links/${id}/cancel`);
      expect(cancelByStranger.statusCode).toBe(404);
      expect(await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, id))).toHaveLength(1);

      const response = await inject(owner, 'DELETE', `/api/v1/requests/${id}`);
      expect(response.json()).toMatchObject({ status: 200, data: { success: true } });
      expect(await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, id))).toEqual([]);
      expect(await testApp.app.db.select().from(positions).where(eq(positions.requestId, id))).toEqual([]);
      expect((await inject(owner, 'DELETE', `/api/v1/requests/${id}`)).statusCode).toBe(404);
    });
  });
});
