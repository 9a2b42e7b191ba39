import type { DatabaseExecutor } from '../db/open-database';
import { asBuffer } from '../lib/bytes';
import { audioBytes, audioPart, copyAudio, insertAudio } from './audio-rows';

/** Bytes `start` to `end` of a note's audio, both included (an HTTP range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where voice notes' audio lives, apart from their rows. Kabari keeps it in the database (voice_note_audio, deleted
 * with its note by the foreign key), which suits one instance or a few; an S3-compatible store can take its place
 * behind this interface (docs/architecture.md says how).
 */
export interface VoiceAudioStore {
  save(db: DatabaseExecutor, voiceNoteId: string, bytes: Buffer): Promise<void>;
  /** The audio, or the range of it asked for; undefined when the note has none. */
  read(db: DatabaseExecutor, voiceNoteId: string, range?: ByteRange): Promise<Buffer | undefined>;
  /** Gives `toId` the audio of `fromId` (the copy an abuse report keeps). */
  copy(db: DatabaseExecutor, fromId: string, toId: string): Promise<void>;
}

export const databaseAudioStore: VoiceAudioStore = {
  async save(db, voiceNoteId, bytes) {
    await insertAudio(db, voiceNoteId, bytes);
  },
  async read(db, voiceNoteId, range) {
    if (!range) return audioBytes(db, voiceNoteId);
    // Only the bytes asked for leave the database (substring counts from 1).
    const part = await audioPart(db, voiceNoteId, range.start + 1, range.end - range.start + 1);
    return part ? asBuffer(part) : undefined;
  },
  async copy(db, fromId, toId) {
    await copyAudio(db, fromId, toId);
  },
};
