import type { PasswordCipher } from '../auth/password-cipher';
import { verifyPassword } from '../auth/passwords';
import {
  claimAttempt,
  clearAttempts,
  giveBackAttempt,
  throttleKey,
  waitingFor,
  type BackoffRule,
} from '../auth/throttle';
import type { Database } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import { recordOperatorAction } from './audit-log-rows';
import { operatorPassword } from './operator-password';
import { openTotpSecret, recoveryCodeHash } from './operator-secrets';
import { operatorByEmail, takeTotpStep, spendRecoveryCode } from './operator-rows';
import {
  endOperatorSession,
  startOperatorSession,
  type OperatorIdentity,
  type OperatorSessionView,
} from './operator-sessions';
import { acceptedTotpStep } from './totp';

// Signing an operator in and out: the password and a current code (or a recovery code, used up), with growing
// waits after failures, per operator and per address.

const say = messagesOf('operators');
const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * What sign-in uses: the database, the server's secret, the throttles' scale (raised for test runs), and the
 * cipher that opens the encrypted password (the subscribers' own).
 */
export interface OperatorSignInDeps {
  db: Database;
  secret: Buffer;
  throttleScale: number;
  passwordCipher: PasswordCipher;
}

function rules(scale: number): { perOperator: BackoffRule; perAddress: BackoffRule } {
  const backoff = (freeFailures: number, maxDelaySeconds: number): BackoffRule => ({
    freeFailures: freeFailures * scale,
    firstDelaySeconds: 1,
    maxDelaySeconds,
    forgetAfterSeconds: HOUR,
  });
  return {
    // An operator can end anyone's shares: a guesser gets a handful of tries, then waits up to 15 minutes.
    perOperator: backoff(5, 15 * MINUTE),
    perAddress: backoff(10, 15 * MINUTE),
  };
}

export interface OperatorCredentials {
  email: string;
  /** RSA-encrypted with the key of GET /api/v1/auth/publicKey, base64 (jsencrypt). */
  password: string;
  /** The authenticator's 6 digits, or a recovery code. */
  code: string;
}

const TOTP_CODE = /^\d{6}$/;

/**
 * Signs an operator in from address `ip`: 401 with one message for any wrong part (unknown email, password, code,
 * a code already used, a disabled operator), 429 while a wait lasts. A session and an audit entry on success.
 */
export async function signInOperator(
  deps: OperatorSignInDeps,
  ip: string,
  credentials: OperatorCredentials,
): Promise<{ token: string; view: OperatorSessionView }> {
  const password = operatorPassword(deps.passwordCipher, credentials.password);
  const limits = rules(deps.throttleScale);
  const email = credentials.email.trim().toLowerCase();
  const operatorKey = throttleKey(deps.secret, 'operator-login:operator', email);
  const addressKey = throttleKey(deps.secret, 'operator-login:ip', ip);
  throwWhenLimited(await waitingFor(deps.db, addressKey), say, 'signInsFromNetwork');
  // Each attempt counts as a failure until it succeeds, claimed before anything is checked: attempts sent at once
  // get no more tries than attempts sent one by one.
  const perOperator = await claimAttempt(deps.db, operatorKey, limits.perOperator);
  throwWhenLimited(perOperator, say, 'signInsForOperator');
  const perAddress = await claimAttempt(deps.db, addressKey, limits.perAddress);
  if (perAddress.limited) await giveBackAttempt(deps.db, operatorKey);
  throwWhenLimited(perAddress, say, 'signInsFromNetwork');

  const refused = () => new HttpError(401, say('incorrectSignIn'));
  const operator = await operatorByEmail(deps.db, email);
  const usable = operator && operator.enrolledAt && !operator.disabledAt ? operator : undefined;
  if (!(await verifyPassword(usable?.passwordHash ?? undefined, password)) || !usable) throw refused();

  const code = credentials.code.trim();
  let usedRecoveryCode = false;
  if (TOTP_CODE.test(code)) {
    const secret = usable.totpSecret && openTotpSecret(deps.secret, usable.id, usable.totpSecret);
    const step = secret ? acceptedTotpStep(secret, code, new Date()) : null;
    if (step === null || !(await takeTotpStep(deps.db, usable.id, step))) throw refused();
  } else {
    if (!(await spendRecoveryCode(deps.db, usable.id, recoveryCodeHash(deps.secret, code)))) throw refused();
    usedRecoveryCode = true;
  }

  await clearAttempts(deps.db, operatorKey);
  await clearAttempts(deps.db, addressKey);
  return deps.db.transaction(async (tx) => {
    const started = await startOperatorSession(tx, usable);
    await recordOperatorAction(tx, {
      operatorId: usable.id,
      action: 'session.sign_in',
      objectType: 'operator_session',
      objectId: started.sessionId,
      note: usedRecoveryCode ? 'with a recovery code' : null,
    });
    return { token: started.token, view: started.view };
  });
}

export async function signOutOperator(db: Database, operator: OperatorIdentity): Promise<void> {
  await db.transaction(async (tx) => {
    await endOperatorSession(tx, operator.sessionId);
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: 'session.sign_out',
      objectType: 'operator_session',
      objectId: operator.sessionId,
    });
  });
}
