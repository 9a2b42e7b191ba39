import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import { countingInWindows } from '../auth/throttle-rows';
import { queryPreparedRows, type DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import {
  abuseReports,
  linkTombstones,
  locationRequests,
  positions,
  requestEvents,
} from '../db/schema/location-requests';

// The recipient's side of a location request, as rows: every query the consent rules (link-consent.ts) make.

export type LocationRequestRow = typeof locationRequests.$inferSelect;
export type LinkTombstoneRow = typeof linkTombstones.$inferSelect;
export type PositionRow = typeof positions.$inferSelect;
type NewPosition = typeof positions.$inferInsert;

/**
 * The longest notification that carries a position's whole event (LiveEventHub sends it on without reading it back):
 * PostgreSQL refuses one of 8,000 bytes or more. A longer one is announced by its id, and read back.
 */
const NOTIFICATION_MAX_BYTES = 7_999;

/**
 * A position of a live share already located by its browser, in one statement (its own transaction): the link's use
 * counted (`counting`: the throttle's counters, and each key's limit), then, only when no count is over its limit,
 * the request's row locked, the position stored, published to the requester (the event row, and a NOTIFY carrying it
 * that PostgreSQL delivers when the statement commits) and the live page marked as heard from at `now`. The same rows,
 * locks and order as countAttempts, insertPosition, publishRequestEvent and updateRequest one by one: the counters'
 * rows first (as every statement that counts a link's use), then the row lock, then the user's events lock (taken
 * from the locked row), then the event's id (its row is selected from that lock), so one user's events still commit
 * in the order of their ids. Only while the request shares, is live at `now` and its browser has located it; else
 * nothing but the counting is done and no live window is answered (the caller's transaction then applies the
 * rules). The counts, and the live window's end when the position was stored. The live page's mark is renewed only
 * when older than `heardBefore`: a page heard from a few seconds ago needs no new row version (and no history
 * notice) for each position it sends. With a stored position, also the requester's id (their history changed).
 */
export async function storeLivePosition(
  db: DatabaseExecutor,
  values: {
    tokenHash: string;
    now: Date;
    position: Omit<NewPosition, 'requestId' | 'source'> & { recordedAt: Date };
    /** The event's position as the requester reads it, its id filled in by the database. */
    positionView: unknown;
    userEventsLock: number;
    channel: string;
    heardBefore: Date;
    /** The throttle's counters (countingAttempts): each key and its limit, and their one window. */
    counting: { limits: { key: string; limit: number }[]; windowSeconds: number };
  },
): Promise<{ counts: Map<string, CountedRow>; liveUntil: Date | undefined; requesterId: string | undefined }> {
  const { tokenHash, now, position, counting } = values;
  const at = now.toISOString();
  const bound: Record<string, unknown> = {
    windowSeconds: counting.windowSeconds,
    tokenHash,
    at,
    userEventsLock: values.userEventsLock,
    latitude: position.latitude,
    longitude: position.longitude,
    accuracyMeters: position.accuracyMeters ?? null,
    address: position.address ?? null,
    place: position.place ? JSON.stringify(position.place) : null,
    recordedAt: position.recordedAt.toISOString(),
    positionView: JSON.stringify(values.positionView),
    heardBefore: values.heardBefore.toISOString(),
    channel: values.channel,
    notificationMaxBytes: NOTIFICATION_MAX_BYTES,
  };
  counting.limits.forEach(({ key, limit }, index) => {
    bound[`key${index}`] = key;
    bound[`limit${index}`] = limit;
  });
  const [row] = await queryPreparedRows<{
    counts: (CountedRow & { key: string })[] | null;
    live_until: string | Date | null;
    user_id: string | null;
  }>(
    db,
    // Its text depends only on how many counters there are.
    `store-live-position-${counting.limits.length}`,
    () => {
      const value = (name: string) => sql.placeholder(name);
      const counters = counting.limits.map((_, index) => index);
      return sql`
      with counted as (${countingInWindows(
        counters.map((index) => value(`key${index}`)),
        value('windowSeconds'),
      )}),
      limits (key, most) as (
        values ${sql.join(
          counters.map((index) => sql`(${value(`key${index}`)}::text, ${value(`limit${index}`)}::integer)`),
          sql`, `,
        )}
      ),
      allowed as (
        select coalesce(bool_and(counted.count <= limits.most), false) as ok from counted join limits using (key)
      ),
      request as (
        select id, user_id, live_until from location_requests
        where token_hash = ${value('tokenHash')} and consent = 'sharing' and status = 'gps_tracked'
          and live_until > ${value('at')}::timestamptz and (select ok from allowed)
        for update
      ),
      user_events as (
        select pg_advisory_xact_lock(${value('userEventsLock')}::integer, hashtext(user_id::text)) as taken from request
      ),
      stored as (
        insert into positions (request_id, source, latitude, longitude, accuracy_meters, address, place, recorded_at)
        select id, 'gps', ${value('latitude')}::double precision, ${value('longitude')}::double precision,
               ${value('accuracyMeters')}::double precision, ${value('address')}::text, ${value('place')}::jsonb,
               ${value('recordedAt')}::timestamptz
        from request
        returning id
      ),
      published as (
        insert into request_events (user_id, request_id, type, payload)
        select request.user_id, request.id, 'position', jsonb_build_object(
                 'requestId', request.id,
                 'position', jsonb_set(${value('positionView')}::jsonb, '{id}', to_jsonb(stored.id)))
        from request, stored, user_events
        returning id, payload
      ),
      heard as (
        update location_requests set live_heard_at = ${value('at')}::timestamptz
        where id in (select id from request)
          and (live_heard_at is null or live_heard_at < ${value('heardBefore')}::timestamptz)
      ),
      live as (
        select published.id, pg_notify(${value('channel')}::text, case
                 when octet_length(carried.notice) <= ${value('notificationMaxBytes')}::integer then carried.notice
                 else published.id::text end) as notified,
               request.live_until, request.user_id
        from published, request, lateral (
          select json_build_object('id', published.id, 'userId', request.user_id, 'requestId', request.id,
            'type', 'position', 'payload', published.payload::text)::text as notice
        ) as carried
      )
      select (select json_agg(json_build_object('key', key, 'count', count, 'window_started_at', window_started_at))
              from counted) as counts,
             live.live_until, live.user_id, live.notified
      from (select 1) as answer left join live on true`;
    },
    bound,
  );
  const counts = new Map((row?.counts ?? []).map(({ key, ...count }) => [key, count]));
  return {
    counts,
    liveUntil: row?.live_until ? new Date(row.live_until) : undefined,
    requesterId: row?.user_id ?? undefined,
  };
}

/** A throttle counter's count, as a counting statement returns it. */
type CountedRow = { count: number; window_started_at: string | Date };

/** The request a token's hash names; `lock` holds its row until the transaction ends. */
export async function requestByTokenHash(
  db: DatabaseExecutor,
  tokenHash: string,
  lock = false,
): Promise<LocationRequestRow | undefined> {
  const query = db.select().from(locationRequests).where(eq(locationRequests.tokenHash, tokenHash));
  const [request] = lock ? await query.for('update') : await query;
  return request;
}

/** The requester of the request a token's hash names; undefined when there is none. */
export async function requesterOfTokenHash(db: DatabaseExecutor, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: locationRequests.userId })
    .from(locationRequests)
    .where(eq(locationRequests.tokenHash, tokenHash));
  return row?.userId;
}

