import { sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../../src/db/open-database';

/**
 * The tables of the app's schema with a row whose text form (every column, as PostgreSQL writes the row) contains
 * `text`: where a value is stored, in any table or column.
 */
export async function tablesHolding(db: DatabaseExecutor, text: string): Promise<string[]> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const [row] = await queryRows<{ n: number | string }>(
      db,
      sql`select count(*) as n from ${sql.identifier(name)} as t where strpos(t::text, ${text}) > 0`,
    );
    if (Number(row?.n ?? 0) > 0) found.push(name);
  }
  return found;
}
