import { sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../../src/db/open-database';

/**
 * What every table of ours holds, row by row: each table's row count and a digest of its rows as text, in one
 * string. A request that must store nothing leaves it unchanged, neither adding, removing nor altering a row.
 * `except`: tables a refused request may write by design (the throttles' counters count refused attempts too).
 */
export async function tableDigests(db: DatabaseExecutor, except: string[] = []): Promise<string> {
  const tables = (
    await queryRows<{ name: string }>(
      db,
      sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).filter((table) => !except.includes(table.name));
  const digests = tables.map(
    (table) =>
      sql`select ${table.name} as name, count(*)::int as rows,
            md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest
          from ${sql.identifier(table.name)} t`,
  );
  const rows = await queryRows<{ name: string; rows: number; digest: string }>(db, sql.join(digests, sql` union all `));
  return rows.map((row) => `${row.name}=${row.rows}:${row.digest}`).join(' ');
}
