import { hash, randomBytes } from 'node:crypto';
import { keyedHash } from '../lib/keyed-hash';
import { openText, sealingKeyFor, sealText } from '../lib/sealed-text';

// How an operator's secrets are kept: tokens (enrolment, session) as their sha256, recovery codes as a keyed hash,
// the authenticator's secret sealed with a key derived from the server's secret.

/** A new token of 256 random bits (enrolment link, session cookie): it goes out once, only its hash is kept. */
export function newOperatorToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a token: its sha256 in hex (256 random bits cannot be searched back from it). */
export function operatorTokenHash(token: string): string {
  return hash('sha256', token, 'hex');
}

/** What a token must look like before it is looked up at all. */
export const OPERATOR_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A recovery code's stored form: short codes could be searched back from a plain hash, a keyed one cannot. */
export function recoveryCodeHash(secret: Buffer, code: string): string {
  return keyedHash(secret, 'operator-recovery-code', normaliseRecoveryCode(code));
}

/** The code as typed, without its dash, spaces or case: `abcd-efgh-jk` and `ABCDEFGHJK` are one code. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

// No 0/o, 1/l/i: a code copied from paper is read back without guessing.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code: 12 characters from a 31-letter alphabet (about 59 bits), shown as `xxxx-xxxx-xxxx`. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const letters = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8)}`;
}

const sealingKey = sealingKeyFor('kabari operator totp secret v1');

/**
 * The authenticator's secret sealed for its operator (lib/sealed-text.ts: the operator's id is the associated data,
 * so a sealed secret copied onto another row does not open there).
 */
export function sealTotpSecret(secret: Buffer, operatorId: string, base32: string): string {
  return sealText(sealingKey(secret), operatorId, base32);
}

/** The secret, or null when it cannot be opened (another server secret, another row, altered). */
export function openTotpSecret(secret: Buffer, operatorId: string, sealed: string): string | null {
  return openText(sealingKey(secret), operatorId, sealed);
}
