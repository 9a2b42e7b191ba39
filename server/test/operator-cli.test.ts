import { openDatabase } from '../src/db/open-database';
import { runOperatorCommand } from '../src/operator-cli';
import { beginEnrolment } from '../src/operators/enrolment';
import { createTestDatabase, type TestDatabase } from './support/databases';

const quiet = { info: () => undefined, error: () => undefined };

function captured() {
  const lines = { out: [] as string[], err: [] as string[] };
  return { lines, io: { out: (line: string) => lines.out.push(line), err: (line: string) => lines.err.push(line) } };
}

describe('the operator command', () => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await createTestDatabase('pglite');
  });

  afterEach(async () => {
    await database.cleanup();
  });

  // As `npm run operator` runs it (the e2e operator console test runs that very command, from the build).
  const production = () => ({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://kabari.example',
    DATA_DIR: database.dataDir,
  });

  it('adds an operator and prints a one-time enrolment link that works', async () => {
    const added = captured();
    expect(await runOperatorCommand(['add', 'Ops@Example.com'], production(), added.io)).toBe(0);
    expect(added.lines.err).toEqual([]);
    const token = /https:\/\/kabari\.example\/operator\/enrol#token=([A-Za-z0-9_-]{43})/.exec(
      added.lines.out.join('\n'),
    )?.[1];
    expect(token).toBeDefined();

    const opened = await openDatabase({ dataDir: database.dataDir, databaseUrl: undefined }, quiet);
    try {
      const begun = await beginEnrolment({ db: opened.db, secret: Buffer.alloc(32, 7) }, token!);
      expect(begun.email).toBe('ops@example.com');
    } finally {
      await opened.client.close();
    }
  });

  it('says to stop the server when a running one holds the embedded database', async () => {
    const running = await openDatabase({ dataDir: database.dataDir, databaseUrl: undefined }, quiet);
    try {
      const refused = captured();
      expect(await runOperatorCommand(['add', 'ops@example.com'], production(), refused.io)).toBe(1);
      expect(refused.lines.err.join('\n')).toMatch(/in use by a running Kabari server\. Stop the server first/);
    } finally {
      await running.client.close();
    }
  });

  it('lists operators, disables one, and refuses what it does not understand', async () => {
    const env = { DATA_DIR: database.dataDir, NODE_ENV: 'test' };
    const add = captured();
    expect(await runOperatorCommand(['add', 'rina@example.com'], env, add.io)).toBe(0);
    expect(add.lines.out[1]).toMatch(/^ {2}http:\/\/localhost:8080\/operator\/enrol#token=/);

    const disable = captured();
    expect(await runOperatorCommand(['disable', 'rina@example.com'], env, disable.io)).toBe(0);
    const list = captured();
    expect(await runOperatorCommand(['list'], env, list.io)).toBe(0);
    expect(list.lines.out).toEqual([expect.stringMatching(/^rina@example\.com\tdisabled\tsince \d{4}-\d{2}-\d{2}$/)]);

    const nobody = captured();
    expect(await runOperatorCommand(['disable', 'nobody@example.com'], env, nobody.io)).toBe(1);
    for (const args of [[], ['add'], ['add', 'not-an-email'], ['remove', 'rina@example.com']]) {
      const wrong = captured();
      expect(await runOperatorCommand(args, env, wrong.io)).toBe(2);
      expect(wrong.lines.err.join('\n')).toMatch(/Usage: npm run operator/);
    }
  });
});
