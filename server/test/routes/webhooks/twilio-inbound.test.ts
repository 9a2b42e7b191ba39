import { eq } from 'drizzle-orm';
import { optOuts } from '../../../src/db/schema/location-requests';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { EMPTY_TWIML, TWILIO_INBOUND_PATH } from '../../../src/messages/twilio-inbound';
import { isOptedOut } from '../../../src/requests/opt-outs';
import { stopWordOf } from '../../../src/sharing/reply-opt-out';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import type { TestApp } from '../../support/test-app';
import { buildTwilioTestApp, type FakeTwilio, type Forgery, type TwilioTestApp } from '../../support/fake-twilio';

// Against a local fake of Twilio (a real HTTP server the SDK sends to, which posts signed replies to the inbound
// webhook). Behind a proxy: Twilio posts to the public address, the server is reached at its own host (127.0.0.1).
const PUBLIC_URL = 'https://kabari.example';
const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TWILIO = {
  TWILIO_ACCOUNT_SID: ACCOUNT_SID,
  TWILIO_AUTH_TOKEN: 'test-auth-token',
  TWILIO_FROM: '+15005550006',
  PUBLIC_URL,
};
const CONFIRMATION = {
  en: 'Kabari: done. This number will get no more location requests through Kabari, from anyone. Requests you had not answered are declined.',
  id: 'Kabari: selesai. Nomor ini tidak akan menerima permintaan lokasi lagi lewat Kabari, dari siapa pun. Permintaan yang belum Anda jawab juga ditolak.',
};

