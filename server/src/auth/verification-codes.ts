import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { DatabaseExecutor } from '../db/open-database';
import { normalizeEmail } from './users';
import {
  consumeCode,
  consumeLiveCodeByHash,
  consumeOpenCodes,
  giveAttemptBack,
  insertCode,
  newestLiveCode,
  takeAttempt,
} from './verification-code-rows';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

export type CodePurpose =
  'reset_password' | 'auth_code' | 'change_email' | 'refund_request' | 'delete_account' | 'overview_code';

/** Codes are stored as HMACs: a 6-digit code's plain hash would be brute-forced from a leaked table at once. */
function codeHash(secret: Buffer, purpose: CodePurpose, email: string, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${email}\n${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A new 6-digit code of a purpose for an account's email; earlier codes of that purpose for it stop working.
 * `boundTo` is what the code is good for besides the purpose (the email itself, unless the code confirms
 * something more, like a new address): it is inside the HMAC, so the code works for nothing else.
 */
export async function issueSixDigitCode(
  db: DatabaseExecutor,
  secret: Buffer,
  purpose: CodePurpose,
  email: string,
  boundTo: string = normalizeEmail(email),
): Promise<{ code: string; codeId: string }> {
  const normalized = normalizeEmail(email);
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  await consumeOpenCodes(db, normalized, purpose);
  const codeId = await insertCode(db, {
    email: normalized,
    purpose,
    codeHash: codeHash(secret, purpose, boundTo, code),
    expiresAt: new Date(Date.now() + CODE_TTL_MS),
  });
  return { code, codeId };
}

/** A new 6-digit code for an email; earlier reset codes for it stop working. */
export function issueResetCode(
  db: DatabaseExecutor,
  secret: Buffer,
  email: string,
): Promise<{ code: string; codeId: string }> {
  return issueSixDigitCode(db, secret, 'reset_password', email);
}

export type CodeCheck = { ok: true; codeId: string } | { ok: false };

/**
 * Checks the newest live code of a purpose for an email without using it up (see issueSixDigitCode for
 * `boundTo`). A wrong code costs one of the code's attempts; after CODE_MAX_ATTEMPTS the code is dead even if the
 * right one comes next, and a new one must be asked for.
 */
export async function checkSixDigitCode(
  db: DatabaseExecutor,
  secret: Buffer,
  purpose: CodePurpose,
  email: string,
  code: string,
  boundTo: string = normalizeEmail(email),
): Promise<CodeCheck> {
  const active = await newestLiveCode(db, normalizeEmail(email), purpose, CODE_MAX_ATTEMPTS);
  if (!active) return { ok: false };
  // The attempt is taken before the comparison, in one statement that cannot take more than the code has: guesses
  // sent all at once get no more comparisons than guesses sent one by one.
  if (!(await takeAttempt(db, active.id, CODE_MAX_ATTEMPTS))) return { ok: false };
  if (!sameHash(active.codeHash, codeHash(secret, purpose, boundTo, code))) return { ok: false };
  // The right code is not a guess: its attempt is given back.
  await giveAttemptBack(db, active.id);
  return { ok: true, codeId: active.id };
}

/** Checks a code and uses it up in one go (in the caller's transaction): its id, or null. */
export async function redeemSixDigitCode(
  db: DatabaseExecutor,
  secret: Buffer,
  purpose: CodePurpose,
  email: string,
  code: string,
  boundTo?: string,
): Promise<string | null> {
  const check = await checkSixDigitCode(db, secret, purpose, email, code, boundTo);
  if (!check.ok) return null;
  return (await consumeCode(db, check.codeId)) ? check.codeId : null;
}

/** Checks a reset code without using it up (the new password is set in a second step). */
export function checkResetCode(db: DatabaseExecutor, secret: Buffer, email: string, code: string): Promise<CodeCheck> {
  return checkSixDigitCode(db, secret, 'reset_password', email, code);
}

/**
 * An opaque one-time code that signs an account in (POST /api/v1/auth/loginByAuthCode), for example right
 * after sign-up and payment. Valid for CODE_TTL_MS.
 */
export async function issueAuthCode(db: DatabaseExecutor, secret: Buffer, email: string): Promise<string> {
  const authCode = randomBytes(32).toString('base64url');
  await insertCode(db, {
    email: normalizeEmail(email),
    purpose: 'auth_code',
    codeHash: codeHash(secret, 'auth_code', '', authCode),
    expiresAt: new Date(Date.now() + CODE_TTL_MS),
  });
  return authCode;
}

/** Uses up an auth code and returns the email it was issued for, or null if it is unknown, used or expired. */
export function redeemAuthCode(db: DatabaseExecutor, secret: Buffer, authCode: string): Promise<string | null> {
  return consumeLiveCodeByHash(db, 'auth_code', codeHash(secret, 'auth_code', '', authCode));
}

/**
 * A 6-digit code confirming a change of email, sent to the NEW address. The row is the account's (its current
 * email), and the new address is inside the HMAC: the code only works for the account that asked, and only for
 * the address it was sent to. Earlier change codes of the account stop working.
 */
export function issueEmailChangeCode(
  db: DatabaseExecutor,
  secret: Buffer,
  currentEmail: string,
  newEmail: string,
): Promise<{ code: string; codeId: string }> {
  return issueSixDigitCode(db, secret, 'change_email', currentEmail, emailChange(currentEmail, newEmail));
}

/**
 * Checks and uses up an email-change code (in the caller's transaction); its id, or null. A wrong code, or the right code with
 * another address, costs one of the code's attempts; after CODE_MAX_ATTEMPTS the code is dead.
 */
export function redeemEmailChangeCode(
  db: DatabaseExecutor,
  secret: Buffer,
  currentEmail: string,
  newEmail: string,
  code: string,
): Promise<string | null> {
  return redeemSixDigitCode(db, secret, 'change_email', currentEmail, code, emailChange(currentEmail, newEmail));
}

function emailChange(currentEmail: string, newEmail: string): string {
  return `${normalizeEmail(currentEmail)}\n${normalizeEmail(newEmail)}`;
}
