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
export function loadPublicKey(): Promise<string> {
  publicKey ??= apiGet('/api/v1/auth/publicKey')
    .then((data) => data.publicKey)
    .catch((error: unknown) => {
      publicKey = null;
      throw error;
    });
  return publicKey;
}

/** From the login dialog and the remotes' sign-up, change-password and delete-account forms, the password travels RSA-encrypted (PKCS#1 v1.5, jsencrypt), base64. */
export function encryptWithKey(password: string, publicKeyPem: string): string {
  const encryptor = new JSEncrypt();
  encryptor.setPublicKey(publicKeyPem);
  const encrypted = encryptor.encrypt(password);
  if (!encrypted) throw new PasswordEncryptionError();
  return encrypted;
}

export async function encryptPassword(password: string): Promise<string> {
  return encryptWithKey(password, await loadPublicKey());
}
