import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import { listenPostgres, type NotificationHandlers } from './postgres-listener';
import { lockDataDir } from './data-dir-lock';
import { migratePglite, migratePostgres } from './migrate';
import * as accountTables from './schema/accounts';
import * as billingTables from './schema/billing';
import * as locationRequestTables from './schema/location-requests';
import * as operatorTables from './schema/operators';
import * as outboxTables from './schema/outbox';
import * as safetyDeskTables from './schema/safety-desk';
import * as serverTables from './schema/server';
import * as voiceNoteTables from './schema/voice-notes';

/** Every table, one file per resource under schema/: Drizzle's query API and its types take them together. */
export const schema = {
  ...serverTables,
  ...accountTables,
  ...outboxTables,
  ...billingTables,
  ...locationRequestTables,
  ...voiceNoteTables,
  ...operatorTables,
  ...safetyDeskTables,
};

/** One Drizzle type for both drivers: write queries with the query builder so they run on either. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction handed out by db.transaction(). */
export type DatabaseTransaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Either the database or a transaction on it: data functions take this so callers can group writes. */
export type DatabaseExecutor = Database | DatabaseTransaction;

/** Runs raw SQL and returns its rows: both drivers answer with `{ rows }`, which the shared type hides. */
export async function queryRows<T>(db: DatabaseExecutor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** What queryPreparedRows uses of Drizzle beneath its public API: the dialect and the session both drivers have. */
interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: boolean,
    ): PreparedStatement;
  };
}

interface PreparedStatement {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

/** Each database's statements prepared by queryPreparedRows, by name. */
const preparedStatements = new WeakMap<object, Map<string, PreparedStatement>>();

/**
 * queryRows for a statement run many times a second (a live share's every position), prepared under `name`: its
 * text is written from `build()` once per database (with `sql.placeholder(...)` where its values go), and each run
 * binds `values` only. Writing a statement of several parts afresh each time was about a tenth of a live position's
 * CPU. On PostgreSQL each connection also parses and plans it once, not on every run, which was most of the
 * database's time on it. `build` must always make the same text under one name. Drizzle's own prepared statements
 * exist only for its query builder, so this reaches its driver's session as its query builder does.
 */
export async function queryPreparedRows<T>(
  db: DatabaseExecutor,
  name: string,
  build: () => SQL,
  values: Record<string, unknown>,
): Promise<T[]> {
  let statements = preparedStatements.get(db);
  if (!statements) {
    statements = new Map();
    preparedStatements.set(db, statements);
  }
  let statement = statements.get(name);
  if (!statement) {
    const drizzle = db as unknown as DrizzleInternals;
    statement = drizzle.session.prepareQuery(drizzle.dialect.sqlToQuery(build()), undefined, name, false);
    statements.set(name, statement);
  }
  const result = (await statement.execute(values)) as { rows: T[] };
  return result.rows;
}

export interface DatabaseClient {
  driver: 'pglite' | 'postgres';
  /** Resolves when the database answers `select 1`. */
  ping(): Promise<void>;
  /**
   * LISTENs on a channel (PGlite's own listen; on PostgreSQL a dedicated connection that reconnects). Resolves once
   * listening, to a function that stops it.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenedDatabase {
  db: Database;
  client: DatabaseClient;
}

/**
 * How the embedded database starts: PGlite's own parameters, with a smaller page cache. PostgreSQL's default
 * shared_buffers (128 MB) sits in PGlite's WebAssembly memory and is zeroed at every start, which cost 128 MB of the
 * server's resident memory and about a tenth of a second of CPU before the first query. 32 MB holds 4,096 pages,
 * more than the tables of a local trial or of the small instance an embedded database is for, and the files stay in
 * the system's own file cache besides.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/** PostgreSQL's type id of bytea. */
const BYTEA = 17;

/**
 * bytea to and from PostgreSQL's hex text with Node's native hex codec. PGlite's own converts byte by byte in
 * JavaScript (a parseInt per byte): reading a 512 KB voice note took about 75 ms of the server's one thread, and a
 * data export of 8 MB of notes several seconds. The result is a Uint8Array, as PGlite's own gives.
 */
const byteaParsers = {
  [BYTEA]: (text: string): Uint8Array => {
    const bytes = Buffer.from(text.slice(2), 'hex');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  },
};
const byteaSerializers = {
  [BYTEA]: (value: unknown): string => {
    if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.length).toString('hex')}`;
  },
};

/** The embedded database in `folder` (made there if it is not), started with PGLITE_START_PARAMS. */
export function embeddedDatabase(folder: string): PGlite {
  return new PGlite(folder, { startParams: PGLITE_START_PARAMS, parsers: byteaParsers, serializers: byteaSerializers });
}

export interface DatabaseLog {
  info(message: string): void;
  error(object: unknown, message: string): void;
}

/**
 * `lockWaitMs`: how long an embedded database waits for the lock a stopped server left on DATA_DIR to expire
 * (default about as long as such a lock lives).
 */
export async function openDatabase(
  options: { dataDir: string; databaseUrl: string | undefined; lockWaitMs?: number },
  log: DatabaseLog,
): Promise<OpenedDatabase> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, log)
    : openPglite(options.dataDir, log, options.lockWaitMs);
}

async function openPglite(dataDir: string, log: DatabaseLog, lockWaitMs?: number): Promise<OpenedDatabase> {
  const release = await lockDataDir(
    dataDir,
    {
      onCompromised: (error) => log.error({ err: error }, `The lock on DATA_DIR ${dataDir} was compromised`),
      onWait: (message) => log.info(message),
    },
    { waitMs: lockWaitMs },
  );
  let pglite: PGlite | undefined;
  try {
    const folder = path.join(dataDir, 'pglite');
    pglite = embeddedDatabase(folder);
    await pglite.waitReady;
    await migratePglite(pglite);
    log.info(`Embedded PGlite database ready in ${folder}`);
  } catch (error) {
    await pglite?.close().catch(() => undefined);
    await release();
    throw error;
  }
  const opened = pglite;
  const db = drizzlePglite(opened, { schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    client: {
      driver: 'pglite',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      // One process owns an embedded database: no connection to lose, nothing to catch up on.
      listen: (channel, handlers) => opened.listen(channel, handlers.onNotification),
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await opened.close();
        } finally {
          await release();
        }
      },
    },
  };
}

async function openPostgres(databaseUrl: string, log: DatabaseLog): Promise<OpenedDatabase> {
  const pool = new Pool({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle connection dropped by the server must not crash the process; the pool reconnects.
  pool.on('error', (error) => log.error({ err: error }, 'PostgreSQL connection error'));
  try {
    await migratePostgres(pool);
    log.info('PostgreSQL database ready');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const db = drizzleNodePostgres(pool, { schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    client: {
      driver: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      listen: (channel, handlers) => listenPostgres(databaseUrl, channel, handlers, log),
      close: async () => {
        if (closed) return;
        closed = true;
        await pool.end();
      },
    },
  };
}
