import type { VoiceMediaType } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import { countDailySend, nextSendDay } from '../requests/daily-send-counts';
import { requireSubscriber } from '../requests/subscriber-access';
import { checkVoiceAudio, type CheckedAudio } from './audio-check';
import { databaseAudioStore, type ByteRange, type VoiceAudioStore } from './audio-store';
import { VOICE_NOTE_MAX_BYTES, VOICE_NOTE_MAX_MS } from '../db/voice-note-limits';
import {
  attachDraft,
  citeInReport,
  deleteReplyOf,
  deleteVoiceNote,
  insertVoiceNote,
  ownedVoiceNote,
  reportedCopyOf,
  voiceNoteOfRequest,
  voiceNotesOfAccount,
  voiceNotesOfRequests,
  type VoiceNoteRow,
} from './voice-note-rows';

// The voice notes' rules: what a requester and a recipient may record, who may hear what, and for how long.

/** Notes an account may record in a day (UTC), sent or not: each is kept in the database until it goes. */
export const VOICE_NOTES_PER_DAY = 20;
/** Replies a recipient may record to one request in a day: each replaces the one before. */
export const VOICE_REPLIES_PER_DAY = 10;
/** A recorded note not sent with a request within this many hours is deleted. */
export const VOICE_DRAFT_HOURS = 24;

const say = messagesOf('voice');

/** Where the audio is kept: the database (see audio-store.ts). */
export const audioStore: VoiceAudioStore = databaseAudioStore;

/** A voice note as its requester sees it. */
export interface VoiceNoteView {
  id: string;
  durationMs: number;
  mediaType: VoiceMediaType;
  /** The requester's text beside the note; null for a reply. */
  text: string | null;
  recordedTime: string;
}

export function toVoiceNoteView(row: VoiceNoteRow): VoiceNoteView {
  return {
    id: row.id,
    durationMs: row.durationMs,
    mediaType: row.mediaType,
    text: row.text,
    recordedTime: row.createdAt.toISOString(),
  };
}

/** The upload as a voice note, or a 400/413 that says why not (nothing is stored). */
export async function checkedUpload(upload: Uint8Array): Promise<CheckedAudio> {
  const check = await checkVoiceAudio(upload);
  if (check.ok) return check.audio;
  switch (check.refusal) {
    case 'tooBig':
      throw new HttpError(413, say('tooBig', { megabytes: VOICE_NOTE_MAX_BYTES / (1024 * 1024) }));
    case 'tooLong':
      throw new HttpError(400, say('tooLong', { seconds: Math.floor(VOICE_NOTE_MAX_MS / 1000) }));
    default:
      throw new HttpError(400, say(check.refusal));
  }
}

function tooMany(key: 'tooMany' | 'tooManyReplies', limit: number): HttpError {
  const nextAllowedAt = nextSendDay();
  const seconds = Math.max(1, Math.ceil((nextAllowedAt.getTime() - Date.now()) / 1000));
  return new HttpError(429, say(key, { limit }), { 'retry-after': String(seconds) });
}

/** A subscriber's recording checked and kept as a draft, to send with their next request. */
export async function recordDraft(db: DatabaseExecutor, userId: string, upload: Uint8Array): Promise<VoiceNoteView> {
  await requireSubscriber(db, userId);
  return saveDraft(db, userId, await checkedUpload(upload));
}

/** Stores a requester's recorded note as a draft, counted against the account's notes of the day. */
async function saveDraft(db: DatabaseExecutor, userId: string, audio: CheckedAudio): Promise<VoiceNoteView> {
  return db.transaction(async (tx) => {
    const counted = await countDailySend(tx, `voice:account:${userId}`, VOICE_NOTES_PER_DAY);
    if (!counted.counted) throw tooMany('tooMany', VOICE_NOTES_PER_DAY);
    const row = await insertVoiceNote(tx, {
      userId,
      kind: 'request',
      mediaType: audio.mediaType,
      durationMs: audio.durationMs,
      byteSize: audio.bytes.length,
    });
    await audioStore.save(tx, row.id, audio.bytes);
    return toVoiceNoteView(row);
  });
}

/** Removes a draft of the account's own (re-recorded, or removed before sending); a sent note stays with its request. */
export async function removeDraft(db: DatabaseExecutor, userId: string, id: string): Promise<void> {
  const row = await ownedVoiceNote(db, userId, id);
  if (!row || row.kind !== 'request') throw new HttpError(404, say('notFound'));
  if (row.requestId) throw new HttpError(409, say('alreadySent'));
  await deleteVoiceNote(db, id);
}

/**
 * Sends the account's draft with a new request, in the transaction that creates it: a draft that is not the
 * account's, or already sent, refuses the request (400) and the transaction rolls back.
 */
export async function attachVoiceNote(
  tx: DatabaseExecutor,
  userId: string,
  requestId: string,
  voiceNote: { id: string; text?: string | undefined },
): Promise<void> {
  const text = voiceNote.text?.trim() || null;
  if (!(await attachDraft(tx, userId, voiceNote.id, requestId, text))) {
    throw new HttpError(400, say('draftNotFound'));
  }
}

/** The account's note or reply and its audio (or the range asked for); 404 for anyone else's. */
export async function ownedAudio(
  db: DatabaseExecutor,
  userId: string,
  id: string,
  range: (size: number) => ByteRange | undefined,
): Promise<ServedAudio> {
  const row = await ownedVoiceNote(db, userId, id);
  if (!row) throw new HttpError(404, say('notFound'));
  return servedAudio(db, row, range);
}

