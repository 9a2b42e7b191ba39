import fs from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { MIGRATIONS_FOLDER } from '../../src/db/migrate';
import { embeddedDatabase } from '../../src/db/open-database';
import { createTestDatabase, tempDir, type DriverName, type TestDatabase } from './databases';

/** The migrations folder as it was before migration `idx`: it and every later one left out. */
function migrationsBefore(idx: number): string {
  const folder = tempDir('kabari-migrations-');
  fs.mkdirSync(path.join(folder, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  journal.entries = journal.entries.filter((entry) => entry.idx < idx);
  fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) {
    fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  return folder;
}

/**
 * A database at the schema before migration `idx`, with `seed` run on it as the old version would have. The app
 * started on it runs the rest of the migrations.
 */
async function databaseBeforeMigration(
  driver: DriverName,
  idx: number,
  seed: (run: (query: string) => Promise<void>) => Promise<void>,
): Promise<TestDatabase> {
  const migrationsFolder = migrationsBefore(idx);
  try {
    if (driver === 'pglite') {
      const database = await createTestDatabase('pglite', { empty: true });
      const client = embeddedDatabase(path.join(database.dataDir, 'pglite'));
      try {
        await migratePglite(drizzlePglite(client), { migrationsFolder });
        await seed(async (query) => {
          await client.exec(query);
        });
      } finally {
        await client.close();
      }
      return database;
    }
    const database = await createTestDatabase('postgres', { empty: true });
    const client = new Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      await migrateNodePostgres(drizzleNodePostgres(client), { migrationsFolder });
      await seed(async (query) => {
        await client.query(query);
      });
    } finally {
      await client.end();
    }
    return database;
  } finally {
    fs.rmSync(migrationsFolder, { recursive: true, force: true });
  }
}

/** The whole app started on `database` (which runs the migrations it lacks), not yet ready. */
const appOn = (database: TestDatabase) =>
  buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      RSA_PRIVATE_KEY: process.env.KABARI_TEST_RSA_PRIVATE_KEY,
      ...database.env,
    }),
    { logger: false, checkAnswers: true },
  );

/**
 * For the tests of migration `idx`: the function returned seeds a database as the version before it left it, starts
 * the app on it (which runs the migration) and answers it ready. The app and the database go after each test.
 */
export function appAfterMigration(
  driver: DriverName,
  idx: number,
): (seed: Parameters<typeof databaseBeforeMigration>[2]) => Promise<FastifyInstance> {
  let database: TestDatabase | undefined;
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await database?.cleanup();
    database = undefined;
  });
  return async (seed) => {
    database = await databaseBeforeMigration(driver, idx, seed);
    app = await appOn(database);
    await app.ready();
    return app;
  };
}
