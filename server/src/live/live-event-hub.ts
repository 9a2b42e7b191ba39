import type { ServerResponse } from 'node:http';
import type { Database } from '../db/open-database';
import { looksOf, type LookRecorder } from '../sharing/look-recorder';
import {
  eventsAfterOrRecent,
  eventsByIds,
  liveSessionIds,
  newestEventIdOf,
  userEventsAfter,
  type EventRow,
} from './live-event-rows';

/** A browser's open event stream. */
export interface LiveWatcher {
  readonly userId: string;
  /** The session the stream was opened with: when it ends (revoked, expired, account deleted), so does the stream. */
  readonly sessionId: string;
  readonly response: ServerResponse;
  /** While the missed events are replayed, live ones wait here so the order holds. */
  held: { id: number; frame: Buffer }[] | null;
  /**
   * The newest event id this stream has sent (or covered, with `ready` and `resync`). A user's ids arrive in
   * order, so anything at or below it is a repeat: a notification that reaches this instance after the replay
   * already sent its event.
   */
  sentUpTo: number;
  /** Reconnecting makes the browser sign in again: a revoked session does not keep listening for long. */
  readonly closeAt: number;
}

export interface LiveEventHubOptions {
  /** Open streams per user on one instance (tabs, devices). */
  maxWatchersPerUser: number;
  /** Missed events replayed on reconnect; beyond that the browser is told to reload its list (`resync`). */
  replayLimit: number;
  heartbeatMs: number;
  /** A stream ends after this long (with up to 20 % jitter); the browser reconnects and resumes. */
  maxAgeMs: number;
  /** A stream whose unsent output exceeds this is closed: the browser reconnects and resumes by its last id. */
  maxBufferedBytes: number;
  /** Rows catchUp reads per query after the LISTEN connection came back; it pages on until all are read. */
  catchUpPageSize: number;
  /** Open recipient pages per request on one instance (tabs of the same link). */
  maxWatchersPerLink: number;
}

export const DEFAULT_LIVE_EVENT_OPTIONS: LiveEventHubOptions = {
  maxWatchersPerUser: 10,
  replayLimit: 1000,
  heartbeatMs: 25_000,
  maxAgeMs: 15 * 60_000,
  maxBufferedBytes: 1024 * 1024,
  catchUpPageSize: 10_000,
  maxWatchersPerLink: 5,
};

export interface HubLog {
  error(object: unknown, message: string): void;
}

// How far back catchUp reads again after the LISTEN connection dropped: longer than a reconnect takes.
const CATCH_UP_OVERLAP_SECONDS = 120;

// A comment line: keeps proxies and the browser from timing out an idle stream. One buffer for every stream.
const HEARTBEAT = Buffer.from(':\n\n');
// The browser waits this long before reconnecting after the stream ends.
const PREAMBLE = Buffer.from('retry: 3000\n\n');
// What a recipient's page hears: only that its request changed, never what the requester's event carries (a
// position, the requester's view); the page asks for its link's state again. No id: the page asks afresh on
// every (re)connect, so nothing is to be resumed.
const LINK_CHANGED = Buffer.from('event: changed\ndata: {}\n\n');

/** A recipient's open page on one request: its stream ends, like a requester's, after about `maxAgeMs`. */
interface LinkWatcher {
  readonly response: ServerResponse;
  readonly closeAt: number;
  /** The request as this page was last told of it (unknown until the first event after it opened). */
  toldView: string | null;
}

/** One SSE frame. The payload is JSON text from jsonb, which never contains a raw line break. */
export function eventFrame(id: number, type: string, payloadJson: string): Buffer {
  return Buffer.from(`id: ${id}\nevent: ${type}\ndata: ${payloadJson}\n\n`);
}

/**
 * A position event as its notification carries it (storeLivePosition: the event's id, user, request and payload
 * text), so that it reaches its streams without being read back; undefined for anything else.
 */
function carriedPosition(payload: string): EventRow | undefined {
  let carried: unknown;
  try {
    carried = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof carried !== 'object' || carried === null) return undefined;
  const { id, userId, requestId, type, payload: text } = carried as Record<string, unknown>;
  if (!Number.isSafeInteger(id) || (id as number) <= 0 || type !== 'position') return undefined;
  if (typeof userId !== 'string' || typeof requestId !== 'string' || typeof text !== 'string') return undefined;
  // As eventColumns tells them for a position.
  return { id: id as number, userId, requestId, type, payload: text, showsPosition: true, recipientView: null };
}

/**
 * Fans request events out to the browsers of their user. Most notifications carry only an event id: the ids that
 * arrive together are read in one query. A live share's position carries its whole event, and goes out without
 * that read: a database round trip fewer on its way to the requester's map. Either way each event is serialised
 * once, and the same buffer is written to each of its user's streams.
 */
