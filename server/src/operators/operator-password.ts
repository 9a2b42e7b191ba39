import type { PasswordCipher } from '../auth/password-cipher';
import { PASSWORD_MAX_LENGTH } from '../auth/passwords';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';

const say = messagesOf('operators');

/**
 * The password the console sent, RSA-encrypted like a subscriber's, turned back with the server's cipher. An
 * undecryptable ciphertext becomes the cipher's stand-in, which matches no password. Empty or far too long is
 * refused (400) as the form's own check did before it was encrypted, before anything is counted or looked up;
 * lengths are in characters, as the password rules count them.
 */
export function operatorPassword(cipher: Pick<PasswordCipher, 'decrypt'>, encrypted: string): string {
  const password = cipher.decrypt(encrypted);
  const length = [...password].length;
  if (length < 1 || length > PASSWORD_MAX_LENGTH * 4) throw new HttpError(400, say('enterPassword'));
  return password;
}
