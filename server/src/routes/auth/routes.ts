import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { passwordProblem, hashPassword, verifyPassword } from '../../auth/passwords';
import { createSession, revokeSession, revokeUserSessions } from '../../auth/sessions';
import {
  claimAttempt,
  clearAttempts,
  giveBackAttempt,
  countAttempt,
  throttleKey,
  waitingFor,
  type BackoffRule,
  type ThrottleRule,
} from '../../auth/throttle';
import { findUserByEmail, setPasswordHash, userCacheInfo, type User } from '../../auth/users';
import {
  checkResetCode,
  consumeCode,
  issueResetCode,
  redeemAuthCode,
  spendAttempt,
} from '../../auth/verification-codes';
import { issueBillingCode, SEND_CODE_PURPOSES } from '../../billing/billing-codes';
import { billingCodeEmail } from '../../billing/emails';
import type { Config } from '../../config';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { defineMessages, requestLocale, sayCommon } from '../../lib/messages';
import { passwordChangedEmail, resetCodeEmail } from '../../mail/templates';
import {
  loginBody,
  loginByAuthCodeBody,
  loginResponse,
  publicKeyResponse,
  resetPasswordBody,
  sendCodeBody,
  sessionResponse,
  successResponse,
} from './schemas';
import { throwWhenLimited } from '../../lib/throttle-answer';

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

const say = defineMessages(
  {
    incorrectLogin: 'Incorrect email or password.',
    loginsFromNetwork: 'Too many login attempts from this network. Please try again in {wait}.',
    loginsForAccount: 'Too many failed login attempts for this account. Please try again in {wait}.',
    codesFromNetwork: 'Too many codes requested from this network. Please try again in {wait}.',
    codesForEmail: 'Too many codes requested for this email. Please try again in {wait}.',
    resetsFromNetwork: 'Too many reset attempts from this network. Please try again in {wait}.',
    signInsFromNetwork: 'Too many sign-in attempts from this network. Please try again in {wait}.',
    invalidAuthCode: 'This sign-in code is invalid or has expired. Please log in.',
  },
  {
    incorrectLogin: 'Email atau kata sandi salah.',
    loginsFromNetwork: 'Terlalu banyak percobaan login dari jaringan ini. Silakan coba lagi dalam {wait}.',
    loginsForAccount: 'Terlalu banyak login gagal untuk akun ini. Silakan coba lagi dalam {wait}.',
    codesFromNetwork: 'Terlalu banyak permintaan kode dari jaringan ini. Silakan coba lagi dalam {wait}.',
    codesForEmail: 'Terlalu banyak permintaan kode untuk email ini. Silakan coba lagi dalam {wait}.',
    resetsFromNetwork: 'Terlalu banyak percobaan reset dari jaringan ini. Silakan coba lagi dalam {wait}.',
    signInsFromNetwork: 'Terlalu banyak percobaan masuk dari jaringan ini. Silakan coba lagi dalam {wait}.',
    invalidAuthCode: 'Kode masuk ini tidak valid atau sudah kedaluwarsa. Silakan login.',
  },
);

