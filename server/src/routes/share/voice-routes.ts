import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import { VOICE_REPLIES_PER_DAY } from '../../voice/voice-notes';
import { acceptAudioBodies, askedRange, sendAudio } from '../voice-notes/audio-http';
import { audioDescription, audioUpload, audioUploadTypes } from '../voice-notes/schemas';
import { tokenParams, voiceReplyResponse } from './schemas';
import { replyByVoice, voiceNoteForRecipient, voiceReplyForRecipient } from '../../sharing/recipient-voice';

/**
 * The recipient's voice routes, inside the share routes (their token throttle applies): the requester's note, and
 * a reply by voice while sharing. HTTP only; the rules are in sharing/recipient-voice.ts.
 */
const shareVoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  acceptAudioBodies(app);
  const tags = ['share'];
  const responses = { ...errorResponses, 404: errorEnvelope, 409: errorEnvelope };

  app.get(
    '/api/v1/share/links/:token/voice-note',
    {
      schema: {
        tags,
        summary: "The requester's voice note, for the link's recipient. Playing it records nothing.",
        description: `${audioDescription} While the link is open, shared, stopped or declined (409 otherwise).`,
        params: tokenParams,
        response: { ...responses, 416: errorEnvelope },
      },
    },
    async (request, reply) =>
      sendAudio(reply, await voiceNoteForRecipient(app.db, request.params.token, askedRange(request))),
  );

  app.post(
    '/api/v1/share/links/:token/voice-reply',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Reply by voice while sharing: the requester hears it beside the positions',
        description:
          'The body is the audio itself, checked like a requester’s note (at most 60 seconds and 1 MB). Only while ' +
          `sharing (409); a new reply replaces the one before, at most ${VOICE_REPLIES_PER_DAY} a day (429). ` +
          'Stop and erase erases it.',
        params: tokenParams,
        consumes: audioUploadTypes,
        body: audioUpload,
        response: { 200: voiceReplyResponse, ...responses, 413: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request) => ok({ voiceReply: await replyByVoice(app.db, request.params.token, request.body) }),
  );

  app.get(
    '/api/v1/share/links/:token/voice-reply',
    {
      schema: {
        tags,
        summary: "The recipient's own voice reply, while sharing or stopped",
        description: audioDescription,
        params: tokenParams,
        response: { ...responses, 416: errorEnvelope },
      },
    },
    async (request, reply) =>
      sendAudio(reply, await voiceReplyForRecipient(app.db, request.params.token, askedRange(request))),
  );
};

export default shareVoiceRoutes;
