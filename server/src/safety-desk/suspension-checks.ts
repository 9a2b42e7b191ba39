import type { DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { keyedHash } from '../lib/keyed-hash';
import { normalizeEmail } from '../auth/users';
import { sayDesk } from './desk-messages';
import { emailHashSuspended, standingSuspensionOf } from './standing-suspension-rows';

// What a standing suspension refuses: sign-in, sending, and sign-up with its email. Kept apart from the suspension's
// effects (suspensions.ts), so that sign-in, sending and sign-up import only these checks.

/** The key a suspended email is kept by: a keyed hash, so the table names nobody to whoever copies it. */
export function suspendedEmailKey(hmacSecret: Buffer, email: string): string {
  return keyedHash(hmacSecret, 'suspended-email', normalizeEmail(email));
}

/** Sign-in refuses a suspended account (403, saying why, in both languages). */
export async function refuseSuspendedSignIn(db: DatabaseExecutor, userId: string): Promise<void> {
  if (await standingSuspensionOf(db, userId)) throw new HttpError(403, sayDesk('accountSuspended'));
}

/** Sending refuses a suspended account (403, saying why). */
export async function refuseSuspendedSender(db: DatabaseExecutor, userId: string): Promise<void> {
  if (await standingSuspensionOf(db, userId)) throw new HttpError(403, sayDesk('sendingSuspended'));
}

/** Sign-up refuses an email a standing suspension holds, its account deleted or not (403). */
export async function refuseSuspendedEmail(db: DatabaseExecutor, hmacSecret: Buffer, email: string): Promise<void> {
  if (await emailHashSuspended(db, suspendedEmailKey(hmacSecret, email))) {
    throw new HttpError(403, sayDesk('emailSuspended'));
  }
}
