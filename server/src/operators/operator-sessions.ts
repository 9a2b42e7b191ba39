import type { DatabaseExecutor } from '../db/open-database';
import { newOperatorToken, OPERATOR_TOKEN_PATTERN, operatorTokenHash } from './operator-secrets';
import {
  insertOperatorSession,
  liveOperatorSession,
  revokeOperatorSession,
  touchOperatorSession,
} from './operator-rows';

// An operator's session: short, since it can end anyone's shares. It ends 30 minutes after the last request and
// 12 hours after sign-in at the latest, whatever the activity.

export const OPERATOR_IDLE_MS = 30 * 60 * 1000;
export const OPERATOR_SESSION_MAX_MS = 12 * 60 * 60 * 1000;
// Each request moves the idle deadline; writing it more often than this would only cost writes.
const TOUCH_AFTER_MS = 15 * 1000;

export interface OperatorIdentity {
  id: string;
  email: string;
  sessionId: string;
}

export interface OperatorSessionView {
  operator: { id: string; email: string };
  expiresAt: Date;
  idleExpiresAt: Date;
}

/** A new session for the operator: the token for the cookie, once; only its hash is stored. */
export async function startOperatorSession(
  db: DatabaseExecutor,
  operator: { id: string; email: string },
): Promise<{ token: string; sessionId: string; view: OperatorSessionView }> {
  const token = newOperatorToken();
  const now = new Date();
  const session = await insertOperatorSession(db, {
    operatorId: operator.id,
    tokenHash: operatorTokenHash(token),
    now,
    expiresAt: new Date(now.getTime() + OPERATOR_SESSION_MAX_MS),
  });
  return {
    token,
    sessionId: session.id,
    view: {
      operator: { id: operator.id, email: operator.email },
      expiresAt: session.expiresAt,
      idleExpiresAt: idleEnd(now, session.expiresAt),
    },
  };
}

function idleEnd(lastSeen: Date, expiresAt: Date): Date {
  return new Date(Math.min(lastSeen.getTime() + OPERATOR_IDLE_MS, expiresAt.getTime()));
}

/**
 * The operator a session token signs in, or null (unknown, revoked, idle too long, past its 12 hours, or the
 * operator disabled). A live session's idle deadline moves on with this request.
 */
export async function operatorOfSession(
  db: DatabaseExecutor,
  token: string | undefined,
): Promise<{ identity: OperatorIdentity; view: OperatorSessionView } | null> {
  if (!token || !OPERATOR_TOKEN_PATTERN.test(token)) return null;
  const found = await liveOperatorSession(db, operatorTokenHash(token));
  if (!found) return null;
  const now = new Date();
  const { session, operator } = found;
  if (session.expiresAt <= now || session.lastSeenAt.getTime() + OPERATOR_IDLE_MS <= now.getTime()) return null;
  let lastSeen = session.lastSeenAt;
  if (now.getTime() - lastSeen.getTime() >= TOUCH_AFTER_MS) {
    await touchOperatorSession(db, session.id, now);
    lastSeen = now;
  }
  return {
    identity: { id: operator.id, email: operator.email, sessionId: session.id },
    view: {
      operator: { id: operator.id, email: operator.email },
      expiresAt: session.expiresAt,
      idleExpiresAt: idleEnd(lastSeen, session.expiresAt),
    },
  };
}

export async function endOperatorSession(db: DatabaseExecutor, sessionId: string): Promise<void> {
  await revokeOperatorSession(db, sessionId);
}
