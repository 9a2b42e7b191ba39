import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';
import { sayCommon, type LocalizedText } from '../lib/messages';

// OWASP's Argon2id baseline: 19 MiB, 2 passes, 1 lane.
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password; with no hash (unknown account) it still spends the same time on a dummy hash, so response
 * times do not tell which emails have accounts.
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (hash === undefined) {
    dummyHash ??= hashPassword('kabari-dummy-password');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let commonPasswords: Set<string> | undefined;

/**
 * Whether a password is on the common-password list of zxcvbn-ts (@zxcvbn-ts/language-common: about 49,000
 * passwords ranked by how often they appear in breaches, Indonesian favourites among them), bundled with the
 * server so nothing is looked up elsewhere. Compared without case: "Password1" is as guessable as "password1".
 * Read on first use, then kept: the list is 370 KB of code that a start of the server need not parse.
 */
export function isCommonPassword(password: string): boolean {
  if (!commonPasswords) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
    const { dictionary } = require('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon;
    commonPasswords = new Set(dictionary['passwords-common'].map((entry) => String(entry).toLowerCase()));
  }
  return commonPasswords.has(password.toLowerCase());
}

/** What is wrong with a new password (sign-up, reset, change), or null. */
export function passwordProblem(password: string): LocalizedText | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    return sayCommon('passwordLength', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });
  }
  if (isCommonPassword(password)) return sayCommon('commonPassword');
  return null;
}
