import { Readable } from 'node:stream';
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { DatabaseExecutor } from '../db/open-database';
import { audioStore, type ExportedVoiceNote } from '../voice/voice-notes';

/** How long one export may take, and so how long a client that stops reading holds the server's resources. */
export interface ExportLimits {
  deadlineMs: number;
}

// 200 notes of 1 MB on a slow mobile connection (about 2 Mbit/s) take some 15 minutes.
export const DEFAULT_EXPORT_LIMITS: ExportLimits = { deadlineMs: 20 * 60_000 };

// What the server makes ahead of the client: little more than the note being sent.
const AHEAD_BYTES = 64 * 1024;

/** The export was ended at its deadline: the download stops, and the account may ask for another. */
class ExportDeadlineError extends Error {
  constructor() {
    super('The data export took longer than its deadline and was ended');
  }
}

/**
 * The archive's bytes, made only as the client reads them: the document, then each note read from the store when
 * the one before has gone out. fflate calls back synchronously for these entries, so what it made is handed out
 * before the next note is read.
 */
async function* archiveChunks(
  db: DatabaseExecutor,
  document: { voiceNotes: ExportedVoiceNote[] },
  finished: () => Promise<void>,
): AsyncGenerator<Uint8Array> {
  const made: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else made.push(chunk);
  });
  const takeMade = () => {
    if (failure) throw failure;
    return made.splice(0);
  };
  try {
    const json = new ZipDeflate('kabari-my-data.json', { level: 6 });
    zip.add(json);
    json.push(strToU8(JSON.stringify(document, null, 2)), true);
    yield* takeMade();
    for (const note of document.voiceNotes) {
      const audio = await audioStore.read(db, note.id);
      // A note deleted since the document was made (its request deleted meanwhile) is left out.
      if (!audio) continue;
      const entry = new ZipPassThrough(note.file);
      zip.add(entry);
      entry.push(audio, true);
      yield* takeMade();
    }
    zip.end();
    yield* takeMade();
  } finally {
    // Before the last byte goes out: the account may export again as soon as this one has arrived.
    await finished();
  }
}

/**
 * The data export as a ZIP: the document (kabari-my-data.json) and each voice message as its own audio file, stored
 * as they are (audio does not compress). Made as the client reads it, one note at a time: a client that reads
 * nothing holds about one note, not the whole account. Ended at the deadline, whatever the client does; `finished`
 * runs once, however the export ends.
 */
export function exportArchive(
  db: DatabaseExecutor,
  document: { voiceNotes: ExportedVoiceNote[] },
  limits: ExportLimits,
  finished: () => Promise<void>,
): Readable {
  const archive = Readable.from(archiveChunks(db, document, finished), {
    objectMode: false,
    highWaterMark: AHEAD_BYTES,
  });
  const deadline = setTimeout(() => archive.destroy(new ExportDeadlineError()), limits.deadlineMs);
  archive.once('close', () => {
    clearTimeout(deadline);
    // Also when the stream ends before it was first read (the generator then never runs its own finally).
    void finished();
  });
  return archive;
}
