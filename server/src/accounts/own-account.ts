import { randomUUID } from 'node:crypto';
import type { Logger } from '../lib/logger';
import type { AuthServices } from '../auth/auth-services';
import type { Billing } from '../billing/billing-services';
import type { Database } from '../db/open-database';
import type { ReverseGeocoder } from '../geo/reverse-geocode';
import type { MessageOutbox } from '../messages/message-outbox';
import { unsendableNameProblem } from '../auth/display-name';
import { hashPassword, passwordProblem, verifyPassword } from '../auth/passwords';
import { revokeSession, revokeUserSessions, type Session } from '../auth/sessions';
import { countAttempt } from '../auth/throttle';
import { findUserByEmail, setPasswordHash, userCacheInfo, type User, type UserCacheInfo } from '../auth/users';
import { issueEmailChangeCode, redeemEmailChangeCode } from '../auth/verification-codes';
import { redeemBillingCode } from '../billing/billing-codes';
import { sayBilling } from '../billing/billing-messages';
import { accountDeletedEmail } from '../billing/emails';
import { paymentView } from '../billing/payment-view';
import { findSubscription, type Subscription } from '../billing/subscription-rows';
import { subscriptionInfo } from '../billing/subscriptions';
import { HttpError } from '../lib/envelope';
import { messagesOf, sayCommon } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import { emailChangeCodeEmail, emailChangedEmail, passwordChangedEmail } from '../messages/templates';
import { processorsOf } from '../payments/processors';
import { pushSubscriptionsOf } from '../push/push-subscriptions';
import { noticeSettingsOf, setNoticeSettings, type NoticeSettings } from '../requests/requester-notices';
import { accountRows, activeSessionsOf, isOwnOpenSession, setDisplayName, setEmail } from './account-rows';
import { isUniqueViolation } from '../db/unique-violation';
import { eraseAccount } from './erasure-rows';
import { exportedVoiceNotes } from '../voice/voice-notes';
import { exportArchive, type ExportLimits } from './export-archive';
import { claimExportLease } from './export-lease-rows';
import type { Readable } from 'node:stream';
import { looksOf } from '../sharing/look-recorder';

// The subscriber's rules about their own account: export, delete, name, email, password, sessions. Every rule acts
// on the signed-in account it is given, nothing else.

/** What the account rules use of the server: the database, the outbox, the secrets, the providers, the log. */
export interface AccountDeps {
  db: Database;
  outbox: MessageOutbox;
  auth: Pick<AuthServices, 'secrets' | 'passwordCipher'>;
  geo: { reverseGeocoder: ReverseGeocoder };
  billing: Pick<Billing, 'clock' | 'sandbox' | 'stripe' | 'paypal' | 'midtrans'>;
  log: Logger;
}

const ACCOUNT_CHECKS = { limit: 10, windowSeconds: 15 * 60 };
// Each code is an email to an address we do not know yet to be theirs: few of them.
const EMAIL_CHANGE_CODES = { limit: 5, windowSeconds: 60 * 60 };

const sayAccount = messagesOf('account');

/** Password checks on a signed-in account are throttled per account, so a stolen session cannot guess it. */
async function checkPassword(deps: AccountDeps, user: User, encrypted: string): Promise<void> {
  const limit = await countAttempt(deps.db, `account-password:${user.id}`, ACCOUNT_CHECKS);
  throwWhenLimited(limit, sayCommon, 'tooManyAttempts');
  if (!(await verifyPassword(user.passwordHash, deps.auth.passwordCipher.decrypt(encrypted)))) {
    throw new HttpError(400, sayCommon('wrongPassword'));
  }
}

/**
 * A deleted account's customer at the payment provider goes too (Stripe: the customer and its saved cards;
 * PayPal: the vaulted account). Best effort: a provider that is down or refuses is logged, without the person.
 */
