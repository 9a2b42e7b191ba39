import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { pruneVoiceNotes } from '../voice/voice-note-rows';

// The retention job's deletes, as rows: every statement of retention-job.ts. Each takes its period as a number and
// answers how many rows it removed.

/** Runs a delete and counts the rows it removed, without sending them back. */
async function deleted(db: DatabaseExecutor, statement: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}

const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;
const hoursAgo = (hours: number) => sql`now() - make_interval(hours => ${hours})`;
const yearsAgo = (years: number) => sql`now() - make_interval(years => ${years})`;

/** Takes the transaction-scoped advisory lock `key` if nobody holds it; whether it was taken. */
export async function tryTransactionLock(tx: DatabaseExecutor, key: number): Promise<boolean> {
  const [lock] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${key}) as locked`);
  return lock?.locked ?? false;
}

/**
 * The accounts (as `<alias>.user_id` in a where clause) that have had no subscription for `days`: the last one
 * ended (past its valid_until, and neither on trial nor active) that long ago, or the account is that old and has
 * none.
 */
function lapsedAccount(userId: SQL, days: number): SQL {
  const since = daysAgo(days);
  return sql`exists (select 1 from users where users.id = ${userId} and users.created_at < ${since})
    and not exists (select 1 from subscriptions
                    where subscriptions.user_id = ${userId}
                      and (subscriptions.status in ('trial', 'active') or subscriptions.valid_until >= ${since}))`;
}

/**
 * Deletes the ended requests of accounts lapsed for `lapsedDays`: declined, stopped, withdrawn, cancelled, or
 * expired unanswered, with the messages that carried their links. How many of each.
 */
export async function deleteLapsedRequests(
  db: DatabaseExecutor,
  lapsedDays: number,
): Promise<{ requests: number; messages: number }> {
  const [row] = await queryRows<{ requests: number; messages: number }>(
    db,
    sql`with gone as (
          delete from location_requests
          where (consent in ('declined', 'stopped', 'withdrawn', 'cancelled')
                 or (consent = 'none' and expires_at < now()))
            and ${lapsedAccount(sql`location_requests.user_id`, lapsedDays)}
          returning message_id
        ), gone_messages as (
          delete from outbox_messages where id in (select message_id from gone) returning 1
        )
        select (select count(*) from gone)::int as requests, (select count(*) from gone_messages)::int as messages`,
  );
  return { requests: Number(row?.requests ?? 0), messages: Number(row?.messages ?? 0) };
}

export const deleteLapsedPushSubscriptions = (db: DatabaseExecutor, lapsedDays: number) =>
  deleted(db, sql`delete from push_subscriptions where ${lapsedAccount(sql`push_subscriptions.user_id`, lapsedDays)}`);

export const deletePositions = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from positions where created_at < ${daysAgo(days)}`);

export const deleteRequestEvents = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from request_events where created_at < ${daysAgo(days)}`);

export const deleteMapViews = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from map_views where last_seen_at < ${daysAgo(days)}`);

export const deleteGeocodeAnswers = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from geocode_cache where created_at < ${daysAgo(days)}`);

export const deleteLinkTombstones = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from link_tombstones where deleted_at < ${daysAgo(days)}`);

/** Messages no longer queued, sent (or created) `days` ago, unless a request still carries them. */
export const deleteSentMessages = (db: DatabaseExecutor, days: number) =>
  deleted(
    db,
    sql`delete from outbox_messages
        where state <> 'queued' and coalesce(sent_at, created_at) < ${daysAgo(days)}
          and not exists (select 1 from location_requests where location_requests.message_id = outbox_messages.id)`,
  );

export const deleteVisitorReports = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from visitor_reports where created_at < ${daysAgo(days)}`);

export const deleteSpentThrottles = (db: DatabaseExecutor, hours: number) =>
  deleted(db, sql`delete from auth_throttles where window_started_at < ${hoursAgo(hours)}`);

export const deleteSpentSendLimits = (db: DatabaseExecutor, hours: number) =>
  deleted(db, sql`delete from send_limits where last_sent_at < ${hoursAgo(hours)}`);

export const deleteExpiredCodes = (db: DatabaseExecutor) =>
  deleted(db, sql`delete from verification_codes where expires_at < now()`);

// A sign-up whose payment is still owed back is kept: for a first payment that made no account, its email is whom
// the operator gives the money back to.
export const deleteRegistrations = (db: DatabaseExecutor, days: number) =>
  deleted(
    db,
    sql`delete from registrations where updated_at < ${daysAgo(days)}
      and not exists (select 1 from payments where payments.registration_id = registrations.id
        and payments.refund_owed_at is not null)`,
  );

export const deleteWebhookEvents = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from webhook_events where received_at < ${daysAgo(days)}`);

export const deleteContactMessages = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from contact_messages where created_at < ${daysAgo(days)}`);

export const deleteAbuseReports = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from abuse_reports where created_at < ${daysAgo(days)}`);

export const deleteLiftedSuspensions = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from account_suspensions where lifted_at < ${daysAgo(days)}`);

export const deleteRefundRequests = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from refund_requests where created_at < ${daysAgo(days)}`);

export const deleteEndedSessions = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from sessions where expires_at < ${daysAgo(days)} or revoked_at < ${daysAgo(days)}`);

export const deleteEndedOperatorSessions = (db: DatabaseExecutor, days: number) =>
  deleted(db, sql`delete from operator_sessions where expires_at < ${daysAgo(days)} or revoked_at < ${daysAgo(days)}`);

export const deleteAuditLog = (db: DatabaseExecutor, years: number) =>
  deleted(db, sql`delete from operator_audit_log where created_at < ${yearsAgo(years)}`);

export const deletePayments = (db: DatabaseExecutor, years: number) =>
  deleted(db, sql`delete from payments where created_at < ${yearsAgo(years)}`);

export const deleteVoiceNotes = (db: DatabaseExecutor, draftHours: number, retentionDays: number) =>
  deleted(db, pruneVoiceNotes(draftHours, retentionDays));
