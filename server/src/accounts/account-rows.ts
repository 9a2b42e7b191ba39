import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { User } from '../auth/users';
import type { DatabaseExecutor } from '../db/open-database';
import { sessions, users, verificationCodes } from '../db/schema/accounts';
import { payments, refundRequests } from '../db/schema/billing';
import { locationRequests, mapViews, positions } from '../db/schema/location-requests';

// The subscriber's own rows: every query the account rules (own-account.ts) make, besides erasure (erase-account.ts).

/**
 * Everything an account holds, for its export: payments, requests with their positions and map views, sessions,
 * refunds.
 */
export async function accountRows(db: DatabaseExecutor, user: Pick<User, 'id' | 'email'>) {
  const paid = await db.select().from(payments).where(eq(payments.userId, user.id)).orderBy(payments.createdAt);
  const requests = await db
    .select()
    .from(locationRequests)
    .where(eq(locationRequests.userId, user.id))
    .orderBy(locationRequests.createdAt);
  const shared =
    requests.length === 0
      ? []
      : await db
          .select()
          .from(positions)
          .where(
            inArray(
              positions.requestId,
              requests.map((row) => row.id),
            ),
          )
          .orderBy(positions.id);
  // When the subscriber had each request's map open (what its recipient sees of who looked).
  const looked =
    requests.length === 0
      ? []
      : await db
          .select()
          .from(mapViews)
          .where(
            inArray(
              mapViews.requestId,
              requests.map((row) => row.id),
            ),
          )
          .orderBy(mapViews.id);
  // Every device signed in, ended ones too; never the token or its hash.
  const devices = await db
    .select({
      id: sessions.id,
      device: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      endedAt: sessions.revokedAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, user.id))
    .orderBy(sessions.createdAt);
  // Refund requests are made by account or by the account's email (confirmed by a code).
  const refunds = await db
    .select()
    .from(refundRequests)
    .where(or(eq(refundRequests.userId, user.id), eq(refundRequests.email, user.email)))
    .orderBy(refundRequests.createdAt);
  return { paid, requests, shared, looked, devices, refunds };
}

export async function setDisplayName(db: DatabaseExecutor, userId: string, displayName: string): Promise<User> {
  const [user] = await db
    .update(users)
    .set({ displayName, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  if (!user) throw new Error('the account vanished');
  return user;
}

/** The account's new address; codes still waiting for the old one are spent. */
export async function setEmail(
  db: DatabaseExecutor,
  current: Pick<User, 'id' | 'email'>,
  newEmail: string,
): Promise<User> {
  const [user] = await db
    .update(users)
    .set({ email: newEmail, updatedAt: sql`now()` })
    .where(eq(users.id, current.id))
    .returning();
  if (!user) throw new Error('the account vanished');
  // Codes still waiting for the old address (a reset, a deletion) would name an account it no longer has.
  await db
    .update(verificationCodes)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(verificationCodes.email, current.email), isNull(verificationCodes.consumedAt)));
  return user;
}

/** The account's sessions still in use, last used first (at most 100). */
export function activeSessionsOf(db: DatabaseExecutor, userId: string) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt))
    .limit(100);
}

/** Whether `sessionId` is one of the account's sessions, not yet ended. */
export async function isOwnOpenSession(db: DatabaseExecutor, userId: string, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  return row !== undefined;
}
