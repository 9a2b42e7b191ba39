import type { Database, DatabaseTransaction } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { findUserById } from '../auth/users';
import type { ReportOutcome } from '../db/column-values';
import type { MessageOutbox } from '../messages/message-outbox';
import { recordOperatorAction } from '../operators/audit-log-rows';
import { warningEmail } from './desk-emails';
import { closeReport, reportById } from './report-rows';
import { sayDesk } from './desk-messages';
import { suspendAccount, type ActingOperator } from './suspensions';

// The operator's decisions on a report: dismiss, warn the requester, or suspend them. Each closes the report and is
// written to the audit log in the same transaction; a report is decided once.

export interface ReportActionDeps {
  db: Database;
  outbox: Pick<MessageOutbox, 'queue' | 'kick'>;
  hmacSecret: Buffer;
  /** PUBLIC_URL: the warning's link to the contact page. */
  publicUrl: string;
}

export interface ReportDecision {
  id: string;
  state: 'closed';
  outcome: ReportOutcome;
  suspensionId: string | null;
}

/**
 * Closes the report with `outcome` after `act` (inside the transaction, with the report's requester) has done its
 * part; 404 for no such report, 409 when it was decided already.
 */
async function decide(
  deps: ReportActionDeps,
  operator: ActingOperator,
  reportId: string,
  outcome: ReportOutcome,
  note: string | null,
  act: (tx: DatabaseTransaction, requesterId: string | null) => Promise<string | null>,
): Promise<ReportDecision> {
  const decision = await deps.db.transaction(async (tx) => {
    const report = await reportById(tx, reportId, true);
    if (!report) throw new HttpError(404, sayDesk('reportNotFound'));
    if (report.closedAt) throw new HttpError(409, sayDesk('reportClosed'));
    const suspensionId = await act(tx, report.requesterId);
    await closeReport(tx, report.id, { outcome, closedBy: operator.id, operatorNote: note, closedAt: new Date() });
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: `report.${outcome === 'dismissed' ? 'dismiss' : outcome === 'warned' ? 'warn' : 'suspend'}`,
      objectType: 'abuse_report',
      objectId: report.id,
      note,
    });
    return { id: report.id, state: 'closed' as const, outcome, suspensionId };
  });
  deps.outbox.kick();
  return decision;
}

/** Nothing to act on: the report is closed with the operator's note. */
export function dismissReport(deps: ReportActionDeps, operator: ActingOperator, reportId: string, note: string) {
  return decide(deps, operator, reportId, 'dismissed', note, async () => null);
}

/**
 * Warns the requester by email in their own language (once per report: the email's key is the report's), and
 * closes the report; 409 when the requester's account is gone.
 */
export function warnRequester(deps: ReportActionDeps, operator: ActingOperator, reportId: string, note: string | null) {
  return decide(deps, operator, reportId, 'warned', note, async (tx, requesterId) => {
    const user = requesterId ? await findUserById(tx, requesterId) : undefined;
    if (!user) throw new HttpError(409, sayDesk('requesterGone'));
    const report = await reportById(tx, reportId);
    await deps.outbox.queue(tx, {
      idempotencyKey: `report-warning:${reportId}`,
      to: user.email,
      locale: user.locale,
      ...warningEmail(user.locale, {
        displayName: user.displayName,
        reportedAt: report!.createdAt,
        siteUrl: deps.publicUrl,
      }),
    });
    return null;
  });
}

/**
 * Suspends the report's requester (suspensions.ts says what that does at once) and closes the report; 409 when the
 * account is gone or already suspended.
 */
export function suspendRequester(deps: ReportActionDeps, operator: ActingOperator, reportId: string, note: string) {
  return decide(deps, operator, reportId, 'suspended', note, async (tx, requesterId) => {
    const user = requesterId ? await findUserById(tx, requesterId) : undefined;
    if (!user) throw new HttpError(409, sayDesk('requesterGone'));
    const suspension = await suspendAccount(tx, deps.hmacSecret, operator, user, { reportId, note, at: new Date() });
    return suspension.id;
  });
}
