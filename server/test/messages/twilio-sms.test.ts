import { PermanentDeliveryError } from '../../src/messages/message-sender';
import { createTwilioSender } from '../../src/messages/twilio-sms';
import { startFakeTwilio, TWILIO_REFUSALS, type FakeTwilio } from '../support/fake-twilio';

const settings = {
  accountSid: `AC${'0123456789abcdef'.repeat(2)}`,
  authToken: 'test-auth-token',
  from: '+15005550006',
};

describe('createTwilioSender, against a local fake of Twilio’s Messages API', () => {
  let twilio: FakeTwilio;

  beforeAll(async () => {
    twilio = await startFakeTwilio({
      ...settings,
      publicUrl: 'https://kabari.example',
      forwardTo: () => 'http://127.0.0.1:9',
      inboundPath: '/api/v1/webhooks/twilio/inbound',
      ourNumber: settings.from,
    });
  });

  afterAll(async () => {
    await twilio.close();
  });

  it("sends the request Twilio's Messages API expects, with the account's credentials", async () => {
    const before = twilio.messages.length;
    const sender = createTwilioSender(settings, twilio.baseUrl);
    const result = await sender.send({
      id: 'm1',
      to: '+6281234567890',
      text: 'Kabari: Sari asks to see your location.',
    });
    // The fake checks the path (/2010-04-01/Accounts/{AccountSid}/Messages.json) and the Basic credentials.
    expect(twilio.messages.slice(before)).toEqual([
      {
        sid: result.providerRef,
        fields: { To: '+6281234567890', From: '+15005550006', Body: 'Kabari: Sari asks to see your location.' },
        headers: { contentType: 'application/x-www-form-urlencoded', accept: 'application/json' },
      },
    ]);
    expect(result.providerRef).toMatch(/^SM\d{32}$/);
  });

  it('is refused with the wrong credentials: not a message’s fault', async () => {
    const sender = createTwilioSender({ ...settings, authToken: 'wrong' }, twilio.baseUrl);
    const error = await sender.send({ id: 'm0', to: '+6281234567890', text: 'x' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderCredentialsError', transport: 'twilio' });
  });

  it("refuses to point the SDK anywhere but Twilio's API in production", () => {
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(() => createTwilioSender(settings, twilio.baseUrl)).toThrow(/not overridden in production/);
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  });

  it('sends through a messaging service when TWILIO_FROM is one', async () => {
    const messagingServiceSid = `MG${'fedcba9876543210'.repeat(2)}`;
    await createTwilioSender({ ...settings, from: messagingServiceSid }, twilio.baseUrl).send({
      id: 'm2',
      to: '+1415',
      text: 'x',
    });
    expect(twilio.messages.at(-1)!.fields).toEqual({
      To: '+1415',
      Body: 'x',
      MessagingServiceSid: messagingServiceSid,
    });
  });

  it('tells a final refusal (4xx) from a failure worth retrying (5xx, 429, network)', async () => {
    const before = twilio.messages.length;
    twilio.answer(
      TWILIO_REFUSALS.invalidNumber,
      TWILIO_REFUSALS.unavailable,
      TWILIO_REFUSALS.tooManyRequests,
      'network',
    );
    const sender = createTwilioSender(settings, twilio.baseUrl);
    const message = { id: 'm3', to: '+620', text: 'x' };
    await expect(sender.send(message)).rejects.toMatchObject({
      name: 'PermanentDeliveryError',
      providerCode: '21211',
    });
    for (let index = 0; index < 3; index += 1) {
      const error = await sender.send(message).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(PermanentDeliveryError);
    }
    // No retries inside the SDK: each send is one request, the outbox does the retrying.
    expect(twilio.messages.length - before).toBe(4);
  });
});
