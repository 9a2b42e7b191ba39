import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';
import { VOICE_MEDIA_TYPES } from '../../db/column-values';
import { VOICE_NOTE_TEXT_MAX_LENGTH } from '../../db/voice-note-limits';
import { findLure } from '@kabari/rules/lure-check';

export const voiceNoteIdParams = z.object({ id: z.uuid({ message: inputMessage('voice.notFound') }) });

/** The raw bytes of a recording or an audio file: its format is read from them, whatever type the upload says. */
export const audioUpload = z
  .custom<Buffer>((value) => Buffer.isBuffer(value), { message: inputMessage('voice.notAudio') })
  .meta({
    type: 'string',
    format: 'binary',
    description: 'The audio file itself (WebM, Ogg, MP4/M4A or MP3), as the request body, of any Content-Type',
  });

/** The Content-Types the API document lists for an upload (any other is taken as well: the bytes decide). */
export const audioUploadTypes = ['audio/webm', 'audio/ogg', 'audio/mp4', 'audio/mpeg', 'application/octet-stream'];

export const voiceNote = z.object({
  id: z.string(),
  durationMs: z.number().int().describe('Read from the audio itself'),
  mediaType: z.enum(VOICE_MEDIA_TYPES).describe('Read from the bytes'),
  text: z.string().nullable().describe("The requester's text beside the note (null for a reply, or none)"),
  recordedTime: z.string(),
});

export const voiceNoteResponse = envelope(z.object({ voiceNote }));
export const removedResponse = envelope(z.object({ removed: z.literal(true) }));

/** A recorded note sent with a new request (SMS, email or link), and its optional text. */
export const voiceNoteField = z
  .object({
    id: z.uuid({ message: inputMessage('voice.draftNotFound') }),
    text: z
      .string()
      .max(VOICE_NOTE_TEXT_MAX_LENGTH, inputMessage('voice.textTooLong', { max: VOICE_NOTE_TEXT_MAX_LENGTH }))
      // The recipient reads it on the consent page, on Kabari's own address: no link or number to go elsewhere.
      .superRefine((text, context) => {
        const lure = findLure(text);
        if (lure?.kind === 'link') context.addIssue({ code: 'custom', message: inputMessage('voice.textWithLink') });
        if (lure?.kind === 'phone') context.addIssue({ code: 'custom', message: inputMessage('voice.textWithPhone') });
      })
      .optional(),
  })
  .optional()
  .describe('A voice note recorded with POST /api/v1/voice-notes, sent with this request, and its text');

export const audioDescription =
  'The audio (200), or the bytes asked for with Range (206, one range; 416 when outside it). Cache-Control ' +
  'private; served to no other site (Cross-Origin-Resource-Policy same-origin).';
