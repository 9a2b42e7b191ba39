import { PermanentDeliveryError } from '../../src/messages/message-sender';
import { createTwilioSender } from '../../src/messages/twilio-sms';
import { recordingTwilioClient } from '../support/twilio-recorder';

const settings = {
  accountSid: `AC${'0123456789abcdef'.repeat(2)}`,
  authToken: 'test-auth-token',
  from: '+15005550006',
};

describe('createTwilioSender', () => {
  it("sends the request Twilio's Messages API expects", async () => {
    const twilio = recordingTwilioClient();
    const sender = createTwilioSender(settings, twilio.client);
    const result = await sender.send({
      id: 'm1',
      to: '+6281234567890',
      text: 'Kabari: Sari asks to see your location.',
    });
    expect(result.providerRef).toMatch(/^SM\d{32}$/);
    expect(twilio.requests).toHaveLength(1);
    const [request] = twilio.requests;
    expect(request).toMatchObject({
      method: 'post',
      uri: `https://api.twilio.com/2010-04-01/Accounts/${settings.accountSid}/Messages.json`,
      username: settings.accountSid,
      password: settings.authToken,
      data: { To: '+6281234567890', From: '+15005550006', Body: 'Kabari: Sari asks to see your location.' },
    });
    expect(request!.headers).toMatchObject({
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    });
  });

  it('sends through a messaging service when TWILIO_FROM is one', async () => {
    const twilio = recordingTwilioClient();
    const messagingServiceSid = `MG${'fedcba9876543210'.repeat(2)}`;
    await createTwilioSender({ ...settings, from: messagingServiceSid }, twilio.client).send({
      id: 'm2',
      to: '+1415',
      text: 'x',
    });
    expect(twilio.requests[0]!.data).toEqual({ To: '+1415', Body: 'x', MessagingServiceSid: messagingServiceSid });
  });

  it('tells a final refusal (4xx) from a failure worth retrying (5xx, 429, network)', async () => {
    const twilio = recordingTwilioClient([400, 503, 429, 'network']);
    const sender = createTwilioSender(settings, twilio.client);
    const message = { id: 'm3', to: '+620', text: 'x' };
    await expect(sender.send(message)).rejects.toBeInstanceOf(PermanentDeliveryError);
    for (let index = 0; index < 3; index += 1) {
      const error = await sender.send(message).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(PermanentDeliveryError);
    }
    // No retries inside the SDK: each send is one request, the outbox does the retrying.
    expect(twilio.requests).toHaveLength(4);
  });
});
