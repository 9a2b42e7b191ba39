import type * as Mediabunny from 'mediabunny';
import type { VoiceMediaType } from '../db/column-values';
import { VOICE_NOTE_MAX_BYTES, VOICE_NOTE_MAX_MS } from '../db/voice-note-limits';

/** Why an upload is not a voice note Kabari keeps. */
export type VoiceRefusal = 'empty' | 'tooBig' | 'notAudio' | 'tooLong';

/** A voice note as stored: rewritten into its own container, with the duration read from its packets. */
export interface CheckedAudio {
  mediaType: VoiceMediaType;
  durationMs: number;
  bytes: Buffer;
}

export type AudioCheck = { ok: true; audio: CheckedAudio } | { ok: false; refusal: VoiceRefusal };

interface Container {
  format: Mediabunny.InputFormat;
  mediaType: VoiceMediaType;
  output: () => Mediabunny.OutputFormat;
}

interface LoadedMediabunny {
  library: typeof Mediabunny;
  containers: Container[];
}

let mediabunny: LoadedMediabunny | undefined;

/**
 * mediabunny and the containers taken: each container, the type it is served as, and how it is written back.
 * Loaded with the first voice note: the library is 1.5 MB of code to parse, and most servers (and most server test
 * files) never see a voice note.
 */
function loadMediabunny(): LoadedMediabunny {
  if (mediabunny) return mediabunny;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
  const library = require('mediabunny') as typeof Mediabunny;
  const containers: Container[] = [
    { format: library.WEBM, mediaType: 'audio/webm', output: () => new library.WebMOutputFormat() },
    { format: library.OGG, mediaType: 'audio/ogg', output: () => new library.OggOutputFormat() },
    // Written with the index first, so that a player knows the duration before the rest arrives.
    {
      format: library.MP4,
      mediaType: 'audio/mp4',
      output: () => new library.Mp4OutputFormat({ fastStart: 'in-memory' }),
    },
    { format: library.MP3, mediaType: 'audio/mpeg', output: () => new library.Mp3OutputFormat() },
  ];
  mediabunny = { library, containers };
  return mediabunny;
}

// Speech codecs of the containers above: anything else in them is not what a recorder or a phone makes.
const AUDIO_CODECS = new Set(['opus', 'vorbis', 'aac', 'mp3']);

/**
 * Reads an upload as a voice note, deciding everything from its bytes (never a name or a declared type): one of the
 * containers taken, exactly one audio track in a speech codec and nothing else, at most VOICE_NOTE_MAX_MS long
 * measured from its packets (a browser's WebM recording says no duration), at most VOICE_NOTE_MAX_BYTES. What is
 * kept is the audio written again into the same container without decoding it: no trailing bytes, tags or pictures
 * survive, and the rewritten WebM and MP4 state their duration, so the recipient's player shows it before playing.
 */
export async function checkVoiceAudio(upload: Uint8Array): Promise<AudioCheck> {
  if (upload.length === 0) return { ok: false, refusal: 'empty' };
  if (upload.length > VOICE_NOTE_MAX_BYTES) return { ok: false, refusal: 'tooBig' };
  const { library, containers } = loadMediabunny();
  const input = new library.Input({
    source: new library.BufferSource(upload),
    formats: containers.map((entry) => entry.format),
  });
  try {
    const format = await input.getFormat();
    const container = containers.find((entry) => entry.format === format);
    if (!container) return { ok: false, refusal: 'notAudio' };
    const tracks = await input.getTracks();
    const [track] = tracks;
    if (tracks.length !== 1 || !track?.isAudioTrack() || !AUDIO_CODECS.has(track.codec ?? '')) {
      return { ok: false, refusal: 'notAudio' };
    }
    const seconds = await input.computeDuration();
    if (!Number.isFinite(seconds) || seconds <= 0) return { ok: false, refusal: 'notAudio' };
    const durationMs = Math.max(1, Math.round(seconds * 1000));
    if (durationMs > VOICE_NOTE_MAX_MS) return { ok: false, refusal: 'tooLong' };
    const bytes = await rewrite(library, input, container.output());
    if (!bytes) return { ok: false, refusal: 'notAudio' };
    if (bytes.length > VOICE_NOTE_MAX_BYTES) return { ok: false, refusal: 'tooBig' };
    return { ok: true, audio: { mediaType: container.mediaType, durationMs, bytes } };
  } catch {
    // A broken or hostile file: whatever the parser tripped on, it is not a voice note.
    return { ok: false, refusal: 'notAudio' };
  } finally {
    input.dispose();
  }
}

/** The input's packets in a fresh container of the same kind, copied as they are; undefined if any were dropped. */
async function rewrite(
  library: typeof Mediabunny,
  input: Mediabunny.Input,
  format: Mediabunny.OutputFormat,
): Promise<Buffer | undefined> {
  const output = new library.Output({ format, target: new library.BufferTarget() });
  // No tags: a file's own metadata (names, pictures) is not part of a voice note.
  const conversion = await library.Conversion.init({ input, output, tags: {}, showWarnings: false });
  if (!conversion.isValid || conversion.discardedTracks.length > 0) return undefined;
  await conversion.execute();
  const { buffer } = output.target;
  return buffer ? Buffer.from(buffer) : undefined;
}
