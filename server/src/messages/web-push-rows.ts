import { eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { pushSubscriptions } from '../db/schema/accounts';
import { serverSettings } from '../db/schema/server';

// What the Web Push sender reads and deletes, as rows: every query of web-push-sender.ts.

export async function pushSubscriptionById(
  db: DatabaseExecutor,
  id: string,
): Promise<typeof pushSubscriptions.$inferSelect | undefined> {
  const [subscription] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  return subscription;
}

export async function deletePushSubscriptionById(db: DatabaseExecutor, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/** Deletes a setting the server keeps in the database (server_settings). */
export async function deleteServerSetting(db: DatabaseExecutor, key: string): Promise<void> {
  await db.delete(serverSettings).where(eq(serverSettings.key, key));
}
