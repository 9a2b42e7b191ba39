import { eq } from 'drizzle-orm';
import { locationRequests, requestEvents } from '../../../src/db/schema/location-requests';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { TWILIO_STATUS_PATH, twilioStatusCallback } from '../../../src/messages/twilio-status';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import type { TestApp } from '../../support/test-app';
import {
  buildTwilioTestApp,
  TWILIO_REFUSALS,
  type FakeTwilio,
  type Forgery,
  type TwilioTestApp,
} from '../../support/fake-twilio';

// Against a local fake of Twilio (a real HTTP server the SDK sends to, which posts signed callbacks back). Behind a
// proxy: Twilio posts to the public address, the server is reached at its own host (127.0.0.1).
const PUBLIC_URL = 'https://kabari.example';
const CALLBACK_URL = `${PUBLIC_URL}${TWILIO_STATUS_PATH}`;
const TWILIO = {
  TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
  TWILIO_AUTH_TOKEN: 'test-auth-token',
  TWILIO_FROM: '+15005550006',
  PUBLIC_URL,
};

describe(`POST ${TWILIO_STATUS_PATH}: Twilio's delivery receipts`, () => {
  let setup: TwilioTestApp;
  let testApp: TestApp;
  let twilio: FakeTwilio;
  let requester: TestRequester;
  let number = 0;

  beforeAll(async () => {
    setup = await buildTwilioTestApp(TWILIO);
    ({ testApp, twilio } = setup);
    requester = await createRequester(testApp.app, { displayName: 'Sari' });
  });

  afterAll(async () => {
    await setup?.close();
  });

  /** An SMS request, handed to the fake Twilio: its request id and the message SID Twilio gave it. */
  async function sentSms(): Promise<{ requestId: string; sid: string }> {
    number += 1;
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/requests/sms',
      headers: requester.headers,
      payload: { number: `+62812345670${String(number).padStart(2, '0')}`, templateId: 'check-in', locale: 'en' },
    });
    expect(response.statusCode).toBe(200);
    await testApp.app.outbox.dispatchDue();
    const requestId = response.json().data.request.id as string;
    const [row] = await testApp.app.db
      .select({ sid: outboxMessages.providerRef })
      .from(locationRequests)
      .innerJoin(outboxMessages, eq(outboxMessages.id, locationRequests.messageId))
      .where(eq(locationRequests.id, requestId));
    expect(row?.sid).toMatch(/^SM\d{32}$/);
    return { requestId, sid: row!.sid! };
  }

  /** The fake Twilio posts the message's status callback; the server's answer, its JSON read. */
  const callback = async (sid: string, status: string, extra: { errorCode?: string } & Forgery = {}) => {
    const answer = await twilio.statusCallback(sid, status, extra);
    return { statusCode: answer.status, json: () => JSON.parse(answer.body) };
  };

  /** The request as its owner's list shows it. */
  async function viewOf(requestId: string) {
    const list = await testApp.app.inject({ method: 'GET', url: '/api/v1/requests', headers: requester.headers });
    const item = list.json().data.items.find((each: { id: string }) => each.id === requestId);
    return { delivery: item.delivery as string, deliveryFailure: item.deliveryFailure as unknown };
  }

  /** The delivery states published to the owner's live stream, in order. */
  const publishedDeliveries = async (requestId: string) =>
    (
      await testApp.app.db
        .select()
        .from(requestEvents)
        .where(eq(requestEvents.requestId, requestId))
        .orderBy(requestEvents.id)
    ).map((event) => (event.payload as { delivery: string }).delivery);

  it('asks Twilio for status callbacks at the public address, and only for an https deployment', async () => {
    const { sid } = await sentSms();
    expect(twilio.messages.at(-1)?.fields).toMatchObject({ StatusCallback: CALLBACK_URL });
    expect(sid).toMatch(/^SM/);
    expect(twilioStatusCallback('https://kabari.example', false)).toBe(CALLBACK_URL);
    expect(twilioStatusCallback('http://localhost:8080', true)).toBeUndefined();
    expect(twilioStatusCallback('http://kabari.example', false)).toBeUndefined();
  });

  it('records a signed receipt once, shows it live, and a replay or a late status changes nothing', async () => {
    const { requestId, sid } = await sentSms();
    expect((await callback(sid, 'sent')).json().data).toEqual({ received: true, recorded: true });
    const delivered = await callback(sid, 'delivered');
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json().data).toEqual({ received: true, recorded: true });
    expect(await viewOf(requestId)).toEqual({ delivery: 'delivered', deliveryFailure: null });

    // A replay, then a "sent" that arrives late: answered, nothing changes.
    for (const late of ['delivered', 'sent', 'queued']) {
      const answer = await callback(sid, late);
      expect([answer.statusCode, answer.json().data.recorded]).toEqual([200, false]);
    }
    expect(await viewOf(requestId)).toEqual({ delivery: 'delivered', deliveryFailure: null });
    // Created (queued), handed over (sent), delivered: the receipt "sent" added nothing the requester sees.
    expect(await publishedDeliveries(requestId)).toEqual(['queued', 'sent', 'delivered']);
  });

  it('keeps a failure final, with its reason, even when it arrives before the progress', async () => {
    const { requestId, sid } = await sentSms();
    expect((await callback(sid, 'undelivered', { errorCode: '30003' })).json().data.recorded).toBe(true);
    for (const late of ['sent', 'delivered', 'failed'])
      expect((await callback(sid, late)).json().data.recorded).toBe(false);
    expect(await viewOf(requestId)).toEqual({ delivery: 'failed', deliveryFailure: { reason: 'unreachable' } });
    const [stored] = await testApp.app.db
      .select({ receipt: outboxMessages.receipt, code: outboxMessages.receiptErrorCode })
      .from(outboxMessages)
      .where(eq(outboxMessages.providerRef, sid));
    expect(stored).toEqual({ receipt: 'undelivered', code: '30003' });
    expect(await publishedDeliveries(requestId)).toEqual(['queued', 'sent', 'failed']);
  });

  it('says why when Twilio refuses an SMS at once (an invalid number)', async () => {
    // The fake answers 400 with Twilio's code 21211: "The 'To' number is not a valid phone number."
    twilio.answer(TWILIO_REFUSALS.invalidNumber);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/requests/sms',
      headers: requester.headers,
      payload: { number: '+6281234567099', templateId: 'check-in', locale: 'en' },
    });
    await testApp.app.outbox.dispatchDue();
    const requestId = response.json().data.request.id as string;
    expect(await viewOf(requestId)).toEqual({ delivery: 'failed', deliveryFailure: { reason: 'invalid-number' } });
    expect(await publishedDeliveries(requestId)).toEqual(['queued', 'failed']);
  });

  it('refuses a wrong or missing signature, or one made for the internal address, with 403 and changes nothing', async () => {
    const { requestId, sid } = await sentSms();
    const forgeries: Forgery[] = [
      { authToken: 'another-token' },
      { authToken: null },
      // Signed for the address this server was reached at, not the one Twilio was given.
      { signedUrl: `http://localhost${TWILIO_STATUS_PATH}` },
      // The right signature over other fields.
      { tamper: { MessageStatus: 'failed', SmsStatus: 'failed' } },
    ];
    for (const forgery of forgeries) {
      const answer = await callback(sid, 'delivered', {
        ...forgery,
        headers: { 'x-forwarded-host': 'kabari.example', 'x-forwarded-proto': 'https' },
      });
      expect([answer.statusCode, answer.json().status]).toEqual([403, 403]);
    }
    expect(await viewOf(requestId)).toEqual({ delivery: 'sent', deliveryFailure: null });
    expect(await publishedDeliveries(requestId)).toEqual(['queued', 'sent']);
  });

  it('answers a callback about a message it does not know, and ignores it', async () => {
    const answer = await callback(`SM${'f'.repeat(32)}`, 'delivered');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual({ received: true, recorded: false });
    const inbound = await callback(`SM${'e'.repeat(32)}`, 'received');
    expect(inbound.json().data.recorded).toBe(false);
  });
});
