import { hash, randomBytes } from 'node:crypto';
import type { DatabaseExecutor } from '../db/open-database';
import {
  insertSession,
  liveSessionByTokenHash,
  revokeSessionRow,
  revokeSessionRowsOf,
  touchSession,
} from './session-rows';
import type { User } from './users';

export const SESSION_DAYS = 30;
// Writing last_seen_at on every request would turn each read into a write; once in a while is enough.
const TOUCH_AFTER_MS = 5 * 60 * 1000;

export interface Session {
  id: string;
  user: User;
}

function daysFromNow(days: number): Date {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000);
}

/** Whether a token has the form of a session token (43 base64url characters as made, some slack): nothing else is one. */
export function hasSessionTokenForm(token: string): boolean {
  return /^[A-Za-z0-9_-]{20,200}$/.test(token);
}

/** The session token's sha256, in hex: what the database stores and finds a session by. */
export function tokenHash(token: string): string {
  // The one-shot form: createHash's object and its stream methods cost twice as much.
  return hash('sha256', token, 'hex');
}

/** A new session: the token (256 random bits) goes to the client once; only its sha256 is stored. */
export async function createSession(
  db: DatabaseExecutor,
  userId: string,
  userAgent: string | undefined,
): Promise<{ token: string; sessionId: string }> {
  const token = randomBytes(32).toString('base64url');
  const sessionId = await insertSession(db, {
    userId,
    tokenHash: tokenHash(token),
    userAgent: userAgent?.slice(0, 512) ?? null,
    expiresAt: daysFromNow(SESSION_DAYS),
  });
  return { token, sessionId };
}

/**
 * The live session a token belongs to, or null (unknown, revoked or expired). Active sessions slide forward;
 * `renewed` says this read moved the expiry (the browser's cookie is then renewed too).
 */
export async function findSession(
  db: DatabaseExecutor,
  token: string,
): Promise<(Session & { renewed: boolean }) | null> {
  if (!hasSessionTokenForm(token)) return null;
  const row = await liveSessionByTokenHash(db, tokenHash(token), new Date());
  if (!row) return null;
  const renewed = Date.now() - row.session.lastSeenAt.getTime() > TOUCH_AFTER_MS;
  if (renewed) {
    await touchSession(db, row.session.id, new Date(), daysFromNow(SESSION_DAYS));
  }
  return { id: row.session.id, user: row.user, renewed };
}

export async function revokeSession(db: DatabaseExecutor, sessionId: string): Promise<void> {
  await revokeSessionRow(db, sessionId);
}

/** After a password change: every session of the user ends, except the one making the change (if any). */
export async function revokeUserSessions(db: DatabaseExecutor, userId: string, keepSessionId?: string): Promise<void> {
  await revokeSessionRowsOf(db, userId, keepSessionId);
}
