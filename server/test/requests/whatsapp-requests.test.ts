import { and, eq } from 'drizzle-orm';
import { dailySendCounts, locationRequests } from '../../src/db/schema/location-requests';
import { outboxMessages } from '../../src/db/schema/outbox';
import { EMPTY_TWIML } from '../../src/messages/twilio-inbound';
import { TWILIO_STATUS_PATH } from '../../src/messages/twilio-status';
import { isOptedOut } from '../../src/requests/opt-outs';
import { sendDay } from '../../src/requests/daily-send-counts';
import { createRequester, type TestRequester } from '../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../support/test-app';
import { buildTwilioTestApp, TWILIO_REFUSALS, type FakeTwilio, type TwilioTestApp } from '../support/fake-twilio';

// A location request by WhatsApp, through a local fake of Twilio (a real HTTP server the SDK sends to, which posts
// signed status callbacks and replies back): the approved template and its variables, the receipts (read too), the
// one SMS sent instead when the number has no WhatsApp, and the opt-out by a WhatsApp reply.

const PUBLIC_URL = 'https://kabari.example';
const CALLBACK_URL = `${PUBLIC_URL}${TWILIO_STATUS_PATH}`;
const TEMPLATE_EN = `HX${'a'.repeat(32)}`;
const TEMPLATE_ID = `HX${'b'.repeat(32)}`;
const TWILIO = {
  TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
  TWILIO_AUTH_TOKEN: 'test-auth-token',
  TWILIO_FROM: '+15005550006',
  PUBLIC_URL,
};
const WHATSAPP = {
  TWILIO_WHATSAPP_FROM: '+14155238886',
  TWILIO_WHATSAPP_TEMPLATE_EN: TEMPLATE_EN,
  TWILIO_WHATSAPP_TEMPLATE_ID: TEMPLATE_ID,
};

type Fields = Record<string, string | undefined>;

