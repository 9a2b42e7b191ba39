import JSEncrypt from 'jsencrypt';
import { apiGet } from '@kabari/shared/api/api-client';

/** The password could not be encrypted (no key, or too long for one RSA block). */
export class PasswordEncryptionError extends Error {
  constructor() {
    super('The password could not be encrypted');
    this.name = 'PasswordEncryptionError';
  }
}

let publicKey: Promise<string> | null = null;

/** The server's RSA public key (PEM), fetched once per page; a failure is forgotten. */
function loadPublicKey(): Promise<string> {
  publicKey ??= apiGet<{ publicKey: string }>('/api/v1/auth/publicKey')
    .then((data) => data.publicKey)
    .catch((error: unknown) => {
      publicKey = null;
      throw error;
    });
  return publicKey;
}

/**
 * Spec §3: a password travels RSA-encrypted (PKCS#1 v1.5, jsencrypt), base64, under the server's key:
 * the same as the host's login dialog, for the remotes' forms (sign-up, change password, delete account).
 */
export async function encryptPassword(password: string): Promise<string> {
  const encryptor = new JSEncrypt();
  encryptor.setPublicKey(await loadPublicKey());
  const encrypted = encryptor.encrypt(password);
  if (!encrypted) throw new PasswordEncryptionError();
  return encrypted;
}
