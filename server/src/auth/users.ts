import { eq, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import type { Locale } from '../lib/messages';
import { hashPassword } from './passwords';

export type User = typeof users.$inferSelect;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DatabaseExecutor, email: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return user;
}

export async function findUserById(db: DatabaseExecutor, id: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function createUser(
  db: DatabaseExecutor,
  input: { email: string; displayName: string; password: string; phone?: string | null; locale?: Locale },
): Promise<User> {
  const [user] = await db
    .insert(users)
    .values({
      email: normalizeEmail(input.email),
      displayName: input.displayName.trim(),
      phone: input.phone ?? null,
      passwordHash: await hashPassword(input.password),
      locale: input.locale ?? 'en',
    })
    .returning();
  if (!user) throw new Error('the user was not created');
  return user;
}

/** A new password's hash for the account; answers when it changed. */
export async function setPasswordHash(
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

/** What the browser keeps as the current user (the login answer's user.userCacheInfo). Never the password hash. */
export interface UserCacheInfo {
  id: string;
  email: string;
  displayName: string;
  phone: string | null;
  locale: Locale;
  createdAt: string;
}

export function userCacheInfo(user: User): UserCacheInfo {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    phone: user.phone,
    locale: user.locale,
    createdAt: user.createdAt.toISOString(),
  };
}
