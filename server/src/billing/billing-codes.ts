import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from '../auth/verification-codes';
import { normalizeEmail } from '../auth/users';
import type { DatabaseExecutor } from '../db/open-database';
import { verificationCodes } from '../db/schema';

/** Emailed 6-digit codes for billing: confirming a refund request (sendCode type 2), deleting the account (type 3). */
export type BillingCodePurpose = 'refund_request' | 'delete_account';

export const SEND_CODE_PURPOSES: Record<2 | 3, BillingCodePurpose> = { 2: 'refund_request', 3: 'delete_account' };

function codeHash(secret: Buffer, purpose: BillingCodePurpose, email: string, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${email}\n${code}`).digest('hex');
}

/** A new code; earlier codes of the same purpose for the email stop working. */
export async function issueBillingCode(
  db: DatabaseExecutor,
  secret: Buffer,
  email: string,
  purpose: BillingCodePurpose,
): Promise<{ code: string; codeId: string }> {
  const normalized = normalizeEmail(email);
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  await db
    .update(verificationCodes)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(verificationCodes.email, normalized),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
      ),
    );
  const [row] = await db
    .insert(verificationCodes)
    .values({
      email: normalized,
      purpose,
      codeHash: codeHash(secret, purpose, normalized, code),
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    })
    .returning({ id: verificationCodes.id });
  if (!row) throw new Error('the code was not stored');
  return { code, codeId: row.id };
}

/**
 * Checks and uses up a code in one go (the caller's transaction). A wrong code costs an attempt; after
 * CODE_MAX_ATTEMPTS the code is dead.
 */
export async function redeemBillingCode(
  db: DatabaseExecutor,
  secret: Buffer,
  email: string,
  purpose: BillingCodePurpose,
  code: string,
): Promise<boolean> {
  const normalized = normalizeEmail(email);
  const [active] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.email, normalized),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, new Date()),
        lt(verificationCodes.attempts, CODE_MAX_ATTEMPTS),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (!active) return false;
  const expected = Buffer.from(active.codeHash, 'hex');
  const given = Buffer.from(codeHash(secret, purpose, normalized, code), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(eq(verificationCodes.id, active.id));
    return false;
  }
  const used = await db
    .update(verificationCodes)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(verificationCodes.id, active.id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  return used.length === 1;
}
