import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from 'node:crypto';
import { keyedHash } from '../lib/keyed-hash';

// How an operator's secrets are kept: tokens (enrolment, session) as their sha256, recovery codes as a keyed hash,
// the authenticator's secret sealed with a key derived from the server's secret.

const SEALED_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const keys = new WeakMap<Buffer, Buffer>();

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

function sealingKey(secret: Buffer): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'kabari operator totp secret v1', 32));
    keys.set(secret, key);
  }
  return key;
}

/**
 * The authenticator's secret sealed with AES-256-GCM for its operator (the operator's id is the associated data:
 * a sealed secret copied onto another row does not open there).
 */
export function sealTotpSecret(secret: Buffer, operatorId: string, base32: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  cipher.setAAD(Buffer.from(operatorId, 'utf8'));
  const sealed = Buffer.concat([iv, cipher.update(base32, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return SEALED_PREFIX + sealed.toString('base64url');
}

/** The secret, or null when it cannot be opened (another server secret, another row, altered). */
export function openTotpSecret(secret: Buffer, operatorId: string, sealed: string): string | null {
  if (!sealed.startsWith(SEALED_PREFIX)) return null;
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(operatorId, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}