/** What is left of a deleted request, by its token's hash. */
export async function tombstoneByTokenHash(
  db: DatabaseExecutor,
  tokenHash: string,
): Promise<LinkTombstoneRow | undefined> {
  const [tombstone] = await db.select().from(linkTombstones).where(eq(linkTombstones.tokenHash, tokenHash));
  return tombstone;
}

export async function updateRequest(
  db: DatabaseExecutor,
  id: string,
  values: Partial<LocationRequestRow>,
): Promise<LocationRequestRow> {
  const [row] = await db.update(locationRequests).set(values).where(eq(locationRequests.id, id)).returning();
  if (!row) throw new Error('the location request vanished');
  return row;
}

/** The requester's display name ('' once the account is gone). */
export async function requesterName(db: DatabaseExecutor, userId: string): Promise<string> {
  const [requester] = await db.select({ displayName: users.displayName }).from(users).where(eq(users.id, userId));
  return requester?.displayName ?? '';
}

/** How many positions of each source a request holds. */
export async function positionCounts(db: DatabaseExecutor, requestId: string): Promise<{ ip: number; gps: number }> {
  const groups = await db
    .select({ source: positions.source, n: count() })
    .from(positions)
    .where(eq(positions.requestId, requestId))
    .groupBy(positions.source);
  const of = (source: PositionRow['source']) => Number(groups.find((group) => group.source === source)?.n ?? 0);
  return { ip: of('ip'), gps: of('gps') };
}

