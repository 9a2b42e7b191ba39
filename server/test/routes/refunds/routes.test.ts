import { desc, eq } from 'drizzle-orm';
import { users } from '../../../src/db/schema/accounts';
import { refundRequests, subscriptions } from '../../../src/db/schema/billing';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { freshIp, signUpSubscriber } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('refund requests', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;
  const refund = (payload: object, token?: string) =>
    app().inject({
      method: 'POST',
      url: '/api/v1/refunds',
      remoteAddress: freshIp(),
      payload,
      headers: token ? { authorization: token } : {},
    });

  async function statusOf(email: string) {
    const [row] = await app()
      .db.select({ status: subscriptions.status })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(users.email, email));
    return row?.status;
  }

  it('an anonymous visitor confirms the email with a type-2 code; the subscription is cancelled and the request stored', async () => {
    const { email } = await signUpSubscriber(app(), { locale: 'id' });
    const wrong = await refund({ email, reason: 'Not needed', locale: 'id', verificationCode: '000000' });
    expect(wrong.statusCode).toBe(400);
    const noCode = await refund({ email, reason: 'Not needed', locale: 'id' });
    expect(noCode.statusCode).toBe(400);
    expect(await statusOf(email)).toBe('trial');

    const sent = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/sendCode',
      remoteAddress: freshIp(),
      payload: { email, type: 2 },
    });
    expect(sent.json().data).toEqual({ success: true });
    const [codeMail] = await app()
      .db.select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, email))
      .orderBy(desc(outboxMessages.createdAt))
      .limit(1);
    expect(codeMail!.subject).toBe('Kode verifikasi Kabari Anda');
    const code = /(\d{6})/.exec(codeMail!.bodyText)![1]!;

    const response = await refund({ email, reason: 'Not needed', locale: 'id', verificationCode: code });
    expect(response.statusCode).toBe(200);
    expect(await statusOf(email)).toBe('cancelled');
    const [stored] = await app().db.select().from(refundRequests).where(eq(refundRequests.id, response.json().data.id));
    expect(stored).toMatchObject({ email, reason: 'Not needed', state: 'open' });
    const toOperator = await app()
      .db.select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, 'operator@kabari.localhost'));
    expect(toOperator.some((message) => message.bodyText.includes(email))).toBe(true);

    const reused = await refund({ email, reason: 'Again', locale: 'id', verificationCode: code });
    expect(reused.statusCode).toBe(400);
  });

  it('a signed-in subscriber asks for their own email without a code, but not for someone else’s', async () => {
    const { email, token } = await signUpSubscriber(app());
    const other = await signUpSubscriber(app());
    const forOther = await refund({ email: other.email, reason: 'x' }, token!);
    expect(forOther.statusCode).toBe(400);
    expect(await statusOf(other.email)).toBe('trial');
    const own = await refund({ email, reason: 'Changed my mind' }, token!);
    expect(own.statusCode).toBe(200);
    expect(await statusOf(email)).toBe('cancelled');
  });
});
