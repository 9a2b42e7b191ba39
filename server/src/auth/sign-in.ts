import type { Logger } from '../lib/logger';
import type { AuthServices } from './auth-services';
import type { Database } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import { passwordProblem, hashPassword, verifyPassword } from './passwords';
import { createSession, revokeUserSessions, type Session } from './sessions';
import {
  claimAttempt,
  clearAttempts,
  giveBackAttempt,
  countAttempt,
  throttleKey,
  waitingFor,
  type BackoffRule,
  type ThrottleRule,
} from './throttle';
import { findUserByEmail, setPasswordHash, type User } from './users';
import { consumeCode, spendAttempt } from './verification-code-rows';
import { checkResetCode, issueResetCode, redeemAuthCode } from './verification-codes';
import { issueBillingCode, SEND_CODE_PURPOSES } from '../billing/billing-codes';
import { billingCodeEmail } from '../billing/emails';
import { HttpError } from '../lib/envelope';
import { messagesOf, sayCommon, type Locale } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import { passwordChangedEmail, resetCodeEmail } from '../messages/templates';
import { refuseSuspendedSignIn } from '../safety-desk/suspension-checks';

// Who may sign in, and how often: the password check with its back-off, the emailed codes, the password reset, the
// one-time auth code, and the session a sign-in makes. Its cookie is the routes' (a cookie is HTTP).

/** What the sign-in rules use of the server: the database, the outbox, the secrets and session cache, the log. */
/** An ask for a code by email: 1 a password reset, 2 a refund request, 3 an account's deletion. */
export interface CodeAsk {
  email: string;
  type: 1 | 2 | 3;
  locale?: Locale | undefined;
}

/** A new password (encrypted by the browser) and the emailed code that allows it. */
export interface PasswordReset {
  email: string;
  password: string;
  verificationCode: string;
}

/** A sign-in's account and its new session's token. */
export interface SignedIn {
  user: User;
  token: string;
}

