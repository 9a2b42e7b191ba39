import { PassThrough, type Readable } from 'node:stream';
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { DatabaseExecutor } from '../../db/open-database';
import { audioStore, type ExportedVoiceNote } from '../../voice/voice-notes';

/**
 * The data export as a ZIP: the document (kabari-my-data.json) and each voice message as its own audio file, stored
 * as they are (audio does not compress). Streamed one note at a time, so an account with many notes never sits in
 * memory whole.
 */
export function exportArchive(db: DatabaseExecutor, document: { voiceNotes: ExportedVoiceNote[] }): Readable {
  const archive = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      archive.destroy(error);
      return;
    }
    archive.write(chunk);
    if (final) archive.end();
  });
  const json = new ZipDeflate('kabari-my-data.json', { level: 6 });
  zip.add(json);
  json.push(strToU8(JSON.stringify(document, null, 2)), true);
  void (async () => {
    for (const note of document.voiceNotes) {
      const audio = await audioStore.read(db, note.id);
      // A note deleted since the document was made (its request deleted meanwhile) is left out.
      if (!audio) continue;
      const entry = new ZipPassThrough(note.file);
      zip.add(entry);
      entry.push(audio, true);
    }
    zip.end();
  })().catch((error: unknown) => archive.destroy(error as Error));
  return archive;
}
