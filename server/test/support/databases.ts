import { randomBytes } from 'node:crypto';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type OpenedDatabase } from '../../src/db/open-database';
import { withPostgres } from './postgres-admin';
import { scratchDir } from './scratch-dir';

export type DriverName = 'pglite' | 'postgres';

const postgresUrl = process.env.KABARI_TEST_POSTGRES_URL;
const postgresSkipReason = process.env.KABARI_TEST_POSTGRES_SKIP ?? 'PostgreSQL tests SKIPPED';

/** Runs the same tests on embedded PGlite and on PostgreSQL (skipped, saying why, when none is available). */
export function describeEachDatabase(title: string, body: (driver: DriverName) => void): void {
  describe(`${title} [pglite]`, () => body('pglite'));
  if (postgresUrl) describe(`${title} [postgres]`, () => body('postgres'));
  else describe.skip(`${title} [postgres] — ${postgresSkipReason}`, () => body('postgres'));
}

export function tempDir(prefix = 'kabari-test-'): string {
  return scratchDir(prefix);
}

export interface TestDatabase {
  /** Environment for loadConfig: a fresh DATA_DIR, and DATABASE_URL for PostgreSQL. */
  env: Record<string, string>;
  dataDir: string;
  databaseUrl?: string;
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database: a new DATA_DIR for PGlite (a copy of the migrated cluster the global setup made), a
 * new database with a random name on PostgreSQL (a copy of the migrated template the global setup made). With
 * `{ empty: true }`, for the tests of migrating: PGlite's cluster and PostgreSQL's database without our tables.
 */
export async function createTestDatabase(driver: DriverName, options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = tempDir('kabari-test-data-');
  if (driver === 'pglite') {
    const template = options.empty
      ? process.env.KABARI_TEST_PGLITE_UNMIGRATED
      : process.env.KABARI_TEST_PGLITE_MIGRATED;
    if (template) cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
    return {
      env: { DATA_DIR: dataDir },
      dataDir,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }

  if (!postgresUrl) throw new Error(postgresSkipReason);
  const name = `kabari_test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? undefined : process.env.KABARI_TEST_POSTGRES_TEMPLATE;
  await withPostgres(postgresUrl, (client) =>
    client.query(template ? `create database ${name} template ${template}` : `create database ${name}`),
  );
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    databaseUrl: url.toString(),
    cleanup: async () => {
      await withPostgres(postgresUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh, migrated database opened for the tests of one `describe` (the database layer alone, without the app):
 * opened before them, closed and removed after. Read `.current` inside a test.
 */
export function openedTestDatabase(driver: DriverName): { current: OpenedDatabase } {
  let database: TestDatabase | undefined;
  const opened = {} as { current: OpenedDatabase };
  beforeAll(async () => {
    database = await createTestDatabase(driver);
    opened.current = await openDatabase(
      { dataDir: database.dataDir, databaseUrl: database.databaseUrl },
      { info: () => undefined, error: () => undefined },
    );
  });
  afterAll(async () => {
    await opened.current?.client.close();
    await database?.cleanup();
  });
  return opened;
}
