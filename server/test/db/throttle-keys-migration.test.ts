import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { throttleKey } from '../../src/auth/throttle';
import { authThrottles } from '../../src/db/schema/accounts';
import { openedTestDatabase } from '../support/databases';

// Migration 0016 drops the counters whose keys held an email or an IP address in the clear. Run here again on rows
// of every kind, old and new.
describe('migration 0016: throttle rows under the old raw keys', () => {
  const database = openedTestDatabase('pglite');

  it('deletes every raw email or address key, and nothing else', async () => {
    const secret = Buffer.from('m'.repeat(32));
    const raw = [
      'login:ip:203.0.113.7',
      'login:account:rina@example.com',
      'send-code:ip:203.0.113.7',
      'send-code:account:rina@example.com',
      'reset:ip:203.0.113.7',
      'auth-code:ip:2001:db8::1',
      'register:ip:203.0.113.7',
      'refund:ip:203.0.113.7',
      'contact:ip:203.0.113.7',
    ];
    const kept = [
      throttleKey(secret, 'login:ip', '203.0.113.7'),
      throttleKey(secret, 'login:account', 'rina@example.com'),
      throttleKey(secret, 'login:account-ip', 'rina@example.com\n203.0.113.7'),
      throttleKey(secret, 'contact:ip', '203.0.113.7'),
      'account-password:0b6f0f7e-6d0c-4d8e-9a59-6f1f5f4a7d11',
      'share:ip:abcdefabcdefabcdefabcdefabcdefab',
    ];
    await database.current.db
      .insert(authThrottles)
      .values([...raw, ...kept].map((key) => ({ key, count: 1, windowStartedAt: new Date() })));
    const migration = fs.readFileSync(
      path.join(__dirname, '../../drizzle/0016_throttle_delays_and_keyed_keys.sql'),
      'utf8',
    );
    const deletion = migration
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^--.*$/gm, '').trim())
      .find((statement) => statement.startsWith('DELETE'));
    await database.current.db.execute(sql.raw(deletion!));
    const left = (await database.current.db.select().from(authThrottles)).map((row) => row.key).sort();
    expect(left).toEqual([...kept].sort());
  });
});
