import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type DatabaseExecutor } from '../db/open-database';
import { pruneDailySendCounts } from '../requests/daily-send-counts';
import { pruneVoiceNotes } from '../voice/voice-note-rows';
import { VOICE_DRAFT_HOURS } from '../voice/voice-notes';
import {
  ABUSE_REPORT_DAYS,
  SUSPENSION_DAYS,
  CONTACT_MESSAGE_DAYS,
  LAPSED_ACCOUNT_DAYS,
  OPERATOR_AUDIT_YEARS,
  PAYMENT_YEARS,
  REFUND_REQUEST_DAYS,
  SPENT_COUNTER_HOURS,
  TOMBSTONE_DAYS,
  WEBHOOK_EVENT_DAYS,
} from './retention-periods';

// The retention job: the deletes that carry out retention-periods.ts, one instance at a time.

// Any fixed number: every instance takes the same lock, so one of them prunes at a time.
const RETENTION_LOCK_KEY = 727_001;

export interface RetentionResult {
  /** False when another instance held the lock: it is pruning now. */
  ran: boolean;
  positions: number;
  requestEvents: number;
  /** The requester's openings of a request's map (what the recipient sees of who looked). */
  mapViews: number;
  /** Reverse-geocoding answers (street addresses when NOMINATIM_URL is set). */
  geocodeCache: number;
  linkTombstones: number;
  /** Emails and text messages sent (or given up on) to accounts and the operator. */
  outboxMessages: number;
  visitorReports: number;
  authThrottles: number;
  sendLimits: number;
  verificationCodes: number;
  /** Sign-up attempts (the details typed in the sign-up form), settled long ago. */
  registrations: number;
  webhookEvents: number;
  contactMessages: number;
  abuseReports: number;
  /** Suspensions lifted SUSPENSION_DAYS ago (a standing one stays while it stands). */
  accountSuspensions: number;
  refundRequests: number;
  /** Sessions that ended (signed out, or expired) RETENTION_DAYS ago. */
  sessions: number;
  /** Operators' sessions that ended RETENTION_DAYS ago. */
  operatorSessions: number;
  /** Audit log entries older than OPERATOR_AUDIT_YEARS. */
  operatorAuditLog: number;
  payments: number;
  /** Daily send counts of days before yesterday (UTC). */
  dailySendCounts: number;
  /**
   * Voice notes never sent (after a day), the notes and replies of requests (after RETENTION_DAYS), and the copies
   * abuse reports kept once no report cites them.
   */
  voiceNotes: number;
  /** Ended requests of accounts without a subscription for LAPSED_ACCOUNT_DAYS (with what they held). */
  locationRequests: number;
  /** The consent messages of those requests. */
  requestMessages: number;
  /** Push subscriptions of accounts without a subscription for LAPSED_ACCOUNT_DAYS. */
  pushSubscriptions: number;
}

const NOTHING: Omit<RetentionResult, 'ran'> = {
  positions: 0,
  mapViews: 0,
  requestEvents: 0,
  geocodeCache: 0,
  linkTombstones: 0,
  outboxMessages: 0,
  visitorReports: 0,
  authThrottles: 0,
  sendLimits: 0,
  verificationCodes: 0,
  registrations: 0,
  webhookEvents: 0,
  contactMessages: 0,
  abuseReports: 0,
  accountSuspensions: 0,
  refundRequests: 0,
  sessions: 0,
  operatorSessions: 0,
  operatorAuditLog: 0,
  payments: 0,
  dailySendCounts: 0,
  voiceNotes: 0,
  locationRequests: 0,
  requestMessages: 0,
  pushSubscriptions: 0,
};

/** Runs a delete and counts the rows it removed, without sending them back. */
async function deleted(db: DatabaseExecutor, statement: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}

/**
 * The accounts (as `<alias>.user_id` in a where clause) that have had no subscription for `days`: the last one
 * ended (past its valid_until, and neither on trial nor active) that long ago, or the account is that old and has
 * none.
 */
function lapsedAccount(userId: SQL, days: number): SQL {
  const since = sql`now() - make_interval(days => ${days})`;
  return sql`exists (select 1 from users where users.id = ${userId} and users.created_at < ${since})
    and not exists (select 1 from subscriptions
                    where subscriptions.user_id = ${userId}
                      and (subscriptions.status in ('trial', 'active') or subscriptions.valid_until >= ${since}))`;
}

/**
 * The ended requests of lapsed accounts: declined, stopped, withdrawn, cancelled, or expired unanswered (one still
 * shared stays while the recipient shares). Their positions, map views, events and voice notes go with them by
 * their foreign keys, a tombstone keeps the message's opt-out and report links working, and the message that
 * carried the link goes too.
 */
async function pruneLapsedRequests(db: DatabaseExecutor): Promise<{ requests: number; messages: number }> {
  const [row] = await queryRows<{ requests: number; messages: number }>(
    db,
    sql`with gone as (
          delete from location_requests
          where (consent in ('declined', 'stopped', 'withdrawn', 'cancelled')
                 or (consent = 'none' and expires_at < now()))
            and ${lapsedAccount(sql`location_requests.user_id`, LAPSED_ACCOUNT_DAYS)}
          returning message_id
        ), gone_messages as (
          delete from outbox_messages where id in (select message_id from gone) returning 1
        )
        select (select count(*) from gone)::int as requests, (select count(*) from gone_messages)::int as messages`,
  );
  return { requests: Number(row?.requests ?? 0), messages: Number(row?.messages ?? 0) };
}

