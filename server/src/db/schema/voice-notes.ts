import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { oneOf, VOICE_MEDIA_TYPES, VOICE_NOTE_KINDS } from '../column-values';
import { asBuffer } from '../../lib/bytes';
import { VOICE_NOTE_MAX_BYTES, VOICE_NOTE_MAX_MS } from '../voice-note-limits';
import { createdAt } from './columns';
import { users } from './accounts';
import { abuseReports, locationRequests } from './location-requests';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: asBuffer,
});

/**
 * A recorded voice note: the requester's, sent with a request (`request_id` null until the request is sent: a
 * draft, pruned after a day), the recipient's reply to a request, or the copy abuse reports keep of the note the
 * recipient heard (`report`: no account and no request, so it stays for the operator; one copy per note, cited by
 * each report of its link in abuse_report_notes, deleted once no report cites it). `user_id` is the requester's
 * account for the first two: deleting it deletes them. The format and the duration are the server's reading of the
 * bytes, never what the browser said.
 */
export const voiceNotes = pgTable(
  'voice_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id').references(() => locationRequests.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: VOICE_NOTE_KINDS }).notNull(),
    mediaType: text('media_type', { enum: VOICE_MEDIA_TYPES }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    byteSize: integer('byte_size').notNull(),
    // The requester's short text shown beside the player, for whoever cannot listen.
    text: text('text'),
    createdAt: createdAt(),
  },
  (table) => [
    // One note and one reply per request.
    uniqueIndex('voice_notes_request_kind_unique')
      .on(table.requestId, table.kind)
      .where(sql`${table.requestId} is not null`),
    index('voice_notes_user_created_idx').on(table.userId, table.createdAt),
    index('voice_notes_created_at_idx').on(table.createdAt),
    check('voice_notes_kind_check', oneOf(table.kind, VOICE_NOTE_KINDS)),
    check('voice_notes_media_type_check', oneOf(table.mediaType, VOICE_MEDIA_TYPES)),
    check(
      'voice_notes_duration_ms_check',
      sql`${table.durationMs} between 1 and ${sql.raw(String(VOICE_NOTE_MAX_MS))}`,
    ),
    check('voice_notes_byte_size_check', sql`${table.byteSize} between 1 and ${sql.raw(String(VOICE_NOTE_MAX_BYTES))}`),
    check(
      'voice_notes_report_copy_check',
      sql`${table.kind} <> 'report' or (${table.userId} is null and ${table.requestId} is null)`,
    ),
  ],
);

/**
 * The copy of a note an abuse report cites: every report of a link cites the one copy, so the audio is stored once
 * however many reports there are. Goes with its report; the copy goes once no report cites it (the retention job).
 */
export const abuseReportNotes = pgTable(
  'abuse_report_notes',
  {
    reportId: uuid('report_id')
      .primaryKey()
      .references(() => abuseReports.id, { onDelete: 'cascade' }),
    voiceNoteId: uuid('voice_note_id')
      .notNull()
      .references(() => voiceNotes.id, { onDelete: 'cascade' }),
  },
  (table) => [index('abuse_report_notes_voice_note_idx').on(table.voiceNoteId)],
);

/**
 * A voice note's audio, apart from its row, behind voice/audio-store.ts; at scale an S3-compatible store takes this
 * table's place (docs/architecture.md says how).
 */
export const voiceNoteAudio = pgTable('voice_note_audio', {
  voiceNoteId: uuid('voice_note_id')
    .primaryKey()
    .references(() => voiceNotes.id, { onDelete: 'cascade' }),
  bytes: bytea('bytes').notNull(),
});
