import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { abuseReports } from '../db/schema/location-requests';
import { abuseReportNotes, voiceNotes } from '../db/schema/voice-notes';
import type { VoiceNoteKind } from '../db/column-values';

// The voice notes' queries; the rules are in voice-notes.ts.

export type VoiceNoteRow = typeof voiceNotes.$inferSelect;
type NewVoiceNote = typeof voiceNotes.$inferInsert;

export async function insertVoiceNote(db: DatabaseExecutor, values: NewVoiceNote): Promise<VoiceNoteRow> {
  const [row] = await db.insert(voiceNotes).values(values).returning();
  return row!;
}

/** A note of the account's own (its drafts and sent notes, and the replies to its requests); else undefined. */
export async function ownedVoiceNote(
  db: DatabaseExecutor,
  userId: string,
  id: string,
): Promise<VoiceNoteRow | undefined> {
  const [row] = await db
    .select()
    .from(voiceNotes)
    .where(and(eq(voiceNotes.id, id), eq(voiceNotes.userId, userId)));
  return row;
}

/** The request's note or reply. */
export async function voiceNoteOfRequest(
  db: DatabaseExecutor,
  requestId: string,
  kind: Exclude<VoiceNoteKind, 'report'>,
): Promise<VoiceNoteRow | undefined> {
  const [row] = await db
    .select()
    .from(voiceNotes)
    .where(and(eq(voiceNotes.requestId, requestId), eq(voiceNotes.kind, kind)));
  return row;
}

/** The notes and replies of the given requests. */
export function voiceNotesOfRequests(db: DatabaseExecutor, requestIds: string[]): Promise<VoiceNoteRow[]> {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(voiceNotes)
    .where(and(inArray(voiceNotes.requestId, requestIds), inArray(voiceNotes.kind, ['request', 'reply'])));
}

/** Attaches the account's draft to a request with its text; false when there is no such draft. */
export async function attachDraft(
  db: DatabaseExecutor,
  userId: string,
  id: string,
  requestId: string,
  text: string | null,
): Promise<boolean> {
  const attached = await db
    .update(voiceNotes)
    .set({ requestId, text })
    .where(
      and(
        eq(voiceNotes.id, id),
        eq(voiceNotes.userId, userId),
        eq(voiceNotes.kind, 'request'),
        isNull(voiceNotes.requestId),
      ),
    )
    .returning({ id: voiceNotes.id });
  return attached.length === 1;
}

export async function deleteVoiceNote(db: DatabaseExecutor, id: string): Promise<void> {
  await db.delete(voiceNotes).where(eq(voiceNotes.id, id));
}

export async function deleteReplyOf(db: DatabaseExecutor, requestId: string): Promise<void> {
  await db.delete(voiceNotes).where(and(eq(voiceNotes.requestId, requestId), eq(voiceNotes.kind, 'reply')));
}

/** The copy of a request's note that earlier reports of it cite, if any. */
export async function reportedCopyOf(db: DatabaseExecutor, requestId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: abuseReportNotes.voiceNoteId })
    .from(abuseReportNotes)
    .innerJoin(abuseReports, eq(abuseReports.id, abuseReportNotes.reportId))
    .where(eq(abuseReports.requestId, requestId))
    .limit(1);
  return row?.id;
}

export async function citeInReport(db: DatabaseExecutor, reportId: string, voiceNoteId: string): Promise<void> {
  await db.insert(abuseReportNotes).values({ reportId, voiceNoteId });
}

/**
 * Drafts never sent (older than `draftHours`), the notes and replies of requests older than the retention period,
 * and the copies abuse reports kept once no report cites them.
 */
export function pruneVoiceNotes(draftHours: number, retentionDays: number) {
  return sql`delete from ${voiceNotes}
    where (${voiceNotes.kind} = 'request' and ${voiceNotes.requestId} is null
           and ${voiceNotes.createdAt} < now() - make_interval(hours => ${draftHours}))
       or (${voiceNotes.kind} in ('request', 'reply')
           and ${voiceNotes.createdAt} < now() - make_interval(days => ${retentionDays}))
       or (${voiceNotes.kind} = 'report'
           and not exists (select 1 from ${abuseReportNotes}
                           where ${abuseReportNotes.voiceNoteId} = ${voiceNotes.id}))`;
}

/** The account's notes and the replies to its requests, oldest first, for its data export. */
export function voiceNotesOfAccount(db: DatabaseExecutor, userId: string): Promise<VoiceNoteRow[]> {
  return db.select().from(voiceNotes).where(eq(voiceNotes.userId, userId)).orderBy(voiceNotes.createdAt);
}