describe('location requests by WhatsApp (Twilio configured with a WhatsApp sender)', () => {
  let setup: TwilioTestApp;
  let testApp: TestApp;
  let twilio: FakeTwilio;
  let requester: TestRequester;
  let numbers = 0;
  const nextNumber = () => `+62812345671${String(++numbers).padStart(2, '0')}`;

  beforeAll(async () => {
    setup = await buildTwilioTestApp({ ...TWILIO, ...WHATSAPP, SMS_PER_ACCOUNT_PER_DAY: '20' });
    ({ testApp, twilio } = setup);
    requester = await createRequester(testApp.app, { displayName: 'Sari' });
  });

  afterAll(async () => {
    await setup?.close();
  });

  const send = (payload: Record<string, unknown>, who: TestRequester = requester) =>
    testApp.app.inject({ method: 'POST', url: '/api/v1/requests/sms', headers: who.headers, payload });

  /** A request by WhatsApp, handed to the fake Twilio: its id, and what Twilio was sent. */
  async function sentByWhatsApp(locale: 'en' | 'id' = 'en', who: TestRequester = requester) {
    const number = nextNumber();
    const response = await send({ channel: 'whatsapp', number, templateId: 'check-in', locale, note: 'Home?' }, who);
    expect(response.statusCode).toBe(200);
    const before = twilio.messages.length;
    await testApp.app.outbox.dispatchDue();
    return {
      number,
      requestId: response.json().data.request.id as string,
      sent: twilio.messages.slice(before).map((request) => request.fields as Fields),
    };
  }

  async function sidOf(requestId: string): Promise<string> {
    const [row] = await testApp.app.db
      .select({ sid: outboxMessages.providerRef })
      .from(locationRequests)
      .innerJoin(outboxMessages, eq(outboxMessages.id, locationRequests.messageId))
      .where(eq(locationRequests.id, requestId));
    return row!.sid!;
  }

  /** The fake Twilio posts the message's signed status callback; the server's answer. */
  const receipt = async (sid: string, status: string, errorCode?: string) => {
    const answer = await twilio.statusCallback(sid, status, { errorCode });
    return { statusCode: answer.status, json: () => JSON.parse(answer.body) };
  };

  async function viewOf(requestId: string, who: TestRequester = requester) {
    const list = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/requests?pageSize=50',
      headers: who.headers,
    });
    const item = list.json().data.items.find((each: { id: string }) => each.id === requestId);
    return {
      channel: item.channel,
      delivery: item.delivery,
      deliveryFailure: item.deliveryFailure,
      whatsapp: item.whatsapp,
    };
  }

  const smsCountOf = async (userId: string) =>
    (
      await testApp.app.db
        .select({ count: dailySendCounts.count })
        .from(dailySendCounts)
        .where(and(eq(dailySendCounts.key, `sms:account:${userId}`), eq(dailySendCounts.day, sendDay())))
    )[0]?.count ?? 0;

  it('says WhatsApp is offered, and sends the approved template of the language with its variables', async () => {
    const limit = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/requests/limit?channel=sms&number=${encodeURIComponent(nextNumber())}`,
      headers: requester.headers,
    });
    expect(limit.json().data.whatsapp).toBe(true);
    // Said by the link check too, for the page that has no number yet.
    const linkCheck = await testApp.app.inject({
      url: '/api/v1/requests/limit?channel=link',
      headers: requester.headers,
    });
    expect(linkCheck.json().data.whatsapp).toBe(true);

    const { number, requestId, sent } = await sentByWhatsApp('en');
    expect(sent).toHaveLength(1);
    const [message] = sent;
    expect(message).toMatchObject({
      To: `whatsapp:${number}`,
      From: 'whatsapp:+14155238886',
      ContentSid: TEMPLATE_EN,
      StatusCallback: CALLBACK_URL,
    });
    expect(message!.Body).toBeUndefined();
    const variables = JSON.parse(message!.ContentVariables!) as Record<string, string>;
    expect(variables['1']).toBe('Sari');
    expect(variables['2']).toMatch(/^https:\/\/kabari\.example\/enter-link\?token=[\w-]{20,}$/);
    expect(variables['3']).toMatch(
      /^Stop all requests: https:\/\/kabari\.example\/enter-link\?token=[\w-]+&action=opt-out All requests to you: https:\/\/kabari\.example\/my-requests$/,
    );
    expect(await viewOf(requestId)).toEqual({
      channel: 'sms',
      delivery: 'sent',
      deliveryFailure: null,
      whatsapp: { fallback: null },
    });
    // Once Twilio has it, our copy keeps no consent link.
    const [stored] = await testApp.app.db
      .select({ channel: outboxMessages.channel, body: outboxMessages.bodyText })
      .from(outboxMessages)
      .where(eq(outboxMessages.providerRef, await sidOf(requestId)));
    expect(stored?.channel).toBe('whatsapp');
    expect(stored?.body).not.toMatch(/token=(?!\[token\])/);

    const indonesian = await sentByWhatsApp('id');
    expect(indonesian.sent[0]).toMatchObject({ ContentSid: TEMPLATE_ID });
    expect(JSON.parse(indonesian.sent[0]!.ContentVariables!)['3']).toMatch(
      /^Tolak semua permintaan: https:\/\/kabari\.example\/id\/enter-link/,
    );
  });

  it('records delivered then read, shown to the requester; a late or replayed status changes nothing', async () => {
    const { requestId } = await sentByWhatsApp();
    const sid = await sidOf(requestId);
    expect((await receipt(sid, 'delivered')).json().data.recorded).toBe(true);
    expect((await viewOf(requestId)).delivery).toBe('delivered');
    expect((await receipt(sid, 'read')).json().data.recorded).toBe(true);
    expect((await viewOf(requestId)).delivery).toBe('read');
    for (const late of ['delivered', 'sent', 'read']) {
      expect((await receipt(sid, late)).json().data.recorded).toBe(false);
    }
    expect(await viewOf(requestId)).toMatchObject({ delivery: 'read', whatsapp: { fallback: null } });
  });

  /** A reply as the fake Twilio posts it to the inbound webhook: from `whatsapp:+…`, signed. */
  const whatsAppReply = async (from: string, body: string) => {
    const answer = await twilio.incoming(`whatsapp:${from}`, body);
    return { statusCode: answer.status, body: answer.body };
  };

  it('opts the number out on a WhatsApp reply BERHENTI and confirms once, by WhatsApp, as free text', async () => {
    const { number, requestId } = await sentByWhatsApp('id');
    const before = twilio.messages.length;
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await whatsAppReply(number, 'Berhenti');
      expect([answer.statusCode, answer.body]).toEqual([200, EMPTY_TWIML]);
    }
    expect(await isOptedOut(testApp.app.db, testApp.app.auth.secrets.hmacSecret, number)).toBe(true);
    const list = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/requests?pageSize=50',
      headers: requester.headers,
    });
    expect(list.json().data.items.find((item: { id: string }) => item.id === requestId).consent).toBe('declined');

    await testApp.app.outbox.dispatchDue();
    const sent = twilio.messages.slice(before).map((request) => request.fields as Fields);
    expect(sent).toEqual([
      expect.objectContaining({
        To: `whatsapp:${number}`,
        From: `whatsapp:${WHATSAPP.TWILIO_WHATSAPP_FROM}`,
        Body: expect.stringMatching(/^Kabari: selesai\. /),
      }),
    ]);
    expect(sent[0]!.ContentSid).toBeUndefined();
    // Nothing went by SMS.
    const sms = await testApp.app.db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.recipient, number), eq(outboxMessages.channel, 'sms')));
    expect(sms).toEqual([]);
  });

  it('does nothing for a WhatsApp reply from a number Kabari never wrote to', async () => {
    const stranger = nextNumber();
    const before = twilio.messages.length;
    const answer = await whatsAppReply(stranger, 'STOP');
    expect([answer.statusCode, answer.body]).toEqual([200, EMPTY_TWIML]);
    expect(await isOptedOut(testApp.app.db, testApp.app.auth.secrets.hmacSecret, stranger)).toBe(false);
    await testApp.app.outbox.dispatchDue();
    expect(twilio.messages.length).toBe(before);
  });

  it('keeps read when delivered arrives after it (out of order)', async () => {
    const { requestId } = await sentByWhatsApp();
    const sid = await sidOf(requestId);
    expect((await receipt(sid, 'read')).json().data.recorded).toBe(true);
    expect((await receipt(sid, 'delivered')).json().data.recorded).toBe(false);
    expect((await viewOf(requestId)).delivery).toBe('read');
  });

  it('sends one SMS instead when the number has no WhatsApp (63003), with a new link, counted as an SMS', async () => {
    const { number, requestId } = await sentByWhatsApp();
    const sid = await sidOf(requestId);
    const countBefore = await smsCountOf(requester.userId);
    const before = twilio.messages.length;

    expect((await receipt(sid, 'undelivered', '63003')).json().data.recorded).toBe(true);
    await testApp.app.outbox.dispatchDue();
    const sms = twilio.messages.slice(before).map((request) => request.fields as Fields);
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ To: number, From: '+15005550006', StatusCallback: CALLBACK_URL });
    expect(sms[0]!.ContentSid).toBeUndefined();
    expect(sms[0]!.Body).toMatch(
      /^Kabari: Sari asks to see your location\. Note: "Home\?" Share or decline: https:\/\/kabari\.example\/enter-link\?token=/,
    );
    expect(await smsCountOf(requester.userId)).toBe(countBefore + 1);
    expect(await viewOf(requestId)).toEqual({
      channel: 'sms',
      delivery: 'sent',
      deliveryFailure: null,
      whatsapp: { fallback: 'sms' },
    });

    // The SMS's own receipts now show; the WhatsApp failure reported again sends nothing more.
    const smsSid = await sidOf(requestId);
    expect(smsSid).not.toBe(sid);
    expect((await receipt(smsSid, 'delivered')).json().data.recorded).toBe(true);
    expect((await receipt(sid, 'failed', '63003')).json().data.recorded).toBe(false);
    await testApp.app.outbox.dispatchDue();
    expect(twilio.messages.length).toBe(before + 1);
    expect(await viewOf(requestId)).toMatchObject({ delivery: 'delivered', whatsapp: { fallback: 'sms' } });
  });

  it('falls back the same way when Twilio refuses the WhatsApp message at once (63003), and on 63024', async () => {
    twilio.answer(TWILIO_REFUSALS.noWhatsApp);
    const refused = await sentByWhatsApp();
    // The refused WhatsApp, then the SMS instead, in the same dispatch or the next.
    await testApp.app.outbox.dispatchDue();
    expect(await viewOf(refused.requestId)).toMatchObject({ delivery: 'sent', whatsapp: { fallback: 'sms' } });
    expect(twilio.messages.at(-1)?.fields).toMatchObject({ To: refused.number });

    const unreachable = await sentByWhatsApp();
    await receipt(await sidOf(unreachable.requestId), 'failed', '63024');
    await testApp.app.outbox.dispatchDue();
    expect(await viewOf(unreachable.requestId)).toMatchObject({ whatsapp: { fallback: 'sms' } });
  });

  it('sends no SMS for any other WhatsApp failure, and says why', async () => {
    const { requestId } = await sentByWhatsApp();
    const before = twilio.messages.length;
    await receipt(await sidOf(requestId), 'failed', '63016');
    await testApp.app.outbox.dispatchDue();
    expect(twilio.messages.length).toBe(before);
    expect(await viewOf(requestId)).toMatchObject({
      delivery: 'failed',
      deliveryFailure: { reason: 'other' },
      whatsapp: { fallback: null },
    });
  });

  it("sends no SMS instead once the account's SMS for the day are used up, and says so", async () => {
    const other = await createRequester(testApp.app, { displayName: 'Budi' });
    // SMS_PER_ACCOUNT_PER_DAY is 20: 19 sent today already, then a request by WhatsApp, counted as the 20th SMS.
    await testApp.app.db
      .insert(dailySendCounts)
      .values({ key: `sms:account:${other.userId}`, day: sendDay(), count: 19 });
    const { requestId } = await sentByWhatsApp('en', other);
    expect(await smsCountOf(other.userId)).toBe(20);
    const before = twilio.messages.length;
    await receipt(await sidOf(requestId), 'undelivered', '63003');
    await testApp.app.outbox.dispatchDue();
    expect(twilio.messages.length).toBe(before);
    expect(await smsCountOf(other.userId)).toBe(20);
    expect(await viewOf(requestId, other)).toEqual({
      channel: 'sms',
      delivery: 'failed',
      deliveryFailure: { reason: 'no-whatsapp' },
      whatsapp: { fallback: 'limit' },
    });
  });

  it("sends no SMS instead once everyone's SMS budget for the day is spent, and leaves the account's count alone", async () => {
    const other = await createRequester(testApp.app, { displayName: 'Dewi' });
    // The budget (SMS_DAILY_BUDGET, 200 by default) has room for one: the WhatsApp message takes it.
    await testApp.app.db
      .insert(dailySendCounts)
      .values({ key: 'sms:all', day: sendDay(), count: 199 })
      .onConflictDoUpdate({ target: [dailySendCounts.key, dailySendCounts.day], set: { count: 199 } });
    const { requestId } = await sentByWhatsApp('en', other);
    expect(await smsCountOf(other.userId)).toBe(1);
    const before = twilio.messages.length;
    await receipt(await sidOf(requestId), 'undelivered', '63003');
    await testApp.app.outbox.dispatchDue();
    // No SMS went, and the account's count, taken in the same savepoint as the refused budget, did not move.
    expect(twilio.messages.slice(before).map((request) => (request.fields as Fields).To)).toEqual([]);
    expect(await smsCountOf(other.userId)).toBe(1);
    expect(await viewOf(requestId, other)).toMatchObject({ whatsapp: { fallback: 'limit' } });
  });
});

describe('location requests by WhatsApp where it is not offered', () => {
  it('refuses WhatsApp with Twilio SMS but no WhatsApp sender (400), and says so up front', async () => {
    const { testApp, close } = await buildTwilioTestApp(TWILIO);
    try {
      const requester = await createRequester(testApp.app, { displayName: 'Sari' });
      const limit = await testApp.app.inject({
        method: 'GET',
        url: '/api/v1/requests/limit?channel=sms&number=%2B6281234567001',
        headers: requester.headers,
      });
      expect(limit.json().data.whatsapp).toBe(false);
      const linkCheck = await testApp.app.inject({
        url: '/api/v1/requests/limit?channel=link',
        headers: requester.headers,
      });
      expect(linkCheck.json().data.whatsapp).toBe(false);
      const refused = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/requests/sms',
        headers: { ...requester.headers, 'accept-language': 'id' },
        payload: { channel: 'whatsapp', number: '+6281234567001', templateId: 'check-in', locale: 'id' },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        'Kabari tidak mengirim pesan WhatsApp di server ini. Kirim permintaannya lewat SMS saja.',
      );
      const unknown = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/requests/sms',
        headers: requester.headers,
        payload: { channel: 'telegram', number: '+6281234567001', templateId: 'check-in', locale: 'en' },
      });
      expect([unknown.statusCode, unknown.json().message]).toEqual([400, 'channel: channel must be sms or whatsapp']);
    } finally {
      await close();
    }
  });

  it('keeps a WhatsApp request in the local outbox without Twilio, as SMS are', async () => {
    const testApp = await buildTestApp('pglite');
    try {
      const requester = await createRequester(testApp.app, { displayName: 'Sari' });
      expect(testApp.app.outbox.whatsappTransport).toBe('local');
      const sent = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/requests/sms',
        headers: requester.headers,
        payload: { channel: 'whatsapp', number: '+6281234567002', templateId: 'check-in', locale: 'en' },
      });
      expect(sent.statusCode).toBe(200);
      expect(sent.json().data.request).toMatchObject({ delivery: 'outbox', whatsapp: { fallback: null } });
      const [row] = await testApp.app.db
        .select({ channel: outboxMessages.channel, transport: outboxMessages.transport })
        .from(outboxMessages)
        .where(eq(outboxMessages.recipient, '+6281234567002'));
      expect(row).toEqual({ channel: 'whatsapp', transport: 'local' });
    } finally {
      await testApp.close();
    }
  });
});