async function forgetAtProvider(deps: AccountDeps, subscription: Subscription): Promise<void> {
  const { provider, providerCustomerRef, providerPaymentMethodRef } = subscription;
  const processor = processorsOf(deps.billing)[provider];
  try {
    if (processor) {
      await processor.forgetSavedCustomer({
        customerRef: providerCustomerRef,
        paymentMethodRef: providerPaymentMethodRef,
      });
    } else if (providerCustomerRef || providerPaymentMethodRef) {
      deps.log.warn(
        { provider },
        'deleted account: its payment provider is no longer configured, nothing forgotten there',
      );
    }
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    deps.log.warn(
      { provider, status: typeof status === 'number' ? status : undefined },
      'deleted account: the payment provider could not forget the customer',
    );
  }
}

/**
 * My data as a ZIP, made as the client reads it (export-archive.ts): one export at a time per account (429 while
 * another is still being made), ended at the deadline of `limits`.
 */
export async function startAccountExport(deps: AccountDeps, session: Session, limits: ExportLimits): Promise<Readable> {
  const release = await claimExportLease(deps.db, session.user.id, limits.deadlineMs);
  if (!release) throw new HttpError(429, sayAccount('exportRunning'));
  const finished = () =>
    release().catch((error: unknown) => {
      // The lease then frees itself a minute after the deadline.
      deps.log.error({ err: error }, 'Could not end the lease of a data export');
    });
  let document: Awaited<ReturnType<typeof exportAccount>>;
  try {
    document = await exportAccount(deps, session);
  } catch (error) {
    await finished();
    throw error;
  }
  return exportArchive(deps.db, document, limits, finished);
}

/**
 * My data as one document: account, consent at sign-up, notice settings and the browsers with notifications on,
 * sessions, refund requests, subscription, payments, and the requests with their positions. Never a link's token, in any form: the export is a file that travels.
 */
async function exportAccount(deps: AccountDeps, session: Session) {
  const { user } = session;
  const subscription = await findSubscription(deps.db, user.id);
  const { paid, requests, shared, looked, devices, refunds } = await accountRows(deps.db, user);
  const voiceNotes = await exportedVoiceNotes(deps.db, user.id);
  // The export shows the requester the positions: a look at each recipient whose positions it holds, recorded
  // before it goes out, as the history's and the map's answers are.
  await looksOf(deps.db).record(new Set(shared.map((position) => position.requestId)));
  return {
    exportedAt: new Date().toISOString(),
    account: userCacheInfo(user),
    // What was consented to at sign-up (null for accounts made before it was recorded).
    consent: {
      ageConfirmedAt: user.ageConfirmedAt?.toISOString() ?? null,
      termsAcceptedAt: user.termsAcceptedAt?.toISOString() ?? null,
      termsVersion: user.termsVersion,
    },
    // Which emails and notifications tell the subscriber what a recipient did.
    notices: await noticeSettingsOf(deps.db, user.id),
    // The browsers where notifications are on: the push service each one uses, and since when.
    notificationBrowsers: (await pushSubscriptionsOf(deps.db, user.id)).map((device) => ({
      pushService: new URL(device.endpoint).host,
      since: device.createdAt.toISOString(),
    })),
    sessions: devices.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      endedAt: row.endedAt?.toISOString() ?? null,
      current: row.id === session.id,
    })),
    refundRequests: refunds.map((row) => ({
      id: row.id,
      email: row.email,
      reason: row.reason,
      state: row.state,
      createdAt: row.createdAt.toISOString(),
    })),
    subscription: subscription
      ? subscriptionInfo(subscription, deps.billing.clock.now(), processorsOf(deps.billing))
      : null,
    // The export says a little more than the list: the provider, and when a payment was disputed.
    payments: paid.map((row) => ({
      ...paymentView(row),
      disputedAt: row.disputedAt?.toISOString() ?? null,
      provider: row.provider,
    })),
    requests: requests.map(
      ({ tokenHash: _hash, tokenCipher: _cipher, legacyToken: _legacy, userId: _userId, ...row }) => ({
        ...row,
        positions: shared
          .filter((position) => position.requestId === row.id)
          .map(({ requestId: _requestId, ...position }) => position),
        mapViews: looked
          .filter((view) => view.requestId === row.id)
          .map((view) => ({ openedAt: view.openedAt.toISOString(), lastSeenAt: view.lastSeenAt.toISOString() })),
      }),
    ),
    // The voice messages recorded and the replies heard: each one's audio is a file beside this document.
    voiceNotes,
  };
}