export interface SignInDeps {
  db: Database;
  outbox: MessageOutbox;
  auth: AuthServices;
  log: Logger;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;

function rules(scale: number) {
  const rule = (limit: number, windowSeconds: number): ThrottleRule => ({ limit: limit * scale, windowSeconds });
  const backoff = (freeFailures: number, maxDelaySeconds: number): BackoffRule => ({
    freeFailures: freeFailures * scale,
    firstDelaySeconds: 1,
    maxDelaySeconds,
    forgetAfterSeconds: HOUR,
  });
  return {
    // Failed sign-ins wait longer after each failure (1 s, 2 s, 4 s…), never a lock of the account. From one
    // address against one account, up to 15 minutes: a guesser there is slowed to a few tries an hour.
    loginFailuresPerAddressAndAccount: backoff(5, 15 * MINUTE),
    // Against one account from anywhere (a guesser with many addresses): at most a minute, so that nobody can keep
    // the owner out for long by failing on purpose from elsewhere.
    loginFailuresPerAccount: backoff(10, MINUTE),
    // From one address against any account (trying one password on many accounts).
    loginFailuresPerAddress: backoff(30, 15 * MINUTE),
    sendCodePerIp: rule(30, HOUR),
    sendCodePerAccount: rule(5, HOUR),
    resetPerIp: rule(60, HOUR),
    authCodePerIp: rule(30, 15 * MINUTE),
  };
}

const say = messagesOf('auth');

/** The sign-in rules, with their limits scaled by `scale` (raised for test runs that sign in many times). */
export function signInRules(deps: SignInDeps, scale: number, publicUrl: string) {
  const limits = rules(scale);
  const { passwordCipher, secrets } = deps.auth;
  // Counters about an address or an email keep only a keyed hash of it.
  const key = (kind: string, value: string) => throttleKey(secrets.hmacSecret, kind, value);

  /**
   * The account an email and encrypted password sign in to, from address `ip`; 400 for a wrong password and an
   * undecryptable ciphertext alike, 429 while the back-off lasts.
   */
  async function checkLogin(ip: string, email: string, password: string): Promise<User> {
    const addressKey = key('login:ip', ip);
    const addressWait = await waitingFor(deps.db, addressKey);
    throwWhenLimited(addressWait, say, 'loginsFromNetwork');
    const accountKey = key('login:account', email);
    const accountWait = await waitingFor(deps.db, accountKey);
    throwWhenLimited(accountWait, say, 'loginsForAccount');
    // Each attempt is claimed (counted as a failure until it succeeds) before the password is checked, so
    // attempts sent at once get no more tries than attempts sent one by one.
    const pairKey = key('login:account-ip', `${email}\n${ip}`);
    const pair = await claimAttempt(deps.db, pairKey, limits.loginFailuresPerAddressAndAccount);
    throwWhenLimited(pair, say, 'loginsForAccount');
    const account = await claimAttempt(deps.db, accountKey, limits.loginFailuresPerAccount);
    // No password was checked: this address's count for the account is not charged for it.
    if (account.limited) await giveBackAttempt(deps.db, pairKey);
    throwWhenLimited(account, say, 'loginsForAccount');

    const user = await findUserByEmail(deps.db, email);
    const valid = await verifyPassword(user?.passwordHash, passwordCipher.decrypt(password));
    if (!user || !valid) {
      await claimAttempt(deps.db, addressKey, limits.loginFailuresPerAddress);
      throw new HttpError(400, say('incorrectLogin'));
    }
    await clearAttempts(deps.db, pairKey);
    await clearAttempts(deps.db, accountKey);
    // Said only to whoever knows the password: a suspension is not a way to learn an address has an account.
    await refuseSuspendedSignIn(deps.db, user.id);
    return user;
  }

  /** The account a one-time auth code signs in to (once); 400 for an invalid or expired one. */
  async function userForAuthCode(ip: string, authCode: string): Promise<User> {
    const ipLimit = await countAttempt(deps.db, key('auth-code:ip', ip), limits.authCodePerIp);
    throwWhenLimited(ipLimit, say, 'signInsFromNetwork');
    const email = await redeemAuthCode(deps.db, secrets.hmacSecret, authCode);
    const user = email ? await findUserByEmail(deps.db, email) : undefined;
    if (!user) throw new HttpError(400, say('invalidAuthCode'));
    return user;
  }

  /** A new session for the account: its token, for the browser's cookie, is handed back once (only its hash is kept). */
  async function sessionFor(user: User, userAgent: string | undefined): Promise<SignedIn> {
    const { token } = await createSession(deps.db, user.id, userAgent);
    return { user, token };
  }

  return {
    /**
     * Emails a 6-digit code (password reset, refund request or account deletion) in `readerLocale` unless the form
     * names one; the same answer whether or not the email has an account.
     */
    async sendCode(ip: string, body: CodeAsk, readerLocale: (own: Locale) => Locale) {
      const { email } = body;
      const ipLimit = await countAttempt(deps.db, key('send-code:ip', ip), limits.sendCodePerIp);
      throwWhenLimited(ipLimit, say, 'codesFromNetwork');
      const accountLimit = await countAttempt(deps.db, key('send-code:account', email), limits.sendCodePerAccount);
      throwWhenLimited(accountLimit, say, 'codesForEmail');

      const user = await findUserByEmail(deps.db, email);
      if (user) {
        const locale = body.locale ?? readerLocale(user.locale);
        await deps.db.transaction(async (tx) => {
          if (body.type !== 1) {
            // Billing's codes: confirming a refund request (2) or an account deletion (3).
            const purpose = SEND_CODE_PURPOSES[body.type];
            const { code, codeId } = await issueBillingCode(tx, secrets.hmacSecret, email, purpose);
            const billingMail = billingCodeEmail(locale, purpose, code);
            await deps.outbox.queue(tx, {
              idempotencyKey: `${purpose}-code:${codeId}`,
              to: user.email,
              locale,
              ...billingMail,
            });
            return;
          }
          const { code, codeId } = await issueResetCode(tx, secrets.hmacSecret, email);
          const rendered = resetCodeEmail(locale, user.displayName, code, publicUrl);
          await deps.outbox.queue(tx, { idempotencyKey: `reset-code:${codeId}`, to: user.email, locale, ...rendered });
        });
        deps.outbox.kick();
      } else {
        deps.log.info('Reset code requested for an email without an account; nothing sent');
      }
    },

    /**
     * A new password with the emailed code: every session of the account ends but the caller's own (`current`),
     * the owner is told, and the sign-in back-off is cleared for whoever holds the code.
     */
    async resetPassword(ip: string, body: PasswordReset, current: Session | null) {
      const { email, password, verificationCode } = body;
      const ipLimit = await countAttempt(deps.db, key('reset:ip', ip), limits.resetPerIp);
      throwWhenLimited(ipLimit, say, 'resetsFromNetwork');

      const check = await checkResetCode(deps.db, secrets.hmacSecret, email, verificationCode);
      if (!check.ok) throw new HttpError(400, sayCommon('invalidCode'));
      const user = await findUserByEmail(deps.db, email);
      if (!user) throw new HttpError(400, sayCommon('invalidCode'));

      const newPassword = passwordCipher.decrypt(password);
      const problem = passwordProblem(newPassword);
      if (problem) {
        // Costs an attempt too, so this answer cannot be asked for without limit.
        await spendAttempt(deps.db, check.codeId);
        throw new HttpError(400, problem);
      }
      const passwordHash = await hashPassword(newPassword);
      const keepSessionId = current?.user.id === user.id ? current.id : undefined;

      const accountLocale = user.locale;
      const changed = await deps.db.transaction(async (tx) => {
        if (!(await consumeCode(tx, check.codeId))) return false;
        await setPasswordHash(tx, user.id, passwordHash);
        await revokeUserSessions(tx, user.id, keepSessionId);
        // The owner hears of it, in the account's language, whoever held the code.
        await deps.outbox.queue(tx, {
          idempotencyKey: `password-changed:${check.codeId}`,
          to: user.email,
          locale: accountLocale,
          ...passwordChangedEmail(accountLocale, user.displayName, 'reset'),
        });
        return true;
      });
      if (!changed) throw new HttpError(400, sayCommon('invalidCode'));
      deps.outbox.kick();
      // The revoked sessions stop here at once; other instances hear the database's notice.
      deps.auth.cache.forgetUser(user.id);
      // Whoever holds the code may sign in with the new password at once.
      await clearAttempts(deps.db, key('login:account', user.email));
      await clearAttempts(deps.db, key('login:account-ip', `${user.email}\n${ip}`));
    },

    /**
     * Signs in with an email and encrypted password from address `ip` (see checkLogin): the account and its new
     * session's token, which goes to the browser once.
     */
    async login(ip: string, email: string, password: string, userAgent: string | undefined): Promise<SignedIn> {
      return sessionFor(await checkLogin(ip, email, password), userAgent);
    },

    /** Signs in with a one-time auth code (see userForAuthCode): the account and its new session's token. */
    async loginByAuthCode(ip: string, authCode: string, userAgent: string | undefined): Promise<SignedIn> {
      return sessionFor(await userForAuthCode(ip, authCode), userAgent);
    },
  };
}
