import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { operatorRecoveryCodes, operators, operatorSessions } from '../db/schema/operators';

// The operators' rows: accounts, recovery codes and sessions.

export type OperatorRow = typeof operators.$inferSelect;

export async function operatorByEmail(db: DatabaseExecutor, email: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.email, email));
  return row;
}

/** The operator whose enrolment link this is, while it is unused, unexpired and the operator not disabled. */
export async function operatorByEnrolmentToken(
  db: DatabaseExecutor,
  tokenHash: string,
  now: Date,
): Promise<OperatorRow | undefined> {
  const [row] = await db
    .select()
    .from(operators)
    .where(
      and(
        eq(operators.enrolmentTokenHash, tokenHash),
        gt(operators.enrolmentExpiresAt, now),
        isNull(operators.disabledAt),
      ),
    );
  return row;
}

/** A new operator, or a new enrolment link for one (which makes them enrol again); a disabled one is enabled. */
export async function upsertOperatorInvitation(
  db: DatabaseExecutor,
  email: string,
  tokenHash: string,
  expiresAt: Date,
): Promise<{ id: string; reinvited: boolean }> {
  const [row] = await db
    .insert(operators)
    .values({ email, enrolmentTokenHash: tokenHash, enrolmentExpiresAt: expiresAt })
    .onConflictDoUpdate({
      target: operators.email,
      set: {
        enrolmentTokenHash: tokenHash,
        enrolmentExpiresAt: expiresAt,
        pendingTotpSecret: null,
        disabledAt: null,
      },
    })
    .returning({ id: operators.id, createdAt: operators.createdAt, enrolledAt: operators.enrolledAt });
  if (!row) throw new Error('the operator was not written');
  return { id: row.id, reinvited: row.enrolledAt !== null };
}

export async function setPendingTotpSecret(db: DatabaseExecutor, operatorId: string, sealed: string): Promise<void> {
  await db.update(operators).set({ pendingTotpSecret: sealed }).where(eq(operators.id, operatorId));
}

/**
 * Finishes enrolment: the password, the pending secret made the authenticator, the link used up (only if it is
 * still this link: two finishes at once, one wins). Old sessions and recovery codes go.
 */
export async function completeEnrolment(
  db: DatabaseExecutor,
  operatorId: string,
  tokenHash: string,
  values: { passwordHash: string; totpSecret: string; acceptedStep: number; recoveryCodeHashes: string[] },
): Promise<boolean> {
  const done = await db
    .update(operators)
    .set({
      passwordHash: values.passwordHash,
      totpSecret: values.totpSecret,
      pendingTotpSecret: null,
      lastTotpStep: values.acceptedStep,
      enrolmentTokenHash: null,
      enrolmentExpiresAt: null,
      enrolledAt: sql`now()`,
    })
    .where(and(eq(operators.id, operatorId), eq(operators.enrolmentTokenHash, tokenHash)))
    .returning({ id: operators.id });
  if (done.length === 0) return false;
  await db.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, operatorId));
  await db
    .insert(operatorRecoveryCodes)
    .values(values.recoveryCodeHashes.map((codeHash) => ({ operatorId, codeHash })));
  await revokeOperatorSessions(db, operatorId);
  return true;
}

/** Takes a TOTP step for the operator, unless it (or a later one) was already taken: each code works once. */
export async function takeTotpStep(db: DatabaseExecutor, operatorId: string, step: number): Promise<boolean> {
  const taken = await db
    .update(operators)
    .set({ lastTotpStep: step })
    .where(and(eq(operators.id, operatorId), or(isNull(operators.lastTotpStep), lt(operators.lastTotpStep, step))))
    .returning({ id: operators.id });
  return taken.length > 0;
}

/** Uses up a recovery code of the operator; false when it is not one of theirs or was used already. */
export async function spendRecoveryCode(db: DatabaseExecutor, operatorId: string, codeHash: string): Promise<boolean> {
  const used = await db
    .update(operatorRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(operatorRecoveryCodes.operatorId, operatorId),
        eq(operatorRecoveryCodes.codeHash, codeHash),
        isNull(operatorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: operatorRecoveryCodes.id });
  return used.length > 0;
}

export async function listOperators(db: DatabaseExecutor): Promise<OperatorRow[]> {
  return db.select().from(operators).orderBy(asc(operators.email));
}

/** Disables an operator (keeps the row, which the audit log names); false when there is none by that email. */
export async function disableOperator(db: DatabaseExecutor, email: string): Promise<string | null> {
  const [row] = await db
    .update(operators)
    .set({ disabledAt: sql`coalesce(${operators.disabledAt}, now())`, enrolmentTokenHash: null })
    .where(eq(operators.email, email))
    .returning({ id: operators.id });
  if (!row) return null;
  await revokeOperatorSessions(db, row.id);
  return row.id;
}

export type OperatorSessionRow = typeof operatorSessions.$inferSelect;

export async function insertOperatorSession(
  db: DatabaseExecutor,
  values: { operatorId: string; tokenHash: string; now: Date; expiresAt: Date },
): Promise<OperatorSessionRow> {
  const [row] = await db
    .insert(operatorSessions)
    .values({
      operatorId: values.operatorId,
      tokenHash: values.tokenHash,
      createdAt: values.now,
      lastSeenAt: values.now,
      expiresAt: values.expiresAt,
    })
    .returning();
  if (!row) throw new Error('the operator session was not created');
  return row;
}

/** A session by its token's hash, unrevoked, with its operator (who must not be disabled). */
export async function liveOperatorSession(
  db: DatabaseExecutor,
  tokenHash: string,
): Promise<{ session: OperatorSessionRow; operator: OperatorRow } | undefined> {
  const [row] = await db
    .select({ session: operatorSessions, operator: operators })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(
      and(eq(operatorSessions.tokenHash, tokenHash), isNull(operatorSessions.revokedAt), isNull(operators.disabledAt)),
    );
  return row;
}

export async function touchOperatorSession(db: DatabaseExecutor, sessionId: string, now: Date): Promise<void> {
  await db.update(operatorSessions).set({ lastSeenAt: now }).where(eq(operatorSessions.id, sessionId));
}

export async function revokeOperatorSession(db: DatabaseExecutor, sessionId: string): Promise<void> {
  await db
    .update(operatorSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.revokedAt)));
}

export async function revokeOperatorSessions(db: DatabaseExecutor, operatorId: string): Promise<void> {
  await db
    .update(operatorSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)));
}
