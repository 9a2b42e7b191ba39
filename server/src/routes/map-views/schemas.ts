import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';

// A malformed id is a request that is not found, in the caller's language, as in the requests routes.
export { requestIdParams as mapViewParams } from '../requests/schemas';

export const mapViewBody = z.object({
  viewId: z
    .number({ message: inputMessage('mapViews.viewId') })
    .int({ message: inputMessage('mapViews.viewId') })
    .positive({ message: inputMessage('mapViews.viewId') })
    .optional()
    .describe('The opening this call continues (the map is still open); absent when the map has just been opened'),
});

export const mapViewResponse = envelope(
  z.object({
    viewId: z
      .number()
      .int()
      .nullable()
      .describe('The opening recorded, to send with the next call; null when the recipient does not share now'),
  }),
);

const isoTime = z.string().describe('ISO 8601');

/** What the recipient's page shows of the requester's looking at their position. */
export const mapViewsSeenSchema = z.object({
  lastSeenAt: isoTime.nullable().describe('The last moment the requester had the map open; null if never'),
  openedAt: z.array(isoTime).describe('When the requester opened the map in the last 24 hours, newest first'),
});

export const mapViewsSeenResponse = envelope(mapViewsSeenSchema);
