import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses, ok, refusalEnvelope } from '../../lib/envelope';
import { ownedAudio, recordDraft, removeDraft, VOICE_NOTES_PER_DAY } from '../../voice/voice-notes';
import { acceptAudioBodies, askedRange, sendAudio } from './audio-http';
import {
  audioDescription,
  audioUpload,
  audioUploadTypes,
  removedResponse,
  voiceNoteIdParams,
  voiceNoteResponse,
} from './schemas';

/**
 * The requester's voice notes: recording one to send with a request, removing it before sending, and hearing a
 * note or a reply of their own. HTTP only; the rules are in voice/voice-notes.ts.
 */
const voiceNoteRoutes: FastifyPluginAsyncZod = async (app) => {
  acceptAudioBodies(app);
  const security = [{ token: [] }];
  const tags = ['voice-notes'];
  const responses = { 401: errorEnvelope, 404: errorEnvelope, ...errorResponses };

  app.post(
    '/api/v1/voice-notes',
    {
      preHandler: app.auth.requireSession,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Record a voice note to send with a request (subscribers only)',
        description:
          'The body is the audio itself. Its format and duration are read from the bytes: WebM, Ogg, MP4/M4A or ' +
          'MP3 with one audio track, at most 60 seconds and 1 MB (400 or 413 otherwise, nothing stored). Kept as ' +
          `a draft until sent with a request (voiceNote.id), deleted after a day otherwise; at most ` +
          `${VOICE_NOTES_PER_DAY} a day per account (429). 403 when the subscription has expired.`,
        security,
        consumes: audioUploadTypes,
        body: audioUpload,
        response: {
          200: voiceNoteResponse,
          ...responses,
          403: refusalEnvelope,
          413: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request) => ok({ voiceNote: await recordDraft(app.db, request.session!.user.id, request.body) }),
  );

  app.post(
    '/api/v1/voice-notes/:id/remove',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags,
        summary: 'Remove a recorded note not yet sent (re-recorded, or not wanted)',
        description: 'A note sent with a request stays with it (409); deleting the request deletes it.',
        security,
        params: voiceNoteIdParams,
        response: { 200: removedResponse, ...responses, 409: errorEnvelope },
      },
    },
    async (request) => {
      await removeDraft(app.db, request.session!.user.id, request.params.id);
      return ok({ removed: true as const });
    },
  );

  app.get(
    '/api/v1/voice-notes/:id/audio',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags,
        summary: "Hear a note of one's own: a recorded or sent note, or a recipient's reply to one's request",
        description: `${audioDescription} Anyone else's note: 404.`,
        security,
        params: voiceNoteIdParams,
        response: { ...responses, 416: errorEnvelope },
      },
    },
    async (request, reply) =>
      sendAudio(reply, await ownedAudio(app.db, request.session!.user.id, request.params.id, askedRange(request))),
  );
};

export default voiceNoteRoutes;
