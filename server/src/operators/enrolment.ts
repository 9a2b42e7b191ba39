import type { PasswordCipher } from '../auth/password-cipher';
import { hashPassword, passwordProblem } from '../auth/passwords';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import { recordOperatorAction } from './audit-log-rows';
import {
  newOperatorToken,
  newRecoveryCode,
  OPERATOR_TOKEN_PATTERN,
  openTotpSecret,
  operatorTokenHash,
  recoveryCodeHash,
  sealTotpSecret,
} from './operator-secrets';
import {
  completeEnrolment,
  operatorByEnrolmentToken,
  setPendingTotpSecret,
  upsertOperatorInvitation,
  type OperatorRow,
} from './operator-rows';
import { operatorPassword } from './operator-password';
import { startOperatorSession, type OperatorSessionView } from './operator-sessions';
import { acceptedTotpStep, newTotpSecret } from './totp';

// Becoming an operator: the `operator add` command makes a one-time link; following it, the operator is shown a new
// authenticator secret (begin), then sets a password and proves the authenticator with a code (finish), and gets
// recovery codes, shown once.

/** How long an enrolment link works. */
export const ENROLMENT_LINK_HOURS = 24;
export const RECOVERY_CODE_COUNT = 10;

const say = messagesOf('operators');

/**
 * What the enrolment rules use: the database, the server's secret (which seals the authenticator's secret), and the
 * cipher that opens the encrypted password (the subscribers' own).
 */
export interface EnrolmentDeps {
  db: Database;
  secret: Buffer;
  passwordCipher: PasswordCipher;
}

/** The link's path and fragment: the token stays in the browser (a fragment is never sent, so never logged). */
export function enrolmentLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/operator/enrol#token=${token}`;
}

/**
 * A new operator, or a new link for one that exists (lost authenticator, expired link, disabled and taken back):
 * the old link stops working, and until the new one is used the operator signs in no more. Recorded in the audit
 * log under the operator themselves, since the command has no operator behind it.
 */
export async function inviteOperator(
  db: Database,
  email: string,
): Promise<{ token: string; expiresAt: Date; reinvited: boolean }> {
  const token = newOperatorToken();
  const expiresAt = new Date(Date.now() + ENROLMENT_LINK_HOURS * 60 * 60 * 1000);
  const invited = await db.transaction(async (tx) => {
    const row = await upsertOperatorInvitation(tx, email.trim().toLowerCase(), operatorTokenHash(token), expiresAt);
    await recordOperatorAction(tx, {
      operatorId: row.id,
      action: row.reinvited ? 'operator.reinvite' : 'operator.invite',
      objectType: 'operator',
      objectId: row.id,
      note: 'by the operator command',
    });
    return row;
  });
  return { token, expiresAt, reinvited: invited.reinvited };
}

async function invitedOperator(db: DatabaseExecutor, token: string): Promise<OperatorRow> {
  const operator = OPERATOR_TOKEN_PATTERN.test(token)
    ? await operatorByEnrolmentToken(db, operatorTokenHash(token), new Date())
    : undefined;
  if (!operator) throw new HttpError(404, say('enrolmentLinkInvalid'));
  return operator;
}

/** Begins enrolment: a new authenticator secret, kept pending (sealed) until finish proves the app has it. */
export async function beginEnrolment(
  deps: Omit<EnrolmentDeps, 'passwordCipher'>,
  token: string,
): Promise<{ email: string; secret: string; otpauthUrl: string }> {
  const operator = await invitedOperator(deps.db, token);
  const { secret, otpauthUrl } = newTotpSecret(operator.email);
  await setPendingTotpSecret(deps.db, operator.id, sealTotpSecret(deps.secret, operator.id, secret));
  return { email: operator.email, secret, otpauthUrl };
}

export interface EnrolmentFinish {
  token: string;
  /** RSA-encrypted with the key of GET /api/v1/auth/publicKey, base64 (jsencrypt). */
  password: string;
  code: string;
}

/**
 * Finishes enrolment: the password (the same rules as a subscriber's), a current code of the pending secret, the
 * link used up, and a session. The recovery codes are in this answer only.
 */
export async function finishEnrolment(
  deps: EnrolmentDeps,
  body: EnrolmentFinish,
): Promise<{ recoveryCodes: string[]; token: string; view: OperatorSessionView }> {
  const password = operatorPassword(deps.passwordCipher, body.password);
  const operator = await invitedOperator(deps.db, body.token);
  const pending = operator.pendingTotpSecret && openTotpSecret(deps.secret, operator.id, operator.pendingTotpSecret);
  if (!pending) throw new HttpError(404, say('enrolmentLinkInvalid'));
  const problem = passwordProblem(password);
  if (problem) throw new HttpError(400, problem);
  const step = acceptedTotpStep(pending, body.code.trim(), new Date());
  if (step === null) throw new HttpError(400, say('wrongEnrolmentCode'));

  const passwordHash = await hashPassword(password);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const started = await deps.db.transaction(async (tx) => {
    const done = await completeEnrolment(tx, operator.id, operatorTokenHash(body.token), {
      passwordHash,
      totpSecret: sealTotpSecret(deps.secret, operator.id, pending),
      acceptedStep: step,
      recoveryCodeHashes: recoveryCodes.map((code) => recoveryCodeHash(deps.secret, code)),
    });
    if (!done) return null;
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: 'operator.enrol',
      objectType: 'operator',
      objectId: operator.id,
    });
    return startOperatorSession(tx, operator);
  });
  // Another finish with the same link came first.
  if (!started) throw new HttpError(404, say('enrolmentLinkInvalid'));
  return { recoveryCodes, token: started.token, view: started.view };
}
