import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// A short text kept sealed in the database (a link's token, an authenticator's secret): AES-256-GCM with a key
// derived from the server's secret for one purpose, and the row's id as associated data, so a sealed value copied
// onto another row does not open there. Stored as `v1.` and base64url of the nonce, the ciphertext and the tag.

const SEALED_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The purpose's key from the server's secret (HKDF-SHA256), derived once per secret. */
export function sealingKeyFor(purpose: string): (secret: Buffer) => Buffer {
  const keys = new WeakMap<Buffer, Buffer>();
  return (secret) => {
    let key = keys.get(secret);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), purpose, 32));
      keys.set(secret, key);
    }
    return key;
  };
}

export function sealText(key: Buffer, rowId: string, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(rowId, 'utf8'));
  const sealed = Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return SEALED_PREFIX + sealed.toString('base64url');
}

/** The text, or null when it cannot be opened (another secret, another row, altered). */
export function openText(key: Buffer, rowId: string, sealed: string): string | null {
  if (!sealed.startsWith(SEALED_PREFIX)) return null;
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(rowId, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}
