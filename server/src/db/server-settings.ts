import { eq } from 'drizzle-orm';
import type { Database } from './open-database';
import { serverSettings } from './schema/server';

/**
 * Reads a generated value from server_settings, creating it on first start. Every instance then shares the
 * same value; when several start at once, the first insert wins and the others read it back.
 */
export async function sharedSetting<T>(db: Database, key: string, create: () => T): Promise<T> {
  const read = async () => (await db.select().from(serverSettings).where(eq(serverSettings.key, key)))[0];
  const existing = await read();
  if (existing) return existing.value as T;
  await db.insert(serverSettings).values({ key, value: create() }).onConflictDoNothing({ target: serverSettings.key });
  const row = await read();
  if (!row) throw new Error(`server setting ${key} could not be stored`);
  return row.value as T;
}
