import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePgliteDatabase } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { Pool } from 'pg';

// server/drizzle, the same from src/db and dist/db.
export const MIGRATIONS_FOLDER = path.resolve(__dirname, '../../drizzle');

// Any fixed 64-bit number that no other feature uses as an advisory lock key.
const MIGRATION_LOCK_KEY = 4_731_620_215_883_091n;

export async function migratePglite(client: PGlite): Promise<void> {
  await migratePgliteDatabase(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
}

/**
 * Several instances may start at once against one PostgreSQL: the advisory lock makes them take turns,
 * so the second finds the migrations already applied instead of racing on the same DDL.
 */
export async function migratePostgres(pool: Pool): Promise<void> {
  const connection = await pool.connect();
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migrateNodePostgres(drizzleNodePostgres(connection), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    connection.release();
  }
}
