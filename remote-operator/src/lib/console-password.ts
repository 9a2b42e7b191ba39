import { encryptPassword, PasswordEncryptionError } from '@kabari/shared/account/password-encryption';

/**
 * The password as the console sends it: RSA-encrypted with the server's public key, like a subscriber's. Any
 * failure (the key could not be fetched, or the password does not fit one RSA block) is a PasswordEncryptionError,
 * so the pages tell it apart from the server refusing the form.
 */
export async function encryptedForConsole(password: string): Promise<string> {
  try {
    return await encryptPassword(password);
  } catch {
    throw new PasswordEncryptionError();
  }
}
