import fp from 'fastify-plugin';
import { DEFAULT_LIVE_EVENT_OPTIONS, LiveEventHub, type LiveEventHubOptions } from '../live/live-event-hub';
import { REQUEST_EVENTS_CHANNEL } from '../live/request-events';
import { RequestListCache } from '../requests/request-list-cache';

declare module 'fastify' {
  interface FastifyInstance {
    liveEvents: LiveEventHub;
    /** Each requester's request history pages, forgotten on every instance when anything in them changes. */
    requestLists: RequestListCache;
  }
}

/**
 * Live events for requesters: LISTENs on the request events channel (on PostgreSQL every instance hears every
 * commit, whichever instance made it) and fans each event out to the open streams of its user on this instance.
 * The same channel says when a requester's history changed (`list:<user id>`), for the cache of their pages: on one
 * connection, that notice is heard before any event of the same commit reaches a browser (the hub reads the event
 * from the database first, or lets the connection's pending notices through before sending one it was given whole),
 * so a list reloaded on an event is never the cached one from before it.
 */
export default fp(
  async (app, options: { liveEvents?: Partial<LiveEventHubOptions> } = {}) => {
    const hub = new LiveEventHub(
      app.db,
      { error: (object, message) => app.log.error(object, message) },
      { ...DEFAULT_LIVE_EVENT_OPTIONS, ...options.liveEvents },
    );
    const lists = new RequestListCache();
    const stopListening = await app.dbClient.listen(REQUEST_EVENTS_CHANNEL, {
      onNotification: (payload) => {
        if (!lists.heard(payload)) hub.notify(payload);
      },
      // While no notice can arrive, a cached page could be stale (and the database may be down): read it afresh.
      onLost: () => lists.pause(),
      onReconnected: () => {
        lists.clear();
        hub.catchUp().catch((error: unknown) => app.log.error({ err: error }, 'Could not catch up on live events'));
      },
    });
    // A revoked session (signed out elsewhere, a new password, a deleted account) ends its streams at once, on
    // every instance: each hears the database's notice of the change.
    app.auth.onAccountChanged((userId) => hub.recheckSessions(userId));
    app.decorate('liveEvents', hub);
    app.decorate('requestLists', lists);
    // A requester's own write is seen by their next read on this instance at once, without waiting for the
    // database's notice.
    app.auth.onOwnWrite((userId) => lists.forgetUser(userId));
    // Open streams would hold the server's close forever: end them first (the browsers reconnect elsewhere).
    app.addHook('preClose', async () => {
      hub.close();
    });
    app.addHook('onClose', async () => {
      // The database may already be closed, which stops listening as well.
      await stopListening().catch(() => undefined);
    });
  },
  { name: 'live-events', dependencies: ['database', 'auth'] },
);
