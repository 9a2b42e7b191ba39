import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { verificationCodes } from '../db/schema/accounts';

// The emailed codes and one-time auth codes, as rows: every query the code rules (verification-codes.ts) make.

type VerificationCodeRow = typeof verificationCodes.$inferSelect;
type Purpose = VerificationCodeRow['purpose'];

/** Uses up every code of a purpose for an email that is not used up yet. */
export async function consumeOpenCodes(db: DatabaseExecutor, email: string, purpose: Purpose): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(verificationCodes.email, email),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
      ),
    );
}

/** A new code's row; its id. */
export async function insertCode(db: DatabaseExecutor, values: typeof verificationCodes.$inferInsert): Promise<string> {
  const [row] = await db.insert(verificationCodes).values(values).returning({ id: verificationCodes.id });
  if (!row) throw new Error('the code was not stored');
  return row.id;
}

/** The newest code of a purpose for an email that is not used up, expired, or out of its `maxAttempts`. */
export async function newestLiveCode(
  db: DatabaseExecutor,
  email: string,
  purpose: Purpose,
  maxAttempts: number,
): Promise<VerificationCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.email, email),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, new Date()),
        lt(verificationCodes.attempts, maxAttempts),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return row;
}

/** Takes one of a code's attempts unless it is used up or has `maxAttempts` taken already: false then. */
export async function takeAttempt(db: DatabaseExecutor, codeId: string, maxAttempts: number): Promise<boolean> {
  const [claimed] = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(
      and(
        eq(verificationCodes.id, codeId),
        isNull(verificationCodes.consumedAt),
        lt(verificationCodes.attempts, maxAttempts),
      ),
    )
    .returning({ id: verificationCodes.id });
  return claimed !== undefined;
}

export async function giveAttemptBack(db: DatabaseExecutor, codeId: string): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} - 1` })
    .where(eq(verificationCodes.id, codeId));
}

export async function spendAttempt(db: DatabaseExecutor, codeId: string): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(eq(verificationCodes.id, codeId));
}

/** Uses a code up. False when another request got there first: a code works once, even under concurrency. */
export async function consumeCode(db: DatabaseExecutor, codeId: string): Promise<boolean> {
  const rows = await db
    .update(verificationCodes)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(verificationCodes.id, codeId), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  return rows.length === 1;
}

/** Uses up the live code of a purpose with this hash: the email it was issued for, or null. */
export async function consumeLiveCodeByHash(
  db: DatabaseExecutor,
  purpose: Purpose,
  codeHash: string,
): Promise<string | null> {
  const rows = await db
    .update(verificationCodes)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(verificationCodes.codeHash, codeHash),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, new Date()),
      ),
    )
    .returning({ email: verificationCodes.email });
  return rows[0]?.email ?? null;
}

/** The live code of a purpose with this hash, left as it is: what it was issued for (`email`) and until when. */
export async function liveCodeByHash(
  db: DatabaseExecutor,
  purpose: Purpose,
  codeHash: string,
): Promise<{ email: string; expiresAt: Date } | undefined> {
  const [row] = await db
    .select({ email: verificationCodes.email, expiresAt: verificationCodes.expiresAt })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.codeHash, codeHash),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, new Date()),
      ),
    );
  return row;
}
