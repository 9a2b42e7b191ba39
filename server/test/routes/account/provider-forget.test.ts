import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { loggerOptions } from '../../../src/app';
import { loadConfig } from '../../../src/config';
import { users } from '../../../src/db/schema/accounts';
import { subscriptions } from '../../../src/db/schema/billing';
import { PaypalProcessor } from '../../../src/payments/paypal';
import { paypalApiBase } from '../../../src/payments/paypal-outcomes';
import { StripeProcessor } from '../../../src/payments/stripe';
import { describeEachDatabase } from '../../support/databases';
import { encryptPassword } from '../../support/jsencrypt';
import { freshIp, signUpSubscriber } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

interface Call {
  method: string;
  path: string;
}

/** How the fake provider answers a deletion: done, already gone, or down. */
type Answer = 'ok' | 'missing' | 'down';

/** Stripe's API for customers.del, played back through the SDK's fetch client. */
function fakeStripe(calls: Call[], answer: () => Answer) {
  return Stripe.createFetchHttpClient((async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    calls.push({ method: init?.method ?? 'GET', path: url.pathname });
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    const customer = /^\/v1\/customers\/(\w+)$/.exec(url.pathname);
    if (!customer || init?.method !== 'DELETE') return json(404, { error: { type: 'invalid_request_error' } });
    const mode = answer();
    if (mode === 'down') return json(400, { error: { type: 'invalid_request_error', message: 'Stripe says no' } });
    if (mode === 'missing') {
      return json(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such' } });
    }
    return json(200, { id: customer[1], object: 'customer', deleted: true });
  }) as typeof fetch);
}

/** PayPal's OAuth and vault API, played back as the SDK's fetch. */
function fakePaypal(calls: Call[], answer: () => Answer): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url);
    if (url.origin !== paypalApiBase('sandbox')) throw new Error(`unexpected host: ${url.origin}`);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    calls.push({ method, path: url.pathname });
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    if (url.pathname === '/v1/oauth2/token') {
      return json(200, { access_token: 'A21-token', token_type: 'Bearer', expires_in: 32400 });
    }
    if (/^\/v3\/vault\/payment-tokens\/\w+$/.test(url.pathname) && method === 'DELETE') {
      const mode = answer();
      if (mode === 'down') return json(503, { name: 'SERVICE_UNAVAILABLE' });
      if (mode === 'missing') return json(404, { name: 'RESOURCE_NOT_FOUND' });
      return new Response(null, { status: 204 });
    }
    return json(404, { name: 'RESOURCE_NOT_FOUND' });
  }) as typeof fetch;
}

/** Waits for something the route does after answering (no fixed sleep: checks until it holds). */
async function eventually(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describeEachDatabase('deleting an account forgets the customer at the payment provider', (driver) => {
  let testApp: TestApp;
  let publicKey: string;
  let logs = '';
  const calls: Call[] = [];
  let answer: Answer = 'ok';

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    const options = loggerOptions(loadConfig({ LOG_LEVEL: 'warn' })) as object;
    // The sandbox signs people up; the providers are stood in for as if they had charged them.
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' }, { logger: { ...options, stream } });
    testApp.app.billing.stripe = new StripeProcessor(
      { secretKey: 'sk_test_kabari', publishableKey: 'pk_test_kabari', webhookSecret: 'whsec_kabari' },
      fakeStripe(calls, () => answer),
    );
    testApp.app.billing.paypal = new PaypalProcessor(
      { clientId: 'kabari-client', clientSecret: 'kabari-secret', webhookId: 'WH-KABARI', environment: 'sandbox' },
      fakePaypal(calls, () => answer),
    );
    publicKey = (await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;

  /** A subscriber whose subscription is at `provider` with these references, then deleted by password. */
  async function deleteSubscriberAt(provider: 'stripe' | 'paypal', customerRef: string, methodRef: string) {
    const { email, token } = await signUpSubscriber(app(), { password: 'delete-me-1', displayName: 'Rina Wijaya' });
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    await app()
      .db.update(subscriptions)
      .set({ provider, providerCustomerRef: customerRef, providerPaymentMethodRef: methodRef })
      .where(eq(subscriptions.userId, user!.id));
    const response = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/account/delete',
      remoteAddress: freshIp(),
      headers: { authorization: token! },
      payload: { password: encryptPassword(publicKey, 'delete-me-1') },
    });
    expect(response.statusCode).toBe(200);
    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    return { email };
  }

  it('deletes the Stripe customer', async () => {
    answer = 'ok';
    await deleteSubscriberAt('stripe', 'cus_forget1', 'pm_card_visa');
    await eventually(() => calls.some((call) => call.path === '/v1/customers/cus_forget1'));
    expect(calls.find((call) => call.path === '/v1/customers/cus_forget1')!.method).toBe('DELETE');
  });

  it('deletes the PayPal vault token', async () => {
    answer = 'ok';
    await deleteSubscriberAt('paypal', 'PAYPALCUST1', 'VAULTFORGET1');
    await eventually(() => calls.some((call) => call.path === '/v3/vault/payment-tokens/VAULTFORGET1'));
    expect(calls.find((call) => call.path === '/v3/vault/payment-tokens/VAULTFORGET1')!.method).toBe('DELETE');
  });

  it('a customer the provider no longer knows counts as forgotten; any other refusal is an error', async () => {
    answer = 'missing';
    await expect(app().billing.stripe!.forgetCustomer('cus_gone1')).resolves.toBeUndefined();
    await expect(app().billing.paypal!.forgetPaymentToken('VAULTGONE1')).resolves.toBeUndefined();
    answer = 'down';
    await expect(app().billing.stripe!.forgetCustomer('cus_gone2')).rejects.toThrow();
    await expect(app().billing.paypal!.forgetPaymentToken('VAULTGONE2')).rejects.toThrow();
  });

  it('a provider that refuses or is down does not stop the deletion, and the warning names no one', async () => {
    answer = 'down';
    const before = logs.length;
    const stripeUser = await deleteSubscriberAt('stripe', 'cus_down1', 'pm_card_visa');
    await eventually(() => (logs.slice(before).match(/could not forget/g) ?? []).length >= 1);
    const paypalUser = await deleteSubscriberAt('paypal', 'PAYPALCUST3', 'VAULTDOWN1');
    await eventually(() => (logs.slice(before).match(/could not forget/g) ?? []).length >= 2);
    const warnings = logs.slice(before);
    expect(warnings).toContain('"provider":"stripe"');
    expect(warnings).toContain('"provider":"paypal"');
    for (const secret of [stripeUser.email, paypalUser.email, 'Rina', 'cus_down1', 'VAULTDOWN1', 'PAYPALCUST3']) {
      expect(warnings).not.toContain(secret);
    }
  });
});
