import { eq } from 'drizzle-orm';
import { contactMessages } from '../../../src/db/schema/accounts';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { CONTACT_PER_IP } from '../../../src/visitors/contact-form';
import { describeEachDatabase } from '../../support/databases';
import { buildTestApp, type TestApp } from '../../support/test-app';

const message = {
  name: 'Dewi Lestari',
  email: 'Dewi@Example.com',
  topic: 'billing',
  message: 'I would like to cancel my subscription and ask about a refund.',
  locale: 'id',
};

let ipCounter = 0;
// Each test writes from its own address, so the per-IP throttle of one test does not leak into another.
const freshIp = () => `198.51.100.${(ipCounter += 1)}`;

describeEachDatabase('POST /api/v1/contact/messages', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { OPERATOR_EMAIL: 'support@kabari.test' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const send = (payload: unknown, ip = freshIp()) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      payload: payload as object,
      remoteAddress: ip,
    });

  it('stores the message and emails it to the operator, replies going to the visitor', async () => {
    const response = await send(message, '198.51.100.200');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: 'ok', data: { received: true } });

    const [stored] = await testApp.app.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.name, 'Dewi Lestari'));
    expect(stored).toMatchObject({
      email: 'dewi@example.com',
      topic: 'billing',
      locale: 'id',
      message: 'I would like to cancel my subscription and ask about a refund.',
    });
    // Nothing about the network address is kept with the message.
    expect(JSON.stringify(stored)).not.toContain('198.51.100.200');

    const [email] = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, `contact-message:${stored?.id}`));
    expect(email).toMatchObject({
      channel: 'email',
      recipient: 'support@kabari.test',
      replyTo: 'dewi@example.com',
      subject: 'Contact form: Billing, cancelling or a refund (Dewi Lestari)',
      // No SMTP_URL: the local outbox is the destination.
      state: 'sent',
      transport: 'local',
    });
    expect(email?.bodyText).toContain('I would like to cancel my subscription');
    expect(email?.bodyText).toContain('Language: Indonesian (id)');
    expect(email?.bodyHtml).not.toContain('<script');
  });

  it('escapes what the visitor wrote in the HTML copy', async () => {
    const response = await send({ ...message, name: 'Eve <b>', message: '<script>alert(1)</script> please help' });
    expect(response.statusCode).toBe(200);
    const [email] = await testApp.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.subject, 'Contact form: Billing, cancelling or a refund (Eve <b>)'));
    expect(email?.bodyHtml).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(email?.bodyHtml).not.toContain('<script>');
  });

  it.each([
    [{ ...message, name: '  ' }, 'name: Please fill in your name'],
    [{ ...message, name: 'Line\nbreak' }, 'name: The name must be on one line'],
    [{ ...message, email: 'dewi@example' }, 'email: Enter valid email address'],
    [{ ...message, topic: 'sales' }, 'topic: Please choose a topic'],
    [{ ...message, message: 'Hi' }, 'message: The message must have at least 10 characters'],
    [{ ...message, message: 'x'.repeat(5001) }, 'message: The message is longer than 5000 characters'],
    [{ ...message, locale: 'fr' }, expect.stringMatching(/^locale: /)],
  ])('refuses a bad message, names the field, and stores nothing', async (payload, expected) => {
    const before = await testApp.app.db.$count(contactMessages);
    const response = await send(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 400, message: expected, data: null });
    expect(await testApp.app.db.$count(contactMessages)).toBe(before);
  });

  it(`accepts ${CONTACT_PER_IP.limit} messages an hour from one address, then answers 429 with Retry-After`, async () => {
    const ip = '203.0.113.9';
    for (let sent = 0; sent < CONTACT_PER_IP.limit; sent += 1) {
      expect((await send({ ...message, name: `Throttle ${sent}` }, ip)).statusCode).toBe(200);
    }
    const refused = await send({ ...message, name: 'Throttle over' }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many messages from this network\. Please try again in \d+ minutes\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(await testApp.app.db.$count(contactMessages, eq(contactMessages.name, 'Throttle over'))).toBe(0);

    // In Indonesian for an Indonesian page.
    const inIndonesian = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      payload: { ...message, name: 'Throttle id' },
      remoteAddress: ip,
      headers: { 'accept-language': 'id' },
    });
    expect(inIndonesian.json().message).toMatch(
      /^Terlalu banyak pesan dari jaringan ini\. Silakan coba lagi dalam \d+ menit\.$/,
    );

    // Another address is not affected.
    expect((await send(message, '203.0.113.10')).statusCode).toBe(200);
  });

  it('names what is wrong in Indonesian for an Indonesian page', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      payload: { ...message, message: 'Hi' },
      remoteAddress: freshIp(),
      headers: { 'accept-language': 'id' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Pesan minimal 10 karakter');
  });
});
