import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import { HttpError } from '../../lib/envelope';
import { messagesOf } from '../../lib/messages';
import type { ByteRange } from '../../voice/audio-store';
import { VOICE_NOTE_MAX_BYTES } from '../../db/voice-note-limits';
import type { ServedAudio } from '../../voice/voice-notes';

const say = messagesOf('voice');

/**
 * Takes request bodies in this scope (an upload route's plugin) as raw bytes, whatever their Content-Type says: the
 * format is read from the bytes themselves. A body over the limit is refused with Kabari's own words.
 */
export function acceptAudioBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: VOICE_NOTE_MAX_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  // Thrown on: the app's error handler answers it in the caller's language.
  scope.setErrorHandler((error: Error & { code?: string }) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new HttpError(413, say('tooBig', { megabytes: VOICE_NOTE_MAX_BYTES / (1024 * 1024) }));
    }
    throw error;
  });
}

/**
 * The range a player asks for (Safari asks for one before it plays anything): one range of the note, undefined for
 * the whole note (no Range header, one it cannot read, or several ranges: the whole note answers those); 416 when
 * it lies outside the note.
 */
export function askedRange(request: FastifyRequest): (size: number) => ByteRange | undefined {
  const header = request.headers.range;
  return (size) => {
    if (!header) return undefined;
    const ranges = parseRange(size, header, { combine: true });
    if (ranges === -1) {
      throw new HttpError(416, say('rangeNotSatisfiable'), { 'content-range': `bytes */${size}` });
    }
    if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
    return { start: ranges[0]!.start, end: ranges[0]!.end };
  };
}

/**
 * A note's audio as a player wants it: its own type, its length, ranges, and kept private (only the two parties
 * may hear it; a shared cache keeps nothing, and no other site may embed it).
 */
export function sendAudio(reply: FastifyReply, audio: ServedAudio): FastifyReply {
  reply
    .header('content-type', audio.mediaType)
    .header('content-length', String(audio.bytes.length))
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-cache')
    .header('etag', `"${audio.id}"`)
    .header('content-disposition', 'inline')
    .header('cross-origin-resource-policy', 'same-origin');
  if (audio.range) {
    reply.code(206).header('content-range', `bytes ${audio.range.start}-${audio.range.end}/${audio.size}`);
  }
  return reply.send(audio.bytes);
}