describe(`POST ${TWILIO_INBOUND_PATH}: an opt-out by reply`, () => {
  let setup: TwilioTestApp;
  let testApp: TestApp;
  let twilio: FakeTwilio;
  let requester: TestRequester;
  let numbers = 0;
  let sids = 0;

  beforeAll(async () => {
    setup = await buildTwilioTestApp(TWILIO);
    ({ testApp, twilio } = setup);
    requester = await createRequester(testApp.app, { displayName: 'Sari' });
  });

  afterAll(async () => {
    await setup?.close();
  });

  const nextNumber = () => `+62812345671${String(++numbers).padStart(2, '0')}`;

  const askBySms = (number: string, locale: 'en' | 'id') =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/v1/requests/sms',
      headers: requester.headers,
      payload: { number, templateId: 'check-in', locale },
    });

  /** An SMS request to a new number, handed to the fake Twilio: the number and the request's id. */
  async function askedNumber(locale: 'en' | 'id' = 'en'): Promise<{ number: string; requestId: string }> {
    const number = nextNumber();
    const response = await askBySms(number, locale);
    expect(response.statusCode).toBe(200);
    await testApp.app.outbox.dispatchDue();
    return { number, requestId: response.json().data.request.id as string };
  }

  /** An incoming message as the fake Twilio will post it (signed with the SDK's own signer, or forged). */
  const incoming = (
    from: string,
    body: string,
    options: { sid?: string; extra?: Record<string, string> } & Forgery = {},
  ) => ({ from, body, options: { ...options, sid: options.sid ?? `SM${String(++sids).padStart(32, 'a')}` } });

  /** The fake Twilio posts it to the inbound webhook; the server's answer. */
  const post = async (message: ReturnType<typeof incoming>) => {
    const answer = await twilio.incoming(message.from, message.body, message.options);
    return {
      statusCode: answer.status,
      headers: { 'content-type': answer.contentType ?? undefined },
      body: answer.body,
      json: () => JSON.parse(answer.body),
    };
  };

  /** The SMS the outbox holds for the number, oldest first. */
  const smsTo = async (number: string) =>
    (
      await testApp.app.db
        .select({ text: outboxMessages.bodyText, locale: outboxMessages.locale })
        .from(outboxMessages)
        .where(eq(outboxMessages.recipient, number))
        .orderBy(outboxMessages.createdAt)
    ).map((row) => row.text);

  const optedOut = (number: string) => isOptedOut(testApp.app.db, testApp.app.auth.secrets.hmacSecret, number);
  const optOutCount = async () => (await testApp.app.db.select().from(optOuts)).length;

  async function consentOf(requestId: string): Promise<string> {
    const list = await testApp.app.inject({ method: 'GET', url: '/api/v1/requests', headers: requester.headers });
    return list.json().data.items.find((item: { id: string }) => item.id === requestId).consent as string;
  }

  it('opts the number out on a signed STOP, declines its waiting request and confirms once, in English', async () => {
    const { number, requestId } = await askedNumber('en');
    const message = incoming(number, '  stop! ');
    const answer = await post(message);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/xml/);
    expect(answer.body).toBe(EMPTY_TWIML);

    expect(await optedOut(number)).toBe(true);
    expect(await consentOf(requestId)).toBe('declined');
    const texts = await smsTo(number);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe(CONFIRMATION.en);
    // The confirmation goes through the outbox to Twilio, like every SMS.
    await testApp.app.outbox.dispatchDue();
    expect(twilio.messages.at(-1)?.fields).toMatchObject({ To: number, Body: CONFIRMATION.en });

    // The same post again (a replay), and another stop word later: answered, nothing more is sent.
    expect((await post(message)).statusCode).toBe(200);
    expect((await post(incoming(number, 'UNSUBSCRIBE'))).body).toBe(EMPTY_TWIML);
    expect(await smsTo(number)).toHaveLength(2);

    // The opt-out holds: a new request to the number is refused, as after the link's opt-out.
    const refused = await askBySms(number, 'en');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This number has opted out of location requests. Kabari will not message it.');
    expect(await smsTo(number)).toHaveLength(2);
  });

  it('answers BERHENTI to an Indonesian message in Indonesian', async () => {
    const { number } = await askedNumber('id');
    expect((await post(incoming(number, 'Berhenti.'))).statusCode).toBe(200);
    expect(await optedOut(number)).toBe(true);
    expect((await smsTo(number))[1]).toBe(CONFIRMATION.id);
  });

  it('refuses a wrong or missing signature, or one made for the internal address, with 403 and changes nothing', async () => {
    const { number, requestId } = await askedNumber('en');
    const internal = incoming(number, 'STOP', { signedUrl: `http://localhost${TWILIO_INBOUND_PATH}` });
    // The right signature over another text.
    const tampered = incoming(number, 'hello', { tamper: { Body: 'STOP' } });
    for (const refused of [
      incoming(number, 'STOP', { authToken: 'another-token' }),
      incoming(number, 'STOP', { authToken: null }),
      internal,
      tampered,
    ]) {
      const answer = await post(refused);
      expect([answer.statusCode, answer.json().status]).toEqual([403, 403]);
    }
    expect(await optedOut(number)).toBe(false);
    expect(await consentOf(requestId)).toBe('none');
    expect(await smsTo(number)).toHaveLength(1);
  });

  it('does nothing for a number Kabari never wrote to, and stores nothing about it', async () => {
    const stranger = nextNumber();
    const before = await optOutCount();
    for (const sender of [stranger, 'whatsapp:+6281234567199', 'Kabari']) {
      const answer = await post(incoming(sender, 'STOP'));
      expect([answer.statusCode, answer.body]).toEqual([200, EMPTY_TWIML]);
    }
    expect(await optOutCount()).toBe(before);
    expect(await smsTo(stranger)).toEqual([]);
    // Kabari may still write to it.
    expect((await askBySms(stranger, 'en')).statusCode).toBe(200);
  });

  it('does nothing for a text that is not a stop word', async () => {
    const { number, requestId } = await askedNumber('en');
    for (const text of ['Stop texting me please', 'OK', 'who is this?', '', 'START']) {
      expect((await post(incoming(number, text))).statusCode).toBe(200);
    }
    expect(await optedOut(number)).toBe(false);
    expect(await consentOf(requestId)).toBe('none');
    expect(await smsTo(number)).toHaveLength(1);
  });

  it('leaves the confirmation to Twilio when Twilio answered the keyword itself (OptOutType STOP)', async () => {
    const { number } = await askedNumber('en');
    expect((await post(incoming(number, 'STOP', { extra: { OptOutType: 'STOP' } }))).statusCode).toBe(200);
    expect(await optedOut(number)).toBe(true);
    expect(await smsTo(number)).toHaveLength(1);
  });
});

describe('stopWordOf: the replies that opt out', () => {
  it.each([
    ['STOP', 'STOP'],
    [' stop ', 'STOP'],
    ['Stop.', 'STOP'],
    ['"STOP!!"', 'STOP'],
    ['stopall', 'STOPALL'],
    ['Stop all', 'STOP ALL'],
    ['unsubscribe', 'UNSUBSCRIBE'],
    ['Cancel', 'CANCEL'],
    ['end', 'END'],
    ['quit', 'QUIT'],
    ['revoke', 'REVOKE'],
    ['opt-out', 'OPT OUT'],
    ['optout', 'OPTOUT'],
    ['BERHENTI', 'BERHENTI'],
    ['berhenti 🙏', 'BERHENTI'],
    ['ＳＴＯＰ', 'STOP'],
  ])('%j is a stop word', (text, word) => {
    expect(stopWordOf(text)).toBe(word);
  });

  it.each(['Stop texting me', 'stopp', 'tolong berhenti', 'OK', '', 'START', 'UNSTOP', 'end of story'])(
    '%j is not',
    (text) => {
      expect(stopWordOf(text)).toBeUndefined();
    },
  );
});
