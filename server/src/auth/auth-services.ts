import type { AccountCache } from './account-cache';
import type { PasswordCipher } from './password-cipher';
import type { ServerSecrets } from './server-secrets';

/** What the server holds for accounts and sessions (the auth plugin builds it at start) that the rules use. */
export interface AuthServices {
  secrets: ServerSecrets;
  passwordCipher: PasswordCipher;
  /** Sessions and subscriptions of the last few seconds: a change forgets the user's. */
  cache: AccountCache;
}
