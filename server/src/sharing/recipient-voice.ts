import type { Database, DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import { publishRequestChange as publishView } from '../requests/location-request-view';
import type { ByteRange } from '../voice/audio-store';
import {
  checkedUpload,
  requestVoiceNote,
  requestVoiceReply,
  saveReply,
  servedAudio,
  type ServedAudio,
} from '../voice/voice-notes';
import { findRequest, linkState, noteHeardIn, notSharing } from './link-consent';

// The recipient's side of voice notes: hearing the requester's note, and replying by voice while sharing.

const say = messagesOf('voice');

/** The requester's note, for the link's recipient; playing it records nothing about them. */
export async function voiceNoteForRecipient(
  db: DatabaseExecutor,
  token: string,
  range: (size: number) => ByteRange | undefined,
): Promise<ServedAudio> {
  const request = await findRequest(db, token);
  if (!noteHeardIn(request)) throw notSharing(linkState(request));
  return servedAudio(db, await requestVoiceNote(db, request.id), range);
}

/** The recipient's own reply, while it is theirs to hear (sharing, or stopped: Stop and erase erased it). */
export async function voiceReplyForRecipient(
  db: DatabaseExecutor,
  token: string,
  range: (size: number) => ByteRange | undefined,
): Promise<ServedAudio> {
  const request = await findRequest(db, token);
  const state = linkState(request);
  if (state !== 'sharing' && state !== 'stopped') throw notSharing(state);
  return servedAudio(db, await requestVoiceReply(db, request.id), range);
}

/**
 * A voice reply, only while the recipient shares (404 or 409 otherwise, asked before the upload is read as audio);
 * the upload is checked like a requester's note, replaces the reply before, and the requester sees it live.
 */
export async function replyByVoice(
  db: Database,
  token: string,
  upload: Uint8Array,
): Promise<{ durationMs: number; recordedTime: string }> {
  const before = await findRequest(db, token);
  if (linkState(before) !== 'sharing') throw new HttpError(409, say('replyNotSharing'));
  const audio = await checkedUpload(upload);
  return db.transaction(async (tx) => {
    const request = await findRequest(tx, token, true);
    if (linkState(request) !== 'sharing') throw new HttpError(409, say('replyNotSharing'));
    const reply = await saveReply(tx, request, audio);
    await publishView(tx, request.userId, request.id);
    return { durationMs: reply.durationMs, recordedTime: reply.createdAt.toISOString() };
  });
}
