// Every row a stopped Kabari left in its embedded database, read straight from its data folder with PGlite, so a
// test can say what was stored and what was not.
import path from 'node:path';

export type StoredRows = Record<string, Record<string, unknown>[]>;

/** All rows of every table of the app's schema, by table name. The server must be stopped (it locks the folder). */
export async function storedRows(dataDir: string): Promise<StoredRows> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(path.join(dataDir, 'pglite'));
  try {
    const tables = await db.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
    );
    const rows: StoredRows = {};
    for (const { name } of tables.rows) {
      rows[name] = (await db.query<Record<string, unknown>>(`select * from "${name.replace(/"/g, '""')}"`)).rows;
    }
    return rows;
  } finally {
    await db.close();
  }
}

/** The tables (and, for each, the columns) where `text` appears in a stored value. */
export function whereStored(rows: StoredRows, text: string): string[] {
  const found = new Set<string>();
  for (const [table, tableRows] of Object.entries(rows)) {
    for (const row of tableRows) {
      for (const [column, value] of Object.entries(row)) {
        const shown = typeof value === 'string' ? value : JSON.stringify(value ?? null);
        if (shown.includes(text)) found.add(`${table}.${column}`);
      }
    }
  }
  return [...found].sort();
}
