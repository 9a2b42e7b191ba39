import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
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
