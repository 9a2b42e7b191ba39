import {
  BufferSource,
  BufferTarget,
  Conversion,
  Input,
  MP3,
  MP4,
  Mp3OutputFormat,
  Mp4OutputFormat,
  OGG,
  OggOutputFormat,
  Output,
  WEBM,
  WebMOutputFormat,
  type InputFormat,
  type OutputFormat,
} from 'mediabunny';
import type { VoiceMediaType } from '../db/column-values';
import { VOICE_NOTE_MAX_BYTES, VOICE_NOTE_MAX_MS } from './limits';

/** Why an upload is not a voice note Kabari keeps. */
export type VoiceRefusal = 'empty' | 'tooBig' | 'notAudio' | 'tooLong';

/** A voice note as stored: rewritten into its own container, with the duration read from its packets. */
export interface CheckedAudio {
  mediaType: VoiceMediaType;
  durationMs: number;
  bytes: Buffer;
}

export type AudioCheck = { ok: true; audio: CheckedAudio } | { ok: false; refusal: VoiceRefusal };

// Each container taken, the type it is served as, and how it is written back.
const CONTAINERS: { format: InputFormat; mediaType: VoiceMediaType; output: () => OutputFormat }[] = [
  { format: WEBM, mediaType: 'audio/webm', output: () => new WebMOutputFormat() },
  { format: OGG, mediaType: 'audio/ogg', output: () => new OggOutputFormat() },
  // Written with the index first, so that a player knows the duration before the rest arrives.
  { format: MP4, mediaType: 'audio/mp4', output: () => new Mp4OutputFormat({ fastStart: 'in-memory' }) },
  { format: MP3, mediaType: 'audio/mpeg', output: () => new Mp3OutputFormat() },
];

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
  const input = new Input({ source: new BufferSource(upload), formats: CONTAINERS.map((entry) => entry.format) });
  try {
    const format = await input.getFormat();
    const container = CONTAINERS.find((entry) => entry.format === format);
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
    const bytes = await rewrite(input, container.output());
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
async function rewrite(input: Input, format: OutputFormat): Promise<Buffer | undefined> {
  const output = new Output({ format, target: new BufferTarget() });
  // No tags: a file's own metadata (names, pictures) is not part of a voice note.
  const conversion = await Conversion.init({ input, output, tags: {}, showWarnings: false });
  if (!conversion.isValid || conversion.discardedTracks.length > 0) return undefined;
  await conversion.execute();
  const { buffer } = output.target;
  return buffer ? Buffer.from(buffer) : undefined;
}