/** The approximate place recorded at consent, if any. */
export async function ipPositionOf(db: DatabaseExecutor, requestId: string): Promise<PositionRow | undefined> {
  const [position] = await db
    .select()
    .from(positions)
    .where(and(eq(positions.requestId, requestId), eq(positions.source, 'ip')))
    .limit(1);
  return position;
}

export async function insertPosition(db: DatabaseExecutor, values: NewPosition): Promise<PositionRow> {
  const [position] = await db.insert(positions).values(values).returning();
  if (!position) throw new Error('the position was not stored');
  return position;
}

/** Erases what a request shared: its positions, and the live events that carried them (and its last one). */
export async function eraseSharedPositions(db: DatabaseExecutor, requestId: string): Promise<void> {
  await db.delete(positions).where(eq(positions.requestId, requestId));
  await db.delete(requestEvents).where(eq(requestEvents.requestId, requestId));
}

// Any fixed number: the first half of the two-part advisory lock on a link's reports.
const LINK_REPORTS_LOCK = 727_002;

/** Waits for any other report of the link being stored, until the transaction ends: the per-link limit holds. */
export async function lockLinkReports(db: DatabaseExecutor, tokenHash: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${LINK_REPORTS_LOCK}, hashtext(${tokenHash}))`);
}

/** The report this browser already made of the link, if any. */
export async function reportOfReporter(
  db: DatabaseExecutor,
  tokenHash: string,
  reporterKey: string,
): Promise<string | undefined> {
  const [report] = await db
    .select({ id: abuseReports.id })
    .from(abuseReports)
    .where(and(eq(abuseReports.tokenHash, tokenHash), eq(abuseReports.reporterKey, reporterKey)));
  return report?.id;
}

export function reportCountOfLink(db: DatabaseExecutor, tokenHash: string): Promise<number> {
  return db.$count(abuseReports, eq(abuseReports.tokenHash, tokenHash));
}

export async function insertAbuseReport(
  db: DatabaseExecutor,
  values: typeof abuseReports.$inferInsert,
): Promise<string> {
  const [report] = await db.insert(abuseReports).values(values).returning({ id: abuseReports.id });
  if (!report) throw new Error('the report was not stored');
  return report.id;
}

/** Requests sharing live now (window open past `now`) whose page was last heard before `silentSince`, locked. */
export function silentLiveRequests(db: DatabaseExecutor, now: Date, silentSince: Date) {
  return db
    .select()
    .from(locationRequests)
    .where(
      and(
        eq(locationRequests.consent, 'sharing'),
        gt(locationRequests.liveUntil, now),
        lt(locationRequests.liveHeardAt, silentSince),
      ),
    )
    .for('update', { skipLocked: true });
}