/**
 * Deletes the account, confirmed by its password or by the emailed code: erases everything tied to it, leaves one
 * notice in the outbox, and forgets the customer at the payment provider. 400 for a wrong password or code.
 */
export async function deleteAccount(
  deps: AccountDeps,
  user: User,
  proof: { password?: string; verificationCode?: string },
): Promise<void> {
  if (proof.password !== undefined) await checkPassword(deps, user, proof.password);
  const locale = user.locale;
  const deleted = await deps.db.transaction(async (tx) => {
    if (proof.password === undefined) {
      const { hmacSecret } = deps.auth.secrets;
      if (!(await redeemBillingCode(tx, hmacSecret, user.email, 'delete_account', proof.verificationCode!))) {
        return null;
      }
    }
    const subscription = await findSubscription(tx, user.id);
    await eraseAccount(tx, user, deps.geo.reverseGeocoder, deps.auth.secrets.hmacSecret);
    // The one message left about the account: the notice, deleted once a provider has taken it. Its key names
    // nothing (the deletion happens once, in this transaction).
    await deps.outbox.queue(tx, {
      idempotencyKey: `account-deleted:${randomUUID()}`,
      to: user.email,
      locale,
      eraseWhenSent: true,
      ...accountDeletedEmail(locale, user.displayName),
    });
    return { subscription: subscription ?? null };
  });
  if (!deleted) throw new HttpError(400, sayCommon('invalidCode'));
  deps.outbox.kick();
  // After the commit and not awaited: the account is gone here whatever the provider answers, or how slowly.
  if (deleted.subscription) void forgetAtProvider(deps, deleted.subscription);
}

export async function changeDisplayName(deps: AccountDeps, user: User, displayName: string): Promise<UserCacheInfo> {
  return userCacheInfo(await setDisplayName(deps.db, user.id, displayName));
}

/**
 * Email change, step one: the password, then a code emailed to the new address. Nothing changes yet. 400 for the
 * same address or a name that may not be sent, 409 for an address in use, 429 past 5 codes an hour.
 */
export async function requestEmailChange(
  deps: AccountDeps,
  user: User,
  password: string,
  newEmail: string,
): Promise<void> {
  await checkPassword(deps, user, password);
  if (newEmail === user.email) throw new HttpError(400, sayAccount('sameEmail'));
  // The code's email greets the account by name at an address not yet proven to be theirs: a name saved
  // before the name rule (a link, a phone number) must be changed first.
  const nameProblem = unsendableNameProblem(user.displayName);
  if (nameProblem) throw new HttpError(400, nameProblem);
  if (await findUserByEmail(deps.db, newEmail)) throw new HttpError(409, sayCommon('emailInUse'));
  const limit = await countAttempt(deps.db, `email-change-code:${user.id}`, EMAIL_CHANGE_CODES);
  throwWhenLimited(limit, sayAccount, 'tooManyCodes');
  const locale = user.locale;
  await deps.db.transaction(async (tx) => {
    const { code, codeId } = await issueEmailChangeCode(tx, deps.auth.secrets.hmacSecret, user.email, newEmail);
    await deps.outbox.queue(tx, {
      idempotencyKey: `email-change-code:${codeId}`,
      to: newEmail,
      locale,
      ...emailChangeCodeEmail(locale, user.displayName, code),
    });
  });
  deps.outbox.kick();
}

