import { eq } from 'drizzle-orm';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { signUpSubscriber, TEST_CARD } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('subscription routes', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0', DEV_BILLING_TOOLS: 'true' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;
  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    app().inject({ method, url, headers: { authorization: token }, ...(payload ? { payload } : {}) });

  it('cancel keeps access until validUntil, emails a confirmation, and is idempotent', async () => {
    const { email, token } = await signUpSubscriber(app(), { locale: 'id' });
    const before = (await call('GET', '/api/v1/personnal/subscribe/info', token!)).json().data;
    const cancelled = await call('POST', '/api/v1/personnal/subscribe/cancel', token!, {});
    expect(cancelled.json().data).toMatchObject({
      status: 'cancelled',
      expiredStatus: 0,
      validUntil: before.validUntil,
      nextDebitDay: null,
    });
    expect(cancelled.json().data.cancelledAt).toEqual(expect.any(String));
    const again = await call('POST', '/api/v1/personnal/subscribe/cancel', token!, {});
    expect(again.json().data.cancelledAt).toBe(cancelled.json().data.cancelledAt);
    const mail = await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));
    expect(mail.filter((message) => message.subject === 'Langganan Kabari Anda telah dibatalkan')).toHaveLength(1);

    const renewEarly = await call('POST', '/api/v1/personnal/subscribe/renew', token!, {
      method: 'card',
      card: TEST_CARD,
    });
    expect(renewEarly.statusCode).toBe(400);
    const renewEarlyId = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/subscribe/renew',
      headers: { authorization: token!, 'accept-language': 'id' },
      payload: { method: 'card', card: TEST_CARD },
    });
    expect(renewEarlyId.json().message).toBe('Langganan Anda masih berjalan: belum ada yang perlu diperpanjang.');
  });

  it('an expired subscriber renews: a new full period, a renewal payment, the info says active', async () => {
    const { email, token } = await signUpSubscriber(app());
    const expire = await app().inject({
      method: 'POST',
      url: `/dev/subscriptions/expire?token=${testApp.config.devTools.token}`,
      payload: { email },
    });
    expect(expire.json().data).toMatchObject({ status: 'expired', expiredStatus: 1 });

    const declined = await call('POST', '/api/v1/personnal/subscribe/renew', token!, {
      method: 'card',
      card: { ...TEST_CARD, number: '4000000000009995' },
    });
    const failedQuery = await app().inject({
      method: 'GET',
      url: `/api/v1/personnal/registerQuery/${declined.json().data.registerId}`,
    });
    expect(failedQuery.json().data).toMatchObject({ state: 'sign_failed', failureCode: 'insufficient_funds' });
    expect((await call('GET', '/api/v1/personnal/subscribe/info', token!)).json().data.expiredStatus).toBe(1);

    const renewed = await call('POST', '/api/v1/personnal/subscribe/renew', token!, { method: 'wallet' });
    const query = await app().inject({
      method: 'GET',
      url: `/api/v1/personnal/registerQuery/${renewed.json().data.registerId}`,
    });
    expect(query.json().data).toEqual({ state: 'created' });
    const info = (await call('GET', '/api/v1/personnal/subscribe/info', token!)).json().data;
    expect(info).toMatchObject({ status: 'active', expiredStatus: 0, amount: 29.99 });
    expect(Date.parse(info.validUntil)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    const items = (await call('GET', '/api/v1/personnal/payments', token!)).json().data.items;
    expect(items.map((item: { kind: string; state: string }) => `${item.kind}:${item.state}`).sort()).toEqual([
      'first_day:succeeded',
      'renewal:failed',
      'renewal:succeeded',
    ]);
  });

  it('payments and info need a session and show only the caller’s own', async () => {
    const first = await signUpSubscriber(app());
    const second = await signUpSubscriber(app());
    const items = (await call('GET', '/api/v1/personnal/payments', second.token!)).json().data.items;
    expect(items).toHaveLength(1);
    expect((await call('GET', '/api/v1/personnal/payments', first.token!)).json().data.items[0].id).not.toBe(
      items[0].id,
    );
    expect((await app().inject({ method: 'GET', url: '/api/v1/personnal/payments' })).statusCode).toBe(401);
  });
});
