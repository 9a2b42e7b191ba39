import { z } from 'zod';

// An event id as the browser sends it back: request_events ids are positive bigints.
const eventId = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, 'expected the id of an event received earlier')
  .transform(Number);

/** Headers are kept whole (the session's Authorization and cookie are read after validation). */
export const liveEventsHeaders = z.looseObject({
  'last-event-id': eventId.optional().describe('Resume after this event (the browser sends it when it reconnects)'),
});

export const liveEventsQuery = z.object({
  lastEventId: eventId
    .optional()
    .describe('Resume after this event, for clients that cannot send the Last-Event-ID header'),
});

export const liveEventsStream = z
  .string()
  .describe(
    'text/event-stream. Events: `ready` (first on a new stream, with the newest event id: reload what is shown, ' +
      'since the stream opened), `request` (a LocationRequest), `position` ({requestId, position}), `withdrawn` ' +
      '({requestId}), `resync` (too much was missed: reload the list). Each has its id; comment lines are heartbeats.',
  );
