import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { sessions, users } from '../db/schema/accounts';
import type { UserRow } from './user-rows';

// The subscriber's sessions, as rows: every query the session rules (sessions.ts) make.

type SessionRow = typeof sessions.$inferSelect;

/** A new session's row (only the token's hash is stored); its id. */
export async function insertSession(
  db: DatabaseExecutor,
  values: { userId: string; tokenHash: string; userAgent: string | null; expiresAt: Date },
): Promise<string> {
  const [row] = await db.insert(sessions).values(values).returning({ id: sessions.id });
  if (!row) throw new Error('the session was not created');
  return row.id;
}

/** The session a token's hash names with its user, unless revoked or expired at `now`. */
export async function liveSessionByTokenHash(
  db: DatabaseExecutor,
  tokenHash: string,
  now: Date,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  return row;
}

/** Marks a session seen at `seenAt`, and moves its expiry. */
export async function touchSession(db: DatabaseExecutor, id: string, seenAt: Date, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: seenAt, expiresAt }).where(eq(sessions.id, id));
}

/** Revokes one session, unless it already was. */
export async function revokeSessionRow(db: DatabaseExecutor, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user, except `keepSessionId` (if given). */
export async function revokeSessionRowsOf(db: DatabaseExecutor, userId: string, keepSessionId?: string): Promise<void> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(...conditions));
}