/** Email change, step two: the code that reached the new address makes the change; the old address is told. */
export async function confirmEmailChange(
  deps: AccountDeps,
  current: User,
  newEmail: string,
  verificationCode: string,
): Promise<UserCacheInfo> {
  const limit = await countAttempt(deps.db, `email-change-confirm:${current.id}`, ACCOUNT_CHECKS);
  throwWhenLimited(limit, sayCommon, 'tooManyAttempts');
  const locale = current.locale;
  const changed = await deps.db
    .transaction(async (tx) => {
      const { hmacSecret } = deps.auth.secrets;
      const codeId = await redeemEmailChangeCode(tx, hmacSecret, current.email, newEmail, verificationCode);
      // Returned, not thrown: the attempt a wrong code spent must be kept.
      if (!codeId) return null;
      if (await findUserByEmail(tx, newEmail)) throw new HttpError(409, sayCommon('emailInUse'));
      const user = await setEmail(tx, current, newEmail);
      await deps.outbox.queue(tx, {
        idempotencyKey: `email-changed:${codeId}`,
        to: current.email,
        locale,
        ...emailChangedEmail(locale, current.displayName, newEmail),
      });
      return user;
    })
    .catch((error: unknown) => {
      // Taken between the check and the update: the unique index answers.
      if (isUniqueViolation(error)) throw new HttpError(409, sayCommon('emailInUse'));
      throw error;
    });
  if (!changed) throw new HttpError(400, sayCommon('invalidCode'));
  deps.outbox.kick();
  return userCacheInfo(changed);
}

/** A new password (both sent encrypted); every other session ends and the account is told by email. */
export async function changePassword(
  deps: AccountDeps,
  session: Session,
  password: string,
  encryptedNewPassword: string,
): Promise<void> {
  const { user } = session;
  await checkPassword(deps, user, password);
  const newPassword = deps.auth.passwordCipher.decrypt(encryptedNewPassword);
  const problem = passwordProblem(newPassword);
  if (problem) throw new HttpError(400, problem);
  const passwordHash = await hashPassword(newPassword);
  const locale = user.locale;
  await deps.db.transaction(async (tx) => {
    const changedAt = await setPasswordHash(tx, user.id, passwordHash);
    await revokeUserSessions(tx, user.id, session.id);
    await deps.outbox.queue(tx, {
      idempotencyKey: `password-changed:${user.id}:${changedAt?.toISOString() ?? Date.now()}`,
      to: user.email,
      locale,
      ...passwordChangedEmail(locale, user.displayName, 'account'),
    });
  });
  deps.outbox.kick();
}

/** The account's sessions in use, last used first, the caller's own marked. */
export async function listSessions(deps: AccountDeps, session: Session) {
  const rows = await activeSessionsOf(deps.db, session.user.id);
  return rows.map((row) => ({
    id: row.id,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === session.id,
  }));
}

/** Ends one of the account's own sessions; 404 for anyone else's, or one already ended. */
export async function endSession(deps: AccountDeps, user: User, sessionId: string): Promise<void> {
  if (!(await isOwnOpenSession(deps.db, user.id, sessionId))) throw new HttpError(404, sayBilling('sessionNotFound'));
  await revokeSession(deps.db, sessionId);
}

/** Which emails tell the subscriber what a recipient did. */
export function noticeSettings(deps: AccountDeps, user: User): Promise<NoticeSettings> {
  return noticeSettingsOf(deps.db, user.id);
}

/** Turns those emails on or off (the ones named); answers all of them. */
export async function changeNoticeSettings(
  deps: AccountDeps,
  user: User,
  change: Parameters<typeof setNoticeSettings>[2],
): Promise<NoticeSettings> {
  await deps.db.transaction((tx) => setNoticeSettings(tx, user.id, change));
  return noticeSettingsOf(deps.db, user.id);
}
