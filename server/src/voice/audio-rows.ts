import { eq, sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { voiceNoteAudio } from '../db/schema/voice-notes';

// Voice notes' audio in the database, as rows: every query of the database's audio store (audio-store.ts).

export async function insertAudio(db: DatabaseExecutor, voiceNoteId: string, bytes: Buffer): Promise<void> {
  await db.insert(voiceNoteAudio).values({ voiceNoteId, bytes });
}

/** A note's whole audio; undefined when it has none. */
export async function audioBytes(db: DatabaseExecutor, voiceNoteId: string): Promise<Buffer | undefined> {
  const [row] = await db.select().from(voiceNoteAudio).where(eq(voiceNoteAudio.voiceNoteId, voiceNoteId));
  return row?.bytes;
}

/** `length` bytes of a note's audio from byte `from` (counted from 1, as substring does); undefined without audio. */
export async function audioPart(
  db: DatabaseExecutor,
  voiceNoteId: string,
  from: number,
  length: number,
): Promise<Buffer | Uint8Array | undefined> {
  // Only the bytes asked for leave the database.
  const [row] = await queryRows<{ part: Buffer | Uint8Array }>(
    db,
    sql`select substring(bytes from ${from} for ${length}) as part
        from voice_note_audio where voice_note_id = ${voiceNoteId}`,
  );
  return row?.part;
}

/** Gives `toId` a copy of the audio of `fromId`. */
export async function copyAudio(db: DatabaseExecutor, fromId: string, toId: string): Promise<void> {
  await db.execute(
    sql`insert into voice_note_audio (voice_note_id, bytes)
        select ${toId}, bytes from voice_note_audio where voice_note_id = ${fromId}`,
  );
}
