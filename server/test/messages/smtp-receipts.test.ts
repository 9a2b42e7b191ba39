import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { requestEvents } from '../../src/db/schema/location-requests';
import { createRequester, type TestRequester } from '../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../support/test-app';

// An email request's receipt from the SMTP exchange, against a local SMTP server started here: it accepts one
// mailbox, refuses an unknown one (550) and one by policy (554), as a receiving server answers RCPT TO.

const ACCEPTED = 'rina@kabari.test';
const NO_SUCH_MAILBOX = 'nobody@kabari.test';
const REFUSED_BY_POLICY = 'blocked@kabari.test';

describe('email receipts: accepted or refused by the receiving SMTP server', () => {
  let server: SMTPServer;
  let testApp: TestApp;
  let requester: TestRequester;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address === NO_SUCH_MAILBOX) {
          return callback(Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 }));
        }
        if (address.address === REFUSED_BY_POLICY) {
          return callback(Object.assign(new Error('5.7.1 Message refused by policy'), { responseCode: 554 }));
        }
        return callback();
      },
      onData(stream, _session, callback) {
        stream.on('data', () => undefined);
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    testApp = await buildTestApp('pglite', {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Kabari <no-reply@kabari.test>',
    });
    requester = await createRequester(testApp.app, { displayName: 'Sari' });
  });

  afterAll(async () => {
    await testApp?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function emailRequest(email: string): Promise<string> {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/requests/email',
      headers: requester.headers,
      payload: { email, templateId: 'check-in', locale: 'en' },
    });
    expect(response.statusCode).toBe(200);
    await testApp.app.outbox.dispatchDue();
    return response.json().data.request.id as string;
  }

  async function viewOf(requestId: string) {
    const list = await testApp.app.inject({ url: '/api/v1/requests?pageSize=50', headers: requester.headers });
    const item = list.json().data.items.find((each: { id: string }) => each.id === requestId);
    return { delivery: item.delivery, deliveryFailure: item.deliveryFailure };
  }

  /** The delivery states published to the owner's live stream, in order. */
  const published = async (requestId: string) =>
    (
      await testApp.app.db
        .select()
        .from(requestEvents)
        .where(eq(requestEvents.requestId, requestId))
        .orderBy(requestEvents.id)
    ).map((event) => (event.payload as { delivery: string }).delivery);

  it('shows an email the receiving server accepted as delivered there, live', async () => {
    const requestId = await emailRequest(ACCEPTED);
    expect(await viewOf(requestId)).toEqual({ delivery: 'delivered', deliveryFailure: null });
    expect(await published(requestId)).toEqual(['queued', 'delivered']);
  });

  it('shows an address the server does not know as failed, with the reason, and does not retry it', async () => {
    const requestId = await emailRequest(NO_SUCH_MAILBOX);
    expect(await viewOf(requestId)).toEqual({ delivery: 'failed', deliveryFailure: { reason: 'no-mailbox' } });
    expect(await published(requestId)).toEqual(['queued', 'failed']);
    expect(await testApp.app.outbox.dispatchDue()).toBe(0);
  });

  it('tells a refusal by policy from an unknown address', async () => {
    const requestId = await emailRequest(REFUSED_BY_POLICY);
    expect(await viewOf(requestId)).toEqual({ delivery: 'failed', deliveryFailure: { reason: 'mail-refused' } });
  });
});