/** A note's audio as served: its type, whole size, and the bytes of the range asked for (or all of them). */
export interface ServedAudio {
  id: string;
  mediaType: string;
  size: number;
  range: ByteRange | undefined;
  bytes: Buffer;
}

export async function servedAudio(
  db: DatabaseExecutor,
  row: VoiceNoteRow,
  range: (size: number) => ByteRange | undefined,
): Promise<ServedAudio> {
  const asked = range(row.byteSize);
  const bytes = await audioStore.read(db, row.id, asked);
  if (!bytes) throw new HttpError(404, say('notFound'));
  return { id: row.id, mediaType: row.mediaType, size: row.byteSize, range: asked, bytes };
}

/** The note sent with a request, for its recipient; 404 when it has none. */
export async function requestVoiceNote(db: DatabaseExecutor, requestId: string): Promise<VoiceNoteRow> {
  const row = await voiceNoteOfRequest(db, requestId, 'request');
  if (!row) throw new HttpError(404, say('notFound'));
  return row;
}

/** The recipient's reply to a request; 404 when there is none. */
export async function requestVoiceReply(db: DatabaseExecutor, requestId: string): Promise<VoiceNoteRow> {
  const row = await voiceNoteOfRequest(db, requestId, 'reply');
  if (!row) throw new HttpError(404, say('noReply'));
  return row;
}

/**
 * Stores the recipient's reply to a request (the caller checked that they share), replacing the one before; at
 * most VOICE_REPLIES_PER_DAY a day per request. It belongs to the requester's account, like everything shared.
 */
export async function saveReply(
  tx: DatabaseExecutor,
  request: { id: string; userId: string },
  audio: CheckedAudio,
): Promise<VoiceNoteRow> {
  const counted = await countDailySend(tx, `voice:reply:${request.id}`, VOICE_REPLIES_PER_DAY);
  if (!counted.counted) throw tooMany('tooManyReplies', VOICE_REPLIES_PER_DAY);
  await deleteReplyOf(tx, request.id);
  const row = await insertVoiceNote(tx, {
    userId: request.userId,
    requestId: request.id,
    kind: 'reply',
    mediaType: audio.mediaType,
    durationMs: audio.durationMs,
    byteSize: audio.bytes.length,
  });
  await audioStore.save(tx, row.id, audio.bytes);
  return row;
}

/** Stop and erase: the recipient's reply goes with everything else they shared. */
export const eraseVoiceReply = deleteReplyOf;

/**
 * An abuse report keeps a copy of the note the recipient heard (it outlives the request and the account): one copy
 * per note, which every report of the request cites, so reporting a link again stores no audio again.
 */
export async function keepNoteWithReport(tx: DatabaseExecutor, requestId: string, reportId: string): Promise<void> {
  const kept = await reportedCopyOf(tx, requestId);
  if (kept) {
    await citeInReport(tx, reportId, kept);
    return;
  }
  const note = await voiceNoteOfRequest(tx, requestId, 'request');
  if (!note) return;
  const copy = await insertVoiceNote(tx, {
    kind: 'report',
    mediaType: note.mediaType,
    durationMs: note.durationMs,
    byteSize: note.byteSize,
    text: note.text,
  });
  await audioStore.copy(tx, note.id, copy.id);
  await citeInReport(tx, reportId, copy.id);
}

/** The note and the reply of each request given, for the requester's views. */
export async function voiceNotesByRequest(
  db: DatabaseExecutor,
  requestIds: string[],
): Promise<Map<string, { note: VoiceNoteView | null; reply: VoiceNoteView | null }>> {
  const found = new Map<string, { note: VoiceNoteView | null; reply: VoiceNoteView | null }>();
  for (const row of await voiceNotesOfRequests(db, requestIds)) {
    const entry = found.get(row.requestId!) ?? { note: null, reply: null };
    if (row.kind === 'reply') entry.reply = toVoiceNoteView(row);
    else entry.note = toVoiceNoteView(row);
    found.set(row.requestId!, entry);
  }
  return found;
}

const EXTENSIONS: Record<VoiceMediaType, string> = {
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'audio/mpeg': 'mp3',
};

/** A note in the account's data export: what the export's document says of it, and its audio file's name. */
export interface ExportedVoiceNote {
  id: string;
  file: string;
  kind: 'request' | 'reply';
  requestId: string | null;
  durationMs: number;
  mediaType: VoiceMediaType;
  text: string | null;
  recordedAt: string;
}

/** The account's notes and the replies to its requests, each named for its file in the export. */
export async function exportedVoiceNotes(db: DatabaseExecutor, userId: string): Promise<ExportedVoiceNote[]> {
  return (await voiceNotesOfAccount(db, userId)).map((row) => ({
    id: row.id,
    file: `voice-notes/${row.createdAt.toISOString().slice(0, 10)}-${row.kind}-${row.id}.${EXTENSIONS[row.mediaType]}`,
    kind: row.kind === 'reply' ? 'reply' : 'request',
    requestId: row.requestId,
    durationMs: row.durationMs,
    mediaType: row.mediaType,
    text: row.text,
    recordedAt: row.createdAt.toISOString(),
  }));
}
