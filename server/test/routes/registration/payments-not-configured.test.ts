import { users } from '../../../src/db/schema/accounts';
import { registrations, subscriptions } from '../../../src/db/schema/billing';
import { FAKE_PROVIDERS_ENV } from '../../support/fake-providers';
import { freshEmail, freshIp, signUpSubscriber, TEST_CARD } from '../../support/sign-up';
import { createRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';

const DEPLOYMENT = { PUBLIC_URL: 'https://kabari.example.com', RENEWAL_INTERVAL_SECONDS: '0' };

function signUpBody(method: 'card' | 'wallet' | 'paypal') {
  return {
    email: freshEmail(),
    displayName: 'Rina',
    locale: 'en',
    ageConfirmed: true,
    termsAccepted: true,
    method,
    ...(method === 'card' ? { card: TEST_CARD } : {}),
  };
}

describe('a deployment without payment keys: payments are not configured', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite', DEPLOYMENT);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const post = (url: string, payload: object | string, headers: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url,
      remoteAddress: freshIp(),
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('tells the browser, so the payment form asks for nothing', async () => {
    const terms = await post('/api/v1/personnal/getPaidAmount', { locale: 'en' });
    expect(terms.json().data).toMatchObject({
      methods: { card: null, wallet: null, paypal: null },
      sandbox: false,
      paymentsConfigured: false,
    });
  });

  it('refuses every way to pay, the sandbox card and wallet too, in both languages, storing nothing', async () => {
    const english =
      'Payments are not configured on this server yet, so no subscription can be paid here. No card details were taken.';
    for (const method of ['card', 'wallet', 'paypal'] as const) {
      const refused = await post('/api/v1/auth/registerAndSign/v5pay', signUpBody(method));
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ status: 503, message: english, data: null });
    }
    const indonesian = await post('/api/v1/auth/registerAndSign/v5pay', signUpBody('card'), {
      'accept-language': 'id',
    });
    expect(indonesian.json().message).toBe(
      'Pembayaran belum diatur di server ini, jadi langganan belum bisa dibayar di sini. Tidak ada data kartu yang diambil.',
    );
    for (const url of ['/api/v1/auth/registerAndSign/stripe', '/api/v1/auth/registerAndSign/paypal']) {
      expect((await post(url, signUpBody('card'))).statusCode).toBe(503);
    }
    // Refused before the body is read: even one that is not JSON gets the same answer, not a parse error.
    const unread = await post('/api/v1/auth/registerAndSign/v5pay', '{"card": {"number": "4242 4242');
    expect(unread.statusCode).toBe(503);

    expect(await testApp.app.db.select().from(registrations)).toEqual([]);
    expect(await testApp.app.db.select().from(users)).toEqual([]);
    expect(await testApp.app.db.select().from(subscriptions)).toEqual([]);
  });

  it('refuses a renewal by hand in the same way', async () => {
    const subscriber = await createRequester(testApp.app, {
      subscription: { status: 'expired', validUntil: new Date(Date.now() - 1000) },
    });
    const renewal = await post(
      '/api/v1/personnal/subscribe/renew',
      { method: 'card', card: TEST_CARD },
      subscriber.headers,
    );
    expect(renewal.statusCode).toBe(503);
    expect(renewal.json().message).toContain('Payments are not configured');
  });
});

describe('the sandbox in a deployment', () => {
  it('takes payments only when the operator asks for it by name (PAYMENTS_SANDBOX=true)', async () => {
    const staging = await buildTestApp('pglite', { ...DEPLOYMENT, PAYMENTS_SANDBOX: 'true' });
    try {
      const terms = await staging.app.inject({
        method: 'POST',
        url: '/api/v1/personnal/getPaidAmount',
        payload: { locale: 'en' },
      });
      expect(terms.json().data).toMatchObject({ sandbox: true, paymentsConfigured: true });
      expect((await signUpSubscriber(staging.app)).query.data.state).toBe('created');
    } finally {
      await staging.close();
    }
  }, 60_000);

  it('with a real provider, the sandbox route refuses before reading the card', async () => {
    const live = await buildTestApp('pglite', { ...DEPLOYMENT, ...FAKE_PROVIDERS_ENV });
    try {
      const refused = await live.app.inject({
        method: 'POST',
        url: '/api/v1/auth/registerAndSign/v5pay',
        headers: { 'content-type': 'application/json' },
        payload: '{"card": {"number": "4242 4242',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('This payment method is not available here. Please choose another one.');
    } finally {
      await live.close();
    }
  }, 60_000);
});