/**
 * Deletes every kind of personal data whose time is over: positions, live events, cached geocoding answers, sent
 * messages, visitor reports, ended sessions and old sign-up attempts after `retentionDays`; spent throttle counters,
 * send limits and expired codes; webhook events, contact messages, abuse reports, refund requests and tombstones
 * after their own periods (retention-periods.ts); the ended requests and push subscriptions of accounts without a
 * subscription for LAPSED_ACCOUNT_DAYS; payments after the years the law asks for. Under a
 * transaction-scoped advisory lock, so several instances on one PostgreSQL never prune at once; the deletes are
 * idempotent in any case.
 */
export async function pruneExpiredData(db: Database, retentionDays: number): Promise<RetentionResult> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) as locked`,
    );
    if (!lock?.locked) return { ran: false, ...NOTHING };
    const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
    const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;
    const spent = sql`now() - make_interval(hours => ${SPENT_COUNTER_HOURS})`;
    // First, so that the voice notes and positions of the requests it deletes are counted with them.
    const lapsed = await pruneLapsedRequests(tx);
    return {
      ran: true,
      locationRequests: lapsed.requests,
      requestMessages: lapsed.messages,
      pushSubscriptions: await deleted(
        tx,
        sql`delete from push_subscriptions where ${lapsedAccount(sql`push_subscriptions.user_id`, LAPSED_ACCOUNT_DAYS)}`,
      ),
      positions: await deleted(tx, sql`delete from positions where created_at < ${cutoff}`),
      requestEvents: await deleted(tx, sql`delete from request_events where created_at < ${cutoff}`),
      mapViews: await deleted(tx, sql`delete from map_views where last_seen_at < ${cutoff}`),
      geocodeCache: await deleted(tx, sql`delete from geocode_cache where created_at < ${cutoff}`),
      linkTombstones: await deleted(tx, sql`delete from link_tombstones where deleted_at < ${daysAgo(TOMBSTONE_DAYS)}`),
      // A sent message (a code, a receipt, a contact form's copy) holds an address and a name: it is not kept
      // forever. Still queued ones wait for delivery; a request's own message lives as long as the request, whose
      // history shows its delivery state.
      outboxMessages: await deleted(
        tx,
        sql`delete from outbox_messages
            where state <> 'queued' and coalesce(sent_at, created_at) < ${cutoff}
              and not exists (select 1 from location_requests where location_requests.message_id = outbox_messages.id)`,
      ),
      visitorReports: await deleted(tx, sql`delete from visitor_reports where created_at < ${cutoff}`),
      authThrottles: await deleted(tx, sql`delete from auth_throttles where window_started_at < ${spent}`),
      sendLimits: await deleted(tx, sql`delete from send_limits where last_sent_at < ${spent}`),
      // An expired code can no longer be used, and nothing reads it.
      verificationCodes: await deleted(tx, sql`delete from verification_codes where expires_at < now()`),
      // Settled within a day (the reconciliation gives up after 24 hours); the account, if any, has the details.
      registrations: await deleted(tx, sql`delete from registrations where updated_at < ${cutoff}`),
      webhookEvents: await deleted(
        tx,
        sql`delete from webhook_events where received_at < ${daysAgo(WEBHOOK_EVENT_DAYS)}`,
      ),
      contactMessages: await deleted(
        tx,
        sql`delete from contact_messages where created_at < ${daysAgo(CONTACT_MESSAGE_DAYS)}`,
      ),
      abuseReports: await deleted(tx, sql`delete from abuse_reports where created_at < ${daysAgo(ABUSE_REPORT_DAYS)}`),
      accountSuspensions: await deleted(
        tx,
        sql`delete from account_suspensions where lifted_at < ${daysAgo(SUSPENSION_DAYS)}`,
      ),
      refundRequests: await deleted(
        tx,
        sql`delete from refund_requests where created_at < ${daysAgo(REFUND_REQUEST_DAYS)}`,
      ),
      sessions: await deleted(tx, sql`delete from sessions where expires_at < ${cutoff} or revoked_at < ${cutoff}`),
      operatorSessions: await deleted(
        tx,
        sql`delete from operator_sessions where expires_at < ${cutoff} or revoked_at < ${cutoff}`,
      ),
      operatorAuditLog: await deleted(
        tx,
        sql`delete from operator_audit_log where created_at < now() - make_interval(years => ${OPERATOR_AUDIT_YEARS})`,
      ),
      payments: await deleted(
        tx,
        sql`delete from payments where created_at < now() - make_interval(years => ${PAYMENT_YEARS})`,
      ),
      // A day's send counts matter only on that day (and to the next one, across time zones): then they go.
      dailySendCounts: await pruneDailySendCounts(tx),
      voiceNotes: await deleted(tx, pruneVoiceNotes(VOICE_DRAFT_HOURS, retentionDays)),
    };
  });
}
