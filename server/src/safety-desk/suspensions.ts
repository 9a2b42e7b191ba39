import type { Database, DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { findUserById, type User } from '../auth/users';
import { revokeUserSessions } from '../auth/sessions';
import { markRefundOwed } from '../billing/refund-rows';
import { publishRequestChange } from '../requests/location-request-view';
import { recordOperatorAction } from '../operators/audit-log-rows';
import { sayDesk } from './desk-messages';
import { standingSuspensionOf, type SuspensionRow } from './standing-suspension-rows';
import { suspendedEmailKey } from './suspension-checks';
import {
  cancelOpenRequestsOf,
  insertSuspension,
  lockSubscriptionOf,
  markLifted,
  paymentOfPeriod,
  stopRenewing,
  suspensionsWithNames,
} from './suspension-rows';

// Suspending a requester and lifting it: what a suspension does at once. What it refuses while it stands is in
// suspension-checks.ts.

/** The operator acting, as the console's guard names them. */
export interface ActingOperator {
  id: string;
  email: string;
}

interface SuspensionView {
  id: string;
  userId: string | null;
  displayName: string | null;
  reportId: string | null;
  suspendedAt: string;
  note: string;
  refundOwed: boolean;
  liftedAt: string | null;
  liftNote: string | null;
}

function suspensionView(row: SuspensionRow, displayName: string | null): SuspensionView {
  return {
    id: row.id,
    userId: row.userId,
    displayName,
    reportId: row.reportId,
    suspendedAt: row.suspendedAt.toISOString(),
    note: row.note,
    refundOwed: row.refundPaymentId !== null,
    liftedAt: row.liftedAt?.toISOString() ?? null,
    liftNote: row.liftNote,
  };
}

/**
 * Suspends `user` inside the caller's transaction: every request a recipient could still act on is cancelled (its
 * link stops working, a live window closes, the requester's map is told through the live events), every session
 * ends, the subscription renews no more, and the payment of the period still running is owed back in full (the
 * processors refund only whole payments; the operator makes it from the refunds queue). 409 when one stands.
 */
export async function suspendAccount(
  tx: DatabaseExecutor,
  hmacSecret: Buffer,
  operator: ActingOperator,
  user: User,
  facts: { reportId: string | null; note: string; at: Date },
): Promise<SuspensionRow> {
  if (await standingSuspensionOf(tx, user.id)) throw new HttpError(409, sayDesk('alreadySuspended'));
  const { at } = facts;
  for (const requestId of await cancelOpenRequestsOf(tx, user.id, at)) {
    await publishRequestChange(tx, user.id, requestId);
  }
  await revokeUserSessions(tx, user.id);
  let refundPaymentId: string | null = null;
  const subscription = await lockSubscriptionOf(tx, user.id);
  if (subscription) {
    await stopRenewing(tx, subscription.id, at);
    const payment =
      subscription.validUntil > at ? await paymentOfPeriod(tx, subscription.id, subscription.periodIndex) : undefined;
    if (payment) {
      await markRefundOwed(tx, payment.id, 'suspension', at);
      refundPaymentId = payment.id;
    }
  }
  const suspension = await insertSuspension(tx, {
    userId: user.id,
    emailHash: suspendedEmailKey(hmacSecret, user.email),
    reportId: facts.reportId,
    note: facts.note,
    suspendedAt: at,
    suspendedBy: operator.id,
    refundPaymentId,
  });
  await recordOperatorAction(tx, {
    operatorId: operator.id,
    action: 'account.suspend',
    objectType: 'account',
    objectId: user.id,
    note: facts.note,
  });
  return suspension;
}

/**
 * Lifts a standing suspension: the account may sign in and send again, and its email sign up. What it ended stays
 * ended (the cancelled requests, the cancelled subscription, a refund owed). 404 when none stands with this id.
 */
export async function liftSuspension(
  db: Database,
  operator: ActingOperator,
  suspensionId: string,
  note: string,
): Promise<SuspensionView> {
  return db.transaction(async (tx) => {
    const lifted = await markLifted(tx, suspensionId, { liftedBy: operator.id, liftNote: note, liftedAt: new Date() });
    if (!lifted) throw new HttpError(404, sayDesk('suspensionNotFound'));
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: 'suspension.lift',
      objectType: 'suspension',
      objectId: lifted.id,
      note,
    });
    const user = lifted.userId ? await findUserById(tx, lifted.userId) : undefined;
    return suspensionView(lifted, user?.displayName ?? null);
  });
}

/** The latest suspensions, standing and lifted, newest first. */
export async function listSuspensions(db: Database): Promise<SuspensionView[]> {
  const rows = await suspensionsWithNames(db, 200);
  return rows.map((row) => suspensionView(row.suspension, row.displayName));
}