/** Login, password reset by emailed code, login by one-time auth code, logout. */
const authRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const limits = rules(options.config.authThrottleScale);
  const scale = options.config.authThrottleScale;
  const { passwordCipher, secrets } = app.auth;
  // Counters about an address or an email keep only a keyed hash of it.
  const key = (kind: string, value: string) => throttleKey(secrets.hmacSecret, kind, value);

  /**
   * A new session, handed to the browser only as the HttpOnly cookie: the body names the user but carries no
   * token, so no script on the page can read it.
   */
  async function signIn(request: FastifyRequest, reply: FastifyReply, user: User) {
    const { token } = await createSession(app.db, user.id, request.headers['user-agent']);
    app.auth.setSessionCookie(reply, token);
    return ok({ user: { userCacheInfo: userCacheInfo(user) } });
  }

  app.get(
    '/api/v1/auth/publicKey',
    {
      schema: {
        tags: ['auth'],
        summary: 'The RSA public key the browser encrypts passwords with (jsencrypt)',
        response: { 200: publicKeyResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return ok({ publicKey: secrets.rsaPublicKeyPem });
    },
  );

  app.post(
    '/api/v1/auth/login',
    {
      config: { rateLimit: { max: 30 * scale, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and encrypted password',
        description: 'A wrong password and an undecryptable ciphertext get the same 400 answer.',
        body: loginBody,
        response: { 200: loginResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const addressKey = key('login:ip', request.ip);
      const addressWait = await waitingFor(app.db, addressKey);
      throwWhenLimited(addressWait, say, 'loginsFromNetwork');
      const accountKey = key('login:account', email);
      const accountWait = await waitingFor(app.db, accountKey);
      throwWhenLimited(accountWait, say, 'loginsForAccount');
      // Each attempt is claimed (counted as a failure until it succeeds) before the password is checked, so
      // attempts sent at once get no more tries than attempts sent one by one.
      const pairKey = key('login:account-ip', `${email}\n${request.ip}`);
      const pair = await claimAttempt(app.db, pairKey, limits.loginFailuresPerAddressAndAccount);
      throwWhenLimited(pair, say, 'loginsForAccount');
      const account = await claimAttempt(app.db, accountKey, limits.loginFailuresPerAccount);
      // No password was checked: this address's count for the account is not charged for it.
      if (account.limited) await giveBackAttempt(app.db, pairKey);
      throwWhenLimited(account, say, 'loginsForAccount');

      const user = await findUserByEmail(app.db, email);
      const valid = await verifyPassword(user?.passwordHash, passwordCipher.decrypt(password));
      if (!user || !valid) {
        await claimAttempt(app.db, addressKey, limits.loginFailuresPerAddress);
        throw new HttpError(400, say('incorrectLogin'));
      }
      await clearAttempts(app.db, pairKey);
      await clearAttempts(app.db, accountKey);
      return signIn(request, reply, user);
    },
  );

  app.post(
    '/api/v1/auth/sendCode',
    {
      config: { rateLimit: { max: 10 * scale, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Email a 6-digit code (type 1: password reset, 2: refund request, 3: account deletion)',
        description:
          'Answers success whether or not the email has an account, so it cannot be used to find accounts. ' +
          'The code expires in 10 minutes, works once, and allows 5 attempts.',
        body: sendCodeBody,
        response: { 200: successResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.body;
      const ipLimit = await countAttempt(app.db, key('send-code:ip', request.ip), limits.sendCodePerIp);
      throwWhenLimited(ipLimit, say, 'codesFromNetwork');
      const accountLimit = await countAttempt(app.db, key('send-code:account', email), limits.sendCodePerAccount);
      throwWhenLimited(accountLimit, say, 'codesForEmail');

      const user = await findUserByEmail(app.db, email);
      if (user) {
        const locale = request.body.locale ?? requestLocale(request, user.locale === 'id' ? 'id' : 'en');
        await app.db.transaction(async (tx) => {
          if (request.body.type !== 1) {
            // Billing's codes: confirming a refund request (2) or an account deletion (3).
            const purpose = SEND_CODE_PURPOSES[request.body.type];
            const { code, codeId } = await issueBillingCode(tx, secrets.hmacSecret, email, purpose);
            const billingMail = billingCodeEmail(locale, purpose, code);
            await app.outbox.queue(tx, {
              idempotencyKey: `${purpose}-code:${codeId}`,
              to: user.email,
              locale,
              ...billingMail,
            });
            return;
          }
          const { code, codeId } = await issueResetCode(tx, secrets.hmacSecret, email);
          const rendered = resetCodeEmail(locale, user.displayName, code, options.config.publicUrl);
          await app.outbox.queue(tx, { idempotencyKey: `reset-code:${codeId}`, to: user.email, locale, ...rendered });
        });
        app.outbox.kick();
      } else {
        request.log.info('Reset code requested for an email without an account; nothing sent');
      }
      return ok({ success: true as const });
    },
  );

  app.post(
    '/api/v1/auth/resetPassword',
    {
      config: { rateLimit: { max: 20 * scale, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the emailed code; ends every other session of the account',
        body: resetPasswordBody,
        response: { 200: successResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { email, password, verificationCode } = request.body;
      const ipLimit = await countAttempt(app.db, key('reset:ip', request.ip), limits.resetPerIp);
      throwWhenLimited(ipLimit, say, 'resetsFromNetwork');

      const check = await checkResetCode(app.db, secrets.hmacSecret, email, verificationCode);
      if (!check.ok) throw new HttpError(400, sayCommon('invalidCode'));
      const user = await findUserByEmail(app.db, email);
      if (!user) throw new HttpError(400, sayCommon('invalidCode'));

      const newPassword = passwordCipher.decrypt(password);
      const problem = passwordProblem(newPassword);
      if (problem) {
        // Costs an attempt too, so this answer cannot be asked for without limit.
        await spendAttempt(app.db, check.codeId);
        throw new HttpError(400, problem);
      }
      const passwordHash = await hashPassword(newPassword);
      const current = await app.auth.sessionOf(request);
      const keepSessionId = current?.user.id === user.id ? current.id : undefined;

      const accountLocale = user.locale === 'id' ? 'id' : 'en';
      const changed = await app.db.transaction(async (tx) => {
        if (!(await consumeCode(tx, check.codeId))) return false;
        await setPasswordHash(tx, user.id, passwordHash);
        await revokeUserSessions(tx, user.id, keepSessionId);
        // The owner hears of it, in the account's language, whoever held the code.
        await app.outbox.queue(tx, {
          idempotencyKey: `password-changed:${check.codeId}`,
          to: user.email,
          locale: accountLocale,
          ...passwordChangedEmail(accountLocale, user.displayName, 'reset'),
        });
        return true;
      });
      if (!changed) throw new HttpError(400, sayCommon('invalidCode'));
      app.outbox.kick();
      // The revoked sessions stop here at once; other instances hear the database's notice.
      app.auth.cache.forgetUser(user.id);
      // Whoever holds the code may sign in with the new password at once.
      await clearAttempts(app.db, key('login:account', user.email));
      await clearAttempts(app.db, key('login:account-ip', `${user.email}\n${request.ip}`));
      return ok({ success: true as const });
    },
  );

  app.post(
    '/api/v1/auth/loginByAuthCode',
    {
      config: { rateLimit: { max: 20 * scale, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a one-time auth code the server issued (for example right after sign-up)',
        body: loginByAuthCodeBody,
        response: { 200: loginResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const ipLimit = await countAttempt(app.db, key('auth-code:ip', request.ip), limits.authCodePerIp);
      throwWhenLimited(ipLimit, say, 'signInsFromNetwork');
      const email = await redeemAuthCode(app.db, secrets.hmacSecret, request.body.authCode);
      const user = email ? await findUserByEmail(app.db, email) : undefined;
      if (!user) throw new HttpError(400, say('invalidAuthCode'));
      return signIn(request, reply, user);
    },
  );

  app.post(
    '/api/v1/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: "End this request's session (a missing or unknown token is already logged out)",
        security: [{ token: [] }],
        response: { 200: successResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const session = await app.auth.sessionOf(request);
      if (session) await revokeSession(app.db, session.id);
      app.auth.clearSessionCookie(reply);
      return ok({ success: true as const });
    },
  );

  app.get(
    '/api/v1/auth/session',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user (401 when the token is missing, revoked or expired)',
        security: [{ token: [] }],
        response: { 200: sessionResponse, 401: errorEnvelope },
      },
    },
    async (request) => ok({ userCacheInfo: userCacheInfo(request.session!.user) }),
  );
};

export default authRoutes;
