import { eq, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';

// The accounts, as rows: every query the user rules (users.ts) make.

export type UserRow = typeof users.$inferSelect;

/** The account whose email is `email`, already normalized. */
export async function userByEmail(db: DatabaseExecutor, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return user;
}

export async function userById(db: DatabaseExecutor, id: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function insertUser(
  db: DatabaseExecutor,
  values: Pick<typeof users.$inferInsert, 'email' | 'displayName' | 'phone' | 'passwordHash' | 'locale'>,
): Promise<UserRow> {
  const [user] = await db.insert(users).values(values).returning();
  if (!user) throw new Error('the user was not created');
  return user;
}

/** Stores a new password's hash, stamped now; when it changed (null when no such account). */
export async function updatePasswordHash(
  db: DatabaseExecutor,
  userId: string,
  passwordHash: string,
): Promise<Date | null> {
  const [changed] = await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning({ at: users.passwordChangedAt });
  return changed?.at ?? null;
}
