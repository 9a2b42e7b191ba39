import { and, eq, isNull } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { accountSuspensions } from '../db/schema/safety-desk';

// The standing suspension of an account or an email: what sign-in, sending and sign-up ask (suspension-checks.ts).

export type SuspensionRow = typeof accountSuspensions.$inferSelect;

const standing = isNull(accountSuspensions.liftedAt);

/** The account's standing suspension, if any. */
export async function standingSuspensionOf(db: DatabaseExecutor, userId: string): Promise<SuspensionRow | undefined> {
  const [row] = await db
    .select()
    .from(accountSuspensions)
    .where(and(eq(accountSuspensions.userId, userId), standing));
  return row;
}

/** Whether a standing suspension holds this email (its keyed hash), with or without its account. */
export async function emailHashSuspended(db: DatabaseExecutor, emailHash: string): Promise<boolean> {
  const rows = await db
    .select({ id: accountSuspensions.id })
    .from(accountSuspensions)
    .where(and(eq(accountSuspensions.emailHash, emailHash), standing))
    .limit(1);
  return rows.length > 0;
}
