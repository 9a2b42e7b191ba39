import type { ServerResponse } from 'node:http';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import type { LiveEventHub } from './live-event-hub';

const say = messagesOf('liveEvents');

/**
 * A signed-in requester's live events, streamed on the response `open` gives: the events after `afterId` first, then
 * new ones. Past the streams one user may hold on this instance it is refused (429) before anything is opened, so
 * the refusal is still an ordinary answer.
 */
export async function streamOwnEvents(
  hub: Pick<LiveEventHub, 'canWatch' | 'watch'>,
  watcher: { userId: string; sessionId: string; afterId: number | undefined },
  open: () => ServerResponse,
): Promise<void> {
  if (!hub.canWatch(watcher.userId)) throw new HttpError(429, say('tooManyStreams'));
  await hub.watch(watcher.userId, watcher.sessionId, open(), watcher.afterId);
}
