import { eq } from 'drizzle-orm';
import { createSession } from '../../../src/auth/sessions';
import { createUser } from '../../../src/auth/users';
import { users } from '../../../src/db/schema/accounts';
import { subscriptions } from '../../../src/db/schema/billing';
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

  it('offers paying again at the subscription’s own price and currency, whatever the pages show now', async () => {
    const rupiah = await signUpSubscriber(app(), { locale: 'id' });
    const info = (await call('GET', '/api/v1/personnal/subscribe/info', rupiah.token!)).json().data;
    const terms = await call('GET', '/api/v1/personnal/subscribe/renewal-terms', rupiah.token!);
    expect(terms.statusCode).toBe(200);
    expect(terms.headers['cache-control']).toBe('no-store');
    expect(terms.json().data).toMatchObject({
      currencyCode: 'IDR',
      amount: info.amount,
      firstDayDebitAmount: info.amount,
      period: info.period,
      methods: { card: 'sandbox', wallet: 'sandbox', paypal: 'sandbox' },
      paymentsConfigured: true,
    });
    // The English pages show dollars; this subscriber pays again in rupiah.
    const englishPages = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'en' },
    });
    expect(englishPages.json().data.currencyCode).toBe('USD');

    // A subscription taken at an older price renews at that price.
    const dollars = await signUpSubscriber(app());
    const [user] = await app().db.select().from(users).where(eq(users.email, dollars.email));
    await app().db.update(subscriptions).set({ amount: 1_999 }).where(eq(subscriptions.userId, user!.id));
    const older = (await call('GET', '/api/v1/personnal/subscribe/renewal-terms', dollars.token!)).json().data;
    expect(older).toMatchObject({ currencyCode: 'USD', amount: 19.99, firstDayDebitAmount: 19.99 });
    expect(englishPages.json().data.amount).toBe(29.99);
  });

  it('gives the renewal terms to a signed-in subscriber only', async () => {
    const signedOut = await app().inject({ method: 'GET', url: '/api/v1/personnal/subscribe/renewal-terms' });
    expect(signedOut.statusCode).toBe(401);
    const user = await createUser(app().db, {
      email: `no-subscription.${Date.now()}@example.com`,
      displayName: 'Dewi',
      password: 'correct horse',
      locale: 'id',
    });
    const { token } = await createSession(app().db, user.id, 'jest');
    const none = await app().inject({
      method: 'GET',
      url: '/api/v1/personnal/subscribe/renewal-terms',
      headers: { authorization: token, 'accept-language': 'id' },
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toEqual(expect.any(String));
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
