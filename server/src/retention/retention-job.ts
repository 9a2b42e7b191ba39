import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { queryRows, type Database } from '../db/open-database';
import { pruneDailySendCounts } from '../requests/daily-send-counts';

// Any fixed number: every instance takes the same lock, so one of them prunes at a time.
const RETENTION_LOCK_KEY = 727_001;
const FIRST_RUN_DELAY_MS = 60_000;
const INTERVAL_MS = 60 * 60 * 1000;
// Long enough for an old message's opt-out or report link to be followed; the tombstone holds only hashes and an id.
export const TOMBSTONE_DAYS = 365;

export interface RetentionResult {
  /** False when another instance held the lock: it is pruning now. */
  ran: boolean;
  positions: number;
  requestEvents: number;
  /** Reverse-geocoding answers (street addresses when NOMINATIM_URL is set). */
  geocodeCache: number;
  linkTombstones: number;
  /** Emails and text messages sent (or given up on) to accounts and the operator. */
  outboxMessages: number;
  /** Daily send counts of days before yesterday (UTC). */
  dailySendCounts: number;
}

/**
 * Deletes positions, live events, cached geocoding answers and delivered messages older than `retentionDays`
 * (and tombstones of deleted requests after TOMBSTONE_DAYS). Under a transaction-scoped advisory lock, so
 * several instances on one PostgreSQL never prune at once; the deletes are idempotent in any case.
 */
export async function pruneExpiredData(db: Database, retentionDays: number): Promise<RetentionResult> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) as locked`,
    );
    if (!lock?.locked) {
      return {
        ran: false,
        positions: 0,
        requestEvents: 0,
        geocodeCache: 0,
        linkTombstones: 0,
        outboxMessages: 0,
        dailySendCounts: 0,
      };
    }
    const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
    const positions = await queryRows<{ id: number }>(
      tx,
      sql`delete from positions where created_at < ${cutoff} returning id`,
    );
    const events = await queryRows<{ id: number }>(
      tx,
      sql`delete from request_events where created_at < ${cutoff} returning id`,
    );
    const answers = await queryRows<{ key: string }>(
      tx,
      sql`delete from geocode_cache where created_at < ${cutoff} returning key`,
    );
    const tombstones = await queryRows<{ token_hash: string }>(
      tx,
      sql`delete from link_tombstones where deleted_at < now() - make_interval(days => ${TOMBSTONE_DAYS})
          returning token_hash`,
    );
    // A sent message (a code, a receipt, a contact form's copy) holds an address and a name: it is not kept
    // forever. Still queued ones wait for delivery; a request's own message lives as long as the request, whose
    // history shows its delivery state.
    const messages = await queryRows<{ id: string }>(
      tx,
      sql`delete from outbox_messages
          where state <> 'queued' and coalesce(sent_at, created_at) < ${cutoff}
            and not exists (select 1 from location_requests where location_requests.message_id = outbox_messages.id)
          returning id`,
    );
    // A day's send counts matter only on that day (and to the next one, across time zones): then they go.
    const dailySendCounts = await pruneDailySendCounts(tx);
    return {
      ran: true,
      dailySendCounts,
      positions: positions.length,
      requestEvents: events.length,
      geocodeCache: answers.length,
      linkTombstones: tombstones.length,
      outboxMessages: messages.length,
    };
  });
}

/** Runs the retention job a minute after start, then every hour. */
export default fp(
  async (app, options: { config: Config }) => {
    const { retentionDays } = options.config;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    let closing = false;
    const run = () => {
      running = pruneExpiredData(app.db, retentionDays)
        .then((result) => {
          if (
            result.positions ||
            result.requestEvents ||
            result.geocodeCache ||
            result.linkTombstones ||
            result.outboxMessages ||
            result.dailySendCounts
          ) {
            app.log.info(result, `Retention: deleted data older than ${retentionDays} days`);
          }
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'Retention job failed'))
        .finally(() => {
          if (closing) return;
          timer = setTimeout(run, INTERVAL_MS);
          timer.unref();
        });
    };
    app.addHook('onReady', async () => {
      timer = setTimeout(run, FIRST_RUN_DELAY_MS);
      timer.unref();
    });
    app.addHook('preClose', async () => {
      closing = true;
      clearTimeout(timer);
      await running;
    });
  },
  { name: 'retention', dependencies: ['database'] },
);
