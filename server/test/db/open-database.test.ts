import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import { DataDirLockedError } from '../../src/db/data-dir-lock';
import { migratePostgres, MIGRATIONS_FOLDER } from '../../src/db/migrate';
import { openDatabase, queryRows, type OpenedDatabase, schema } from '../../src/db/open-database';
import { serverSettings } from '../../src/db/schema/server';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../support/databases';

const quietLog = { info: () => undefined, error: () => undefined };

// Every table the schema declares, so the migrations are proven to create exactly the schema.
const EXPECTED_TABLES = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableName(table))
  .sort();

// Every check constraint the schema declares (the state columns' allowed values among them), by name.
const EXPECTED_CHECKS = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .flatMap((table) => getTableConfig(table).checks.map((check) => check.name))
  .sort();

async function checkNames(opened: OpenedDatabase): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    opened.db,
    sql`select conname as name from pg_constraint join pg_namespace on pg_namespace.oid = connamespace
        where nspname = 'public' and contype = 'c' order by conname`,
  );
  return rows.map((row) => row.name);
}

async function tableNames(opened: OpenedDatabase): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    opened.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return rows.map((row) => row.table_name);
}

describeEachDatabase('openDatabase', (driver) => {
  let database: TestDatabase;

  beforeEach(async () => {
    // Without our tables (PGlite: a cluster after initdb; PostgreSQL: an empty database): the first openDatabase
    // below migrates it.
    database = await createTestDatabase(driver, { empty: true });
  });

  afterEach(async () => {
    await database.cleanup();
  });

  it('runs the migrations on start, and a second start finds nothing left to do', async () => {
    const options = { dataDir: database.dataDir, databaseUrl: database.databaseUrl };
    const first = await openDatabase(options, quietLog);
    try {
      expect(first.client.driver).toBe(driver);
      // Only the embedded database is guarded by the DATA_DIR lock.
      expect(existsSync(path.join(database.dataDir, 'server.lock'))).toBe(driver === 'pglite');
      expect(await tableNames(first)).toEqual(EXPECTED_TABLES);
      expect(await checkNames(first)).toEqual(EXPECTED_CHECKS);
      await first.db.insert(serverSettings).values({ key: 'probe', value: { kept: true } });
    } finally {
      await first.client.close();
    }

    const second = await openDatabase(options, quietLog);
    try {
      const rows = await second.db.select().from(serverSettings);
      expect(rows).toEqual([{ key: 'probe', value: { kept: true }, updatedAt: expect.any(Date) }]);
      const applied = await queryRows<{ count: string | number }>(
        second.db,
        sql`select count(*) as count from drizzle.__drizzle_migrations`,
      );
      const migrationFiles = readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith('.sql'));
      expect(Number(applied[0]?.count)).toBe(migrationFiles.length);
      await expect(second.client.ping()).resolves.toBeUndefined();
    } finally {
      await second.client.close();
    }
  });
});

