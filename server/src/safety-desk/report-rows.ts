import { and, desc, eq, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { abuseReports, locationRequests } from '../db/schema/location-requests';
import { abuseReportNotes, voiceNotes } from '../db/schema/voice-notes';
import type { ReportOutcome } from '../db/column-values';

// The abuse reports' queries for the operator: the list, one report with its request and requester, the requester's
// activity. Never a position, a recipient's reply or anything the recipient shared. The rules are in reports.ts.

export type AbuseReportRow = typeof abuseReports.$inferSelect;

export interface ReportCursor {
  createdAt: Date;
  id: string;
}

/** A page of reports, open or closed, newest first, after `before` when given, with the requester's name. */
export function reportPage(db: DatabaseExecutor, open: boolean, before: ReportCursor | undefined, limit: number) {
  return db
    .select({ report: abuseReports, displayName: users.displayName })
    .from(abuseReports)
    .leftJoin(users, eq(users.id, abuseReports.requesterId))
    .where(
      and(
        open ? isNull(abuseReports.closedAt) : isNotNull(abuseReports.closedAt),
        before
          ? or(
              lt(abuseReports.createdAt, before.createdAt),
              and(eq(abuseReports.createdAt, before.createdAt), lt(abuseReports.id, before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(abuseReports.createdAt), desc(abuseReports.id))
    .limit(limit);
}

export async function reportById(db: DatabaseExecutor, id: string, lock = false): Promise<AbuseReportRow | undefined> {
  const query = db.select().from(abuseReports).where(eq(abuseReports.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The request a report concerns, while it exists: what was sent and how it went, never what was shared. */
export async function reportedRequest(db: DatabaseExecutor, requestId: string) {
  const [row] = await db
    .select({
      id: locationRequests.id,
      channel: locationRequests.channel,
      target: locationRequests.target,
      note: locationRequests.note,
      createdAt: locationRequests.createdAt,
      openedAt: locationRequests.openedAt,
      decidedAt: locationRequests.decidedAt,
      cancelledAt: locationRequests.cancelledAt,
      expiresAt: locationRequests.expiresAt,
      status: locationRequests.status,
      consent: locationRequests.consent,
    })
    .from(locationRequests)
    .where(eq(locationRequests.id, requestId));
  return row;
}

/** The copy of the voice note the recipient heard, kept with the report (never a recipient's reply). */
export async function reportVoiceNote(db: DatabaseExecutor, reportId: string) {
  const [row] = await db
    .select()
    .from(voiceNotes)
    .innerJoin(abuseReportNotes, eq(abuseReportNotes.voiceNoteId, voiceNotes.id))
    .where(and(eq(abuseReportNotes.reportId, reportId), eq(voiceNotes.kind, 'report')));
  return row?.voice_notes;
}

/** The other reports against the same requester, newest first. */
export function otherReportsOf(db: DatabaseExecutor, requesterId: string, reportId: string, limit: number) {
  return db
    .select({
      id: abuseReports.id,
      createdAt: abuseReports.createdAt,
      reason: abuseReports.reason,
      closedAt: abuseReports.closedAt,
    })
    .from(abuseReports)
    .where(and(eq(abuseReports.requesterId, requesterId), ne(abuseReports.id, reportId)))
    .orderBy(desc(abuseReports.createdAt))
    .limit(limit);
}

/** Requests the account sent per day (UTC) and channel since `since`, oldest day first. */
export function requestsPerDayOf(db: DatabaseExecutor, userId: string, since: Date) {
  return queryRows<{ day: string; channel: string; count: number }>(
    db,
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, channel, count(*)::int as count
        from location_requests where user_id = ${userId} and created_at >= ${since.toISOString()}::timestamptz
        group by 1, 2 order by 1`,
  );
}

/** SMS requests the account ever sent, still stored (a deleted request leaves no count behind). */
export async function smsRequestCountOf(db: DatabaseExecutor, userId: string): Promise<number> {
  return db.$count(locationRequests, and(eq(locationRequests.userId, userId), eq(locationRequests.channel, 'sms')));
}

/** The account's phone, set at sign-up: the country it is read from. */
export async function requesterAccount(db: DatabaseExecutor, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

/** Closes an open report with the operator's decision; false when it was closed already. */
export async function closeReport(
  db: DatabaseExecutor,
  id: string,
  decision: { outcome: ReportOutcome; closedBy: string; operatorNote: string | null; closedAt: Date },
): Promise<boolean> {
  const closed = await db
    .update(abuseReports)
    .set(decision)
    .where(and(eq(abuseReports.id, id), isNull(abuseReports.closedAt)))
    .returning({ id: abuseReports.id });
  return closed.length > 0;
}