export class LiveEventHub {
  private readonly watchers = new Map<string, Set<LiveWatcher>>();
  /** Recipients' open pages, by request id: told when their request changes (ended by its requester, suspended). */
  private readonly linkWatchers = new Map<string, Set<LinkWatcher>>();
  /** The last event id delivered live to each watched user: one user's ids come in order, a repeat is skipped. */
  private readonly deliveredUpTo = new Map<string, number>();
  /** Announced events in the order heard: ids still to be read, and positions carried whole. */
  private pending: (number | EventRow)[] = [];
  private reading = false;
  /** Running catchUps: live reads wait for them. */
  private catchingUp = 0;
  private highestSeenId = 0;
  /** Users whose sessions are to be checked again (null: everyone's); one check runs at a time. */
  private sessionChecks = new Set<string | null>();
  private checkingSessions = false;
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;
  private size = 0;
  private readonly looks: LookRecorder;

  constructor(
    private readonly db: Database,
    private readonly log: HubLog,
    private readonly options: LiveEventHubOptions = DEFAULT_LIVE_EVENT_OPTIONS,
  ) {
    this.looks = looksOf(db);
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs);
    this.heartbeat.unref();
  }

  get watcherCount(): number {
    return this.size;
  }

  canWatch(userId: string): boolean {
    return !this.closed && (this.watchers.get(userId)?.size ?? 0) < this.options.maxWatchersPerUser;
  }

  canWatchLink(requestId: string): boolean {
    return !this.closed && (this.linkWatchers.get(requestId)?.size ?? 0) < this.options.maxWatchersPerLink;
  }

  /**
   * A recipient's page listening for a change to its request (its end by the requester, a suspension, an answer
   * from another tab): an event that changes what the page shows (its state, its live window) is told to it as
   * `changed`, once the event's transaction has committed, on whichever instance made it. The page's own positions
   * change none of it, and cost it nothing.
   */
  watchLink(requestId: string, response: ServerResponse): void {
    const watcher: LinkWatcher = {
      response,
      closeAt: Date.now() + this.options.maxAgeMs * (1 - Math.random() * 0.2),
      toldView: null,
    };
    let set = this.linkWatchers.get(requestId);
    if (!set) {
      set = new Set();
      this.linkWatchers.set(requestId, set);
    }
    set.add(watcher);
    this.size += 1;
    response.once('close', () => {
      if (!set.delete(watcher)) return;
      this.size -= 1;
      if (set.size === 0 && this.linkWatchers.get(requestId) === set) this.linkWatchers.delete(requestId);
    });
    response.write(PREAMBLE);
  }

  /**
   * Starts a stream: the preamble at once, then the events after `afterId` from request_events, then live ones.
   * Live events that arrive during the replay are held and sent after it, unless the replay already sent them.
   * A new stream (no `afterId`) starts with a `ready` event carrying the user's newest event id: a reconnect
   * resumes from there even if nothing else came, and the browser reloads what it showed, since an event may have
   * come between its loading the list and the stream opening.
   */
  async watch(
    userId: string,
    sessionId: string,
    response: ServerResponse,
    afterId: number | undefined,
  ): Promise<LiveWatcher> {
    const jitter = 1 - Math.random() * 0.2;
    const watcher: LiveWatcher = {
      userId,
      sessionId,
      response,
      held: [],
      sentUpTo: afterId ?? 0,
      closeAt: Date.now() + this.options.maxAgeMs * jitter,
    };
    let set = this.watchers.get(userId);
    if (!set) {
      set = new Set();
      this.watchers.set(userId, set);
    }
    set.add(watcher);
    this.size += 1;
    response.once('close', () => this.unwatch(watcher));
    response.write(PREAMBLE);
    if (afterId !== undefined) await this.replay(watcher, afterId);
    else await this.ready(watcher);
    return watcher;
  }

  private async newestEventId(userId: string): Promise<number> {
    return (await newestEventIdOf(this.db, userId)) ?? 0;
  }

  private async ready(watcher: LiveWatcher): Promise<void> {
    let newestId: number;
    try {
      newestId = await this.newestEventId(watcher.userId);
    } catch (error) {
      // Without its id the stream cannot promise a gapless resume: the browser retries.
      this.log.error({ err: error }, 'Could not start a live event stream');
      watcher.held = null;
      watcher.response.end();
      return;
    }
    // Always sent, even with no event yet (id 0): the browser waits for it.
    this.cover(watcher, newestId, eventFrame(newestId, 'ready', '{}'));
    const held = watcher.held ?? [];
    watcher.held = null;
    for (const event of held) this.send(watcher, event.id, event.frame);
  }

  /** A notification from the database: an event id, or a position's whole event (carriedPosition). */
  notify(payload: string): void {
    const carried = payload.startsWith('{') ? carriedPosition(payload) : undefined;
    const id = carried ? carried.id : Number(payload);
    if (!Number.isSafeInteger(id) || id <= 0) return;
    if (id > this.highestSeenId) this.highestSeenId = id;
    // Nobody listens here: nothing to read. A carried position whose user has no stream here reaches nobody (it
    // tells no recipient's page anything either).
    if (this.size === 0 || (carried && !this.watchers.has(carried.userId))) return;
    this.pending.push(carried ?? id);
    if (!this.reading && this.catchingUp === 0) void this.readPending();
  }

  /**
   * After the database connection came back: events committed meanwhile were not announced. Ids are in commit
   * order per user only, so another user's lower id may have committed after the highest id seen: the recent
   * past is read again too, and what a user's streams already had is skipped (`deliveredUpTo`). Read in pages by
   * id until a short page, so rows the streams already had can never crowd out unseen ones. Live reads wait
   * meanwhile: a newer id delivered first would make the older ones still to come look already sent.
   */
  async catchUp(): Promise<void> {
    const after = this.highestSeenId;
    if (this.size === 0) return;
    const pageSize = this.options.catchUpPageSize;
    this.catchingUp += 1;
    try {
      let cursor = 0;
      for (;;) {
        const rows = await eventsAfterOrRecent(this.db, cursor, after, CATCH_UP_OVERLAP_SECONDS, pageSize);
        await this.recordLooks(rows.filter((row) => this.willDeliver(row)));
        for (const row of rows) {
          if (row.id > this.highestSeenId) this.highestSeenId = row.id;
          this.deliver(row);
        }
        const last = rows.at(-1);
        if (rows.length < pageSize || !last) break;
        cursor = last.id;
      }
    } finally {
      this.catchingUp -= 1;
      if (this.catchingUp === 0 && this.pending.length > 0 && !this.reading) void this.readPending();
    }
  }

  /**
   * Something changed for this user (null: maybe for anyone, after announcements were missed): the streams whose
   * session is no longer live end now, rather than at their next reconnect. Announcements that arrive while a check
   * runs are gathered into the next one.
   */
  recheckSessions(userId: string | null): void {
    if (this.size === 0 || (userId !== null && !this.watchers.has(userId))) return;
    this.sessionChecks.add(userId);
    if (!this.checkingSessions) void this.checkSessions();
  }

  private async checkSessions(): Promise<void> {
    this.checkingSessions = true;
    try {
      while (this.sessionChecks.size > 0) {
        const users = this.sessionChecks.has(null)
          ? [...this.watchers.keys()]
          : [...this.sessionChecks].filter((userId): userId is string => userId !== null);
        this.sessionChecks = new Set();
        const watched = users.flatMap((userId) => [...(this.watchers.get(userId) ?? [])]);
        if (watched.length === 0) continue;
        let live: Set<string>;
        try {
          live = new Set(await liveSessionIds(this.db, [...new Set(watched.map((watcher) => watcher.sessionId))]));
        } catch (error) {
          // Unchecked streams still end at their next reconnect, which signs the browser in again.
          this.log.error({ err: error }, 'Could not check the sessions of live event streams');
          continue;
        }
        for (const watcher of watched) if (!live.has(watcher.sessionId)) watcher.response.end();
      }
    } finally {
      this.checkingSessions = false;
    }
  }

  /** Ends every stream (shutdown): the browsers reconnect to another instance and resume. */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const set of [...this.watchers.values(), ...this.linkWatchers.values()]) {
      for (const watcher of set) watcher.response.end();
    }
  }

  private unwatch(watcher: LiveWatcher): void {
    const set = this.watchers.get(watcher.userId);
    if (!set?.delete(watcher)) return;
    this.size -= 1;
    if (set.size === 0) {
      this.watchers.delete(watcher.userId);
      this.deliveredUpTo.delete(watcher.userId);
    }
  }

  private async readPending(): Promise<void> {
    this.reading = true;
    try {
      while (this.pending.length > 0 && this.catchingUp === 0) {
        const batch = this.pending;
        this.pending = [];
        const ids = batch.filter((event): event is number => typeof event === 'number');
        const carried = batch.filter((event): event is EventRow => typeof event !== 'number');
        let rows = carried;
        if (ids.length > 0) {
          try {
            // By id, as the read rows come: one user's ids are in commit order.
            rows = [...(await eventsByIds(this.db, ids)), ...carried].sort((a, b) => a.id - b.id);
          } catch (error) {
            this.log.error({ err: error }, 'Could not read live events');
          }
        } else {
          // The other notices of the same commit (a requester's history changed) are heard first, as when the
          // events are read back: a history reloaded on this event is never the cached one from before it.
          await new Promise((resolve) => setImmediate(resolve));
        }
        await this.recordLooks(rows.filter((row) => this.willDeliver(row)));
        for (const row of rows) this.deliver(row);
      }
    } finally {
      this.reading = false;
    }
  }

  /** Whether deliver() will write this event to streams of this instance. */
  private willDeliver(row: EventRow): boolean {
    return this.watchers.has(row.userId) && row.id > (this.deliveredUpTo.get(row.userId) ?? 0);
  }

  /**
   * A position written to a requester's stream is a look at its recipient, recorded before it is written. Recorded
   * here, where the event reaches a stream, not where it is published: the publishing instance cannot know whether
   * any browser of the requester is listening, on it or on another, and a requester with no stream open has not
   * looked. Every instance hears every event, but only those with a stream of its user record it; the rows of one
   * notification batch are one statement, and a request already recorded within the last minute costs nothing
   * (LookRecorder), so thousands of streams add about a statement per watched request a minute.
   */
  private async recordLooks(rows: EventRow[]): Promise<void> {
    const requestIds = rows.flatMap((row) => (row.showsPosition && row.requestId ? [row.requestId] : []));
    if (requestIds.length === 0) return;
    try {
      await this.looks.record(requestIds);
    } catch (error) {
      // Logged, and the position still goes out: holding it back would stall every stream here behind one write.
      this.log.error({ err: error }, 'Could not record the looks of live position events');
    }
  }

  private deliver(row: EventRow): void {
    this.tellLinks(row);
    const set = this.watchers.get(row.userId);
    if (!set) return;
    if (row.id <= (this.deliveredUpTo.get(row.userId) ?? 0)) return;
    this.deliveredUpTo.set(row.userId, row.id);
    const frame = eventFrame(row.id, row.type, row.payload);
    for (const watcher of set) {
      if (watcher.held) watcher.held.push({ id: row.id, frame });
      else this.send(watcher, row.id, frame);
    }
  }

  private tellLinks(row: EventRow): void {
    if (row.recipientView === null || !row.requestId) return;
    for (const watcher of this.linkWatchers.get(row.requestId) ?? []) {
      if (watcher.toldView === row.recipientView) continue;
      watcher.toldView = row.recipientView;
      this.write(watcher, LINK_CHANGED);
    }
  }

  /** Writes a `ready` or `resync` frame: everything up to `id` counts as sent. */
  private cover(watcher: LiveWatcher, id: number, frame: Buffer): void {
    watcher.sentUpTo = Math.max(watcher.sentUpTo, id);
    this.write(watcher, frame);
  }

  /** Writes an event unless this stream already sent or covered its id. */
  private send(watcher: LiveWatcher, id: number, frame: Buffer): void {
    if (id <= watcher.sentUpTo) return;
    watcher.sentUpTo = id;
    this.write(watcher, frame);
  }

  private write(watcher: { readonly response: ServerResponse }, frame: Buffer): void {
    const { response } = watcher;
    if (response.destroyed || response.writableEnded) return;
    response.write(frame);
    if (response.writableLength > this.options.maxBufferedBytes) response.end();
  }

  private async replay(watcher: LiveWatcher, afterId: number): Promise<void> {
    const { replayLimit } = this.options;
    try {
      const rows = await userEventsAfter(this.db, watcher.userId, afterId, replayLimit + 1);
      if (rows.length > replayLimit) {
        // Too much was missed: the browser reloads its list instead, and resumes from the newest event.
        const newestId = (await this.newestEventId(watcher.userId)) || afterId;
        // Events up to the newest are covered by the reload.
        this.cover(watcher, newestId, eventFrame(newestId, 'resync', '{}'));
      } else {
        await this.recordLooks(rows.filter((row) => row.id > watcher.sentUpTo));
        for (const row of rows) this.send(watcher, row.id, eventFrame(row.id, row.type, row.payload));
      }
    } catch (error) {
      // Ending the stream makes the browser retry with the same Last-Event-ID: nothing is skipped.
      this.log.error({ err: error }, 'Could not replay missed live events');
      watcher.held = null;
      watcher.response.end();
      return;
    } finally {
      const held = watcher.held ?? [];
      watcher.held = null;
      for (const event of held) this.send(watcher, event.id, event.frame);
    }
  }

  private beat(): void {
    const now = Date.now();
    for (const set of [...this.watchers.values(), ...this.linkWatchers.values()]) {
      for (const watcher of set) {
        if (now >= watcher.closeAt) watcher.response.end();
        else this.write(watcher, HEARTBEAT);
      }
    }
  }
}
