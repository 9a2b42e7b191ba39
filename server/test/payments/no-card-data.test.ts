import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { loggerOptions } from '../../src/app';
import { loadConfig } from '../../src/config';
import { queryRows } from '../../src/db/open-database';
import { describeEachDatabase } from '../support/databases';
import { freshEmail, freshIp, signUpSubscriber, TEST_CARD } from '../support/sign-up';
import { buildTestApp, type TestApp } from '../support/test-app';

const CVV = '731';
const CARDS = ['4242424242424242', '4000000000000002', '4000000000009995', '4000000000000341', '4111111111111111'];

describeEachDatabase('card numbers and CVVs are neither logged nor stored', (driver) => {
  let testApp: TestApp;
  let logs = '';

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    // The production logger (with its redaction), at the most verbose level.
    const options = loggerOptions(loadConfig({ LOG_LEVEL: 'trace' })) as object;
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' }, { logger: { ...options, stream } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('after sign-ups with every test card, a bad card, a refused body and a renewal', async () => {
    const app = testApp.app;
    for (const number of CARDS) {
      await signUpSubscriber(app, { cardNumber: number.replace(/(\d{4})/g, '$1 ').trim(), cvv: CVV });
    }
    const refused = [
      { card: { ...TEST_CARD, number: '4242424242424241', cvv: CVV } },
      { card: { ...TEST_CARD, number: CARDS[0], cvv: CVV }, termsAccepted: false },
      { card: { ...TEST_CARD, number: CARDS[0], cvv: '99999' } },
    ];
    for (const extra of refused) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/registerAndSign/v5pay',
        remoteAddress: freshIp(),
        payload: {
          email: freshEmail(),
          displayName: 'Rina',
          ageConfirmed: true,
          termsAccepted: true,
          method: 'card',
          ...extra,
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.body).not.toContain(CARDS[0]!);
    }
    await app.billing.runRenewals(new Date(Date.now() + 2 * 24 * 3600 * 1000));

    expect(logs.length).toBeGreaterThan(1000);
    for (const number of [...CARDS, '4242424242424241']) {
      expect(logs).not.toContain(number);
      expect(logs).not.toContain(number.replace(/(\d{4})/g, '$1 ').trim());
    }
    expect(logs).not.toMatch(new RegExp(`"${CVV}"`));

    const tables = await queryRows<{ table_name: string }>(
      app.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(tables.map((row) => row.table_name)).toEqual(expect.arrayContaining(['payments', 'registrations', 'users']));
    let cells = 0;
    for (const { table_name: table } of tables) {
      const rows = await queryRows<Record<string, unknown>>(app.db, sql.raw(`select * from "${table}"`));
      for (const row of rows) {
        for (const value of Object.values(row)) {
          const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
          cells += 1;
          expect(text).not.toBe(CVV);
          for (const number of CARDS) {
            expect(text.replace(/[\s-]/g, '')).not.toContain(number);
          }
        }
      }
    }
    expect(cells).toBeGreaterThan(100);
  });
});