describe('the embedded database folder (DATA_DIR)', () => {
  it('is created on first start, and released on close', () => {
    // The global setup's first start: openDatabase on a folder that did not exist (see global-setup.ts).
    const dataDir = process.env.KABARI_TEST_PGLITE_FIRST_START as string;
    expect(dataDir).toBeTruthy();
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  });

  it('starts with a 32 MB page cache, not PostgreSQL’s 128 MB (zeroed at every start, in the server’s memory)', async () => {
    const database = await createTestDatabase('pglite');
    const opened = await openDatabase({ dataDir: database.dataDir, databaseUrl: undefined }, quietLog);
    try {
      const [row] = await queryRows<{ shared_buffers: string }>(opened.db, sql`show shared_buffers`);
      expect(row?.shared_buffers).toBe('32MB');
    } finally {
      await opened.client.close();
      await database.cleanup();
    }
  });

  it('stores and reads bytea byte for byte with its own hex codec: every byte value, an empty value, a part', async () => {
    const database = await createTestDatabase('pglite');
    const opened = await openDatabase({ dataDir: database.dataDir, databaseUrl: undefined }, quietLog);
    try {
      const everyByte = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
      const [row] = await queryRows<{ whole: Uint8Array; empty: Uint8Array; part: Uint8Array; hex: string }>(
        opened.db,
        sql`select ${everyByte}::bytea as whole, ${new Uint8Array(0)}::bytea as empty,
          substring(${everyByte}::bytea from 255 for 3) as part, encode(${everyByte}::bytea, 'hex') as hex`,
      );
      expect(row?.whole).toBeInstanceOf(Uint8Array);
      expect(Array.from(row!.whole)).toEqual(Array.from(everyByte));
      expect(row?.empty).toHaveLength(0);
      expect(Array.from(row!.part)).toEqual([254, 255, 0]);
      // What PostgreSQL received is what was sent.
      expect(row?.hex).toBe(Buffer.from(everyByte).toString('hex'));
      // Anything but bytes is refused rather than stored as its text.
      await expect(queryRows(opened.db, sql`select ${'not bytes'}::bytea`)).rejects.toMatchObject({
        cause: expect.objectContaining({ message: 'Invalid input for bytea type' }),
      });
    } finally {
      await opened.client.close();
      await database.cleanup();
    }
  });

  it('is never opened by two servers at once, and is free again after close', async () => {
    const database = await createTestDatabase('pglite');
    try {
      const options = { dataDir: database.dataDir, databaseUrl: undefined };
      const first = await openDatabase(options, quietLog);
      // Held and refreshed by a live server all the while it waits: refused.
      const second = openDatabase({ ...options, lockWaitMs: 2_000 }, quietLog);
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(`DATA_DIR ${database.dataDir} is in use by another Kabari server process`);
      await first.client.close();

      const again = await openDatabase(options, quietLog);
      await again.client.close();
    } finally {
      await database.cleanup();
    }
  });

  it('waits for the lock of a server killed a moment ago to expire, and says so, instead of failing', async () => {
    const database = await createTestDatabase('pglite');
    try {
      // A server killed 8 s ago: its lock goes stale 2 s from now.
      const lock = path.join(database.dataDir, 'server.lock');
      mkdirSync(lock);
      const killedAt = new Date(Date.now() - 8_000);
      utimesSync(lock, killedAt, killedAt);
      const said: string[] = [];
      const opened = await openDatabase(
        { dataDir: database.dataDir, databaseUrl: undefined },
        { ...quietLog, info: (message: string) => said.push(message) },
      );
      await opened.client.close();
      expect(said[0]).toBe(
        `DATA_DIR ${database.dataDir} is locked: waiting up to 12 s for the lock of a server that stopped to expire`,
      );
    } finally {
      await database.cleanup();
    }
  });

  it('is taken over at once from a server of this machine that was killed, its lock still fresh', async () => {
    const database = await createTestDatabase('pglite');
    try {
      // A process that has ended, recorded as the holder of a lock refreshed a moment ago.
      const child = spawn(process.execPath, ['-e', '']);
      const pid = child.pid!;
      await new Promise((resolve) => child.on('exit', resolve));
      mkdirSync(path.join(database.dataDir, 'server.lock'));
      writeFileSync(path.join(database.dataDir, 'server.lock.owner'), JSON.stringify({ pid, host: hostname() }));
      const said: string[] = [];
      const started = Date.now();
      const opened = await openDatabase(
        { dataDir: database.dataDir, databaseUrl: undefined },
        { ...quietLog, info: (message: string) => said.push(message) },
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(said[0]).toBe(
        `DATA_DIR ${database.dataDir} was locked by process ${pid}, which has ended: taking the lock over`,
      );
      // The new holder is on record, and the record goes with the lock.
      const owner = JSON.parse(readFileSync(path.join(database.dataDir, 'server.lock.owner'), 'utf8'));
      expect(owner).toEqual({ pid: process.pid, host: hostname() });
      await opened.client.close();
      expect(existsSync(path.join(database.dataDir, 'server.lock.owner'))).toBe(false);
    } finally {
      await database.cleanup();
    }
  });

  it('waits as before when the recorded holder is on another machine', async () => {
    const database = await createTestDatabase('pglite');
    try {
      const lock = path.join(database.dataDir, 'server.lock');
      mkdirSync(lock);
      const killedAt = new Date(Date.now() - 9_000);
      utimesSync(lock, killedAt, killedAt);
      writeFileSync(`${lock}.owner`, JSON.stringify({ pid: 999_999, host: `not-${hostname()}` }));
      const said: string[] = [];
      const opened = await openDatabase(
        { dataDir: database.dataDir, databaseUrl: undefined },
        { ...quietLog, info: (message: string) => said.push(message) },
      );
      await opened.client.close();
      expect(said[0]).toMatch(/is locked: waiting up to 12 s for the lock of a server that stopped to expire$/);
    } finally {
      await database.cleanup();
    }
  });

  it('is taken over from a process that died holding it, once its lock has gone stale', async () => {
    const database = await createTestDatabase('pglite');
    try {
      // What a killed server leaves behind: its lock, no longer refreshed.
      const lock = path.join(database.dataDir, 'server.lock');
      mkdirSync(lock);
      const longAgo = new Date(Date.now() - 60_000);
      utimesSync(lock, longAgo, longAgo);
      const opened = await openDatabase({ dataDir: database.dataDir, databaseUrl: undefined }, quietLog);
      await opened.client.close();
      expect(existsSync(lock)).toBe(false);
    } finally {
      await database.cleanup();
    }
  });
});

describeEachDatabase('migrations from several instances at once', (driver) => {
  if (driver === 'pglite') {
    it('are not a concern for PGlite: one process per folder', () => undefined);
    return;
  }

  /**
   * Ends a pool and waits for its connections to close. `pool.end()` resolves once they are asked to, not once they
   * have: the database's forced drop right after could end one first, and its error would reach a pool that no longer
   * has anyone listening, failing the test (seen on a busy machine).
   */
  async function endPool(pool: Pool): Promise<void> {
    let open = pool.totalCount;
    const closed = new Promise<void>((resolve) => {
      if (open === 0) resolve();
      pool.on('remove', () => {
        open -= 1;
        if (open === 0) resolve();
      });
    });
    await pool.end();
    await closed;
  }

  it('take turns on PostgreSQL through the advisory lock', async () => {
    const database = await createTestDatabase('postgres', { empty: true });
    const pools = [1, 2, 3].map(() => new Pool({ connectionString: database.databaseUrl }));
    try {
      await Promise.all(pools.map((pool) => migratePostgres(pool)));
      const result = await pools[0]!.query<{ count: string }>('select count(*) from drizzle.__drizzle_migrations');
      expect(Number(result.rows[0]?.count)).toBeGreaterThan(0);
    } finally {
      await Promise.all(pools.map(endPool));
      await database.cleanup();
    }
  });
});
