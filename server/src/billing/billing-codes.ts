import { issueSixDigitCode, redeemSixDigitCode } from '../auth/verification-codes';
import type { DatabaseExecutor } from '../db/open-database';

/** Emailed 6-digit codes for billing: confirming a refund request (sendCode type 2), deleting the account (type 3). */
export type BillingCodePurpose = 'refund_request' | 'delete_account';

export const SEND_CODE_PURPOSES: Record<2 | 3, BillingCodePurpose> = { 2: 'refund_request', 3: 'delete_account' };

/** A new code; earlier codes of the same purpose for the email stop working. */
export function issueBillingCode(
  db: DatabaseExecutor,
  secret: Buffer,
  email: string,
  purpose: BillingCodePurpose,
): Promise<{ code: string; codeId: string }> {
  return issueSixDigitCode(db, secret, purpose, email);
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
  return (await redeemSixDigitCode(db, secret, purpose, email, code)) !== null;
}
