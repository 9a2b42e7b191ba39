import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/open-database';
import { describeEachDatabase } from '../support/databases';
import { encryptPassword } from '../support/jsencrypt';
import { freshEmail, TEST_CARD } from '../support/sign-up';
import { buildTestApp, type TestApp } from '../support/test-app';

describeEachDatabase('throttles counted per network address', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('keep the address in no counter: sign-up, contact form and refund request count under a keyed hash', async () => {
    // Addresses of their own, so that any copy of them anywhere is found.
    const addresses = { signUp: '198.51.100.171', contact: '198.51.100.172', refund: '198.51.100.173' };
    const publicKey = (await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data
      .publicKey;
    const signUp = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/v5pay',
      remoteAddress: addresses.signUp,
      payload: {
        email: freshEmail(),
        displayName: 'Rina',
        locale: 'en',
        ageConfirmed: true,
        termsAccepted: true,
        password: encryptPassword(publicKey, 'a-long-password-1'),
        method: 'card',
        card: TEST_CARD,
      },
    });
    expect(signUp.statusCode).toBe(200);
    const contact = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/contact/messages',
      remoteAddress: addresses.contact,
      payload: { name: 'Budi', email: 'budi@example.com', topic: 'question', message: 'How does consent work?' },
    });
    expect(contact.statusCode).toBe(200);
    const refund = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/refunds',
      remoteAddress: addresses.refund,
      payload: { email: 'nobody@example.com', reason: 'Charged twice', locale: 'en', verificationCode: '123456' },
    });
    expect(refund.statusCode).toBe(400);

    const keys = (await queryRows<{ key: string }>(testApp.app.db, sql`select key from auth_throttles`)).map(
      (row) => row.key,
    );
    for (const prefix of ['register:ip:', 'contact:ip:', 'refund:ip:']) {
      expect(keys.filter((key) => key.startsWith(prefix))).toHaveLength(1);
    }
    for (const address of Object.values(addresses)) {
      expect(keys.filter((key) => key.includes(address))).toEqual([]);
    }
  });
});
