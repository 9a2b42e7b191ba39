import {
  ALL_FORMATS,
  BufferSource,
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedVideoPacketSource,
  EncodedPacket,
  Input,
  Mp4OutputFormat,
  OggOutputFormat,
  Output,
  WebMOutputFormat,
} from 'mediabunny';

// Voice notes for the tests, made in memory: Opus packets of silence (20 ms each, the smallest valid Opus frame)
// written into a real container by the same library the server reads them with.

const SILENT_OPUS_FRAME = new Uint8Array([0xf8, 0xff, 0xfe]);
const FRAME_SECONDS = 0.02;
// The Opus identification header (RFC 7845): one channel, no pre-skip, 48 kHz, no gain, mapping family 0.
const OPUS_HEAD = new Uint8Array([...new TextEncoder().encode('OpusHead'), 1, 1, 0, 0, 0x80, 0xbb, 0, 0, 0, 0, 0]);

export type VoiceContainer = 'webm' | 'ogg' | 'mp4';

/** A voice note of `seconds` of silence in `container`; `withVideo` adds a video track (a film, not a voice note). */
export async function voiceAudio(
  seconds: number,
  container: VoiceContainer = 'webm',
  { withVideo = false } = {},
): Promise<Buffer> {
  const format =
    container === 'webm'
      ? new WebMOutputFormat()
      : container === 'ogg'
        ? new OggOutputFormat()
        : new Mp4OutputFormat({ fastStart: 'in-memory' });
  const output = new Output({ format, target: new BufferTarget() });
  const source = new EncodedAudioPacketSource('opus');
  output.addAudioTrack(source);
  const video = withVideo ? new EncodedVideoPacketSource('vp8') : undefined;
  if (video) output.addVideoTrack(video);
  await output.start();
  // One frame: a VP8 key frame's header (its start code and a 16 × 16 size) is all a container reader looks at.
  await video?.add(
    new EncodedPacket(new Uint8Array([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 16, 0, 16, 0]), 'key', 0, seconds),
    { decoderConfig: { codec: 'vp8', codedWidth: 16, codedHeight: 16 } },
  );
  const frames = Math.round(seconds / FRAME_SECONDS);
  for (let index = 0; index < frames; index += 1) {
    const packet = new EncodedPacket(SILENT_OPUS_FRAME, 'key', index * FRAME_SECONDS, FRAME_SECONDS);
    await source.add(
      packet,
      index === 0
        ? { decoderConfig: { codec: 'opus', numberOfChannels: 1, sampleRate: 48_000, description: OPUS_HEAD } }
        : undefined,
    );
  }
  await output.finalize();
  return Buffer.from(output.target.buffer!);
}

/** The kinds of track a file holds, as a reader sees them (that a test's film really is one). */
export async function trackKinds(file: Buffer): Promise<string[]> {
  const input = new Input({ source: new BufferSource(file), formats: ALL_FORMATS });
  try {
    return (await input.getTracks()).map((track) => track.type).sort();
  } finally {
    input.dispose();
  }
}
