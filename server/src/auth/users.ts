import type { DatabaseExecutor } from '../db/open-database';
import type { Locale } from '../lib/messages';
import { hashPassword } from './passwords';
import { insertUser, updatePasswordHash, userByEmail, userById, type UserRow } from './user-rows';

export type User = UserRow;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DatabaseExecutor, email: string): Promise<User | undefined> {
  return userByEmail(db, normalizeEmail(email));
}

export async function findUserById(db: DatabaseExecutor, id: string): Promise<User | undefined> {
  return userById(db, id);
}

export async function createUser(
  db: DatabaseExecutor,
  input: { email: string; displayName: string; password: string; phone?: string | null; locale?: Locale },
): Promise<User> {
  return insertUser(db, {
    email: normalizeEmail(input.email),
    displayName: input.displayName.trim(),
    phone: input.phone ?? null,
    passwordHash: await hashPassword(input.password),
    locale: input.locale ?? 'en',
  });
}

/** A new password's hash for the account; answers when it changed. */
export async function setPasswordHash(
  db: DatabaseExecutor,
  userId: string,
  passwordHash: string,
): Promise<Date | null> {
  return updatePasswordHash(db, userId, passwordHash);
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
