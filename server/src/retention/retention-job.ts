import type { Database } from '../db/open-database';
import { pruneDailySendCounts } from '../requests/daily-send-counts';
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
import {
  deleteAbuseReports,
  deleteAuditLog,
  deleteContactMessages,
  deleteEndedOperatorSessions,
  deleteEndedSessions,
  deleteExpiredCodes,
  deleteGeocodeAnswers,
  deleteLapsedPushSubscriptions,
  deleteLapsedRequests,
  deleteLiftedSuspensions,
  deleteLinkTombstones,
  deleteMapViews,
  deletePayments,
  deletePositions,
  deleteRefundRequests,
  deleteRegistrations,
  deleteRequestEvents,
  deleteSentMessages,
  deleteSpentSendLimits,
  deleteSpentThrottles,
  deleteVisitorReports,
  deleteVoiceNotes,
  deleteWebhookEvents,
  tryTransactionLock,
} from './retention-rows';

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
    if (!(await tryTransactionLock(tx, RETENTION_LOCK_KEY))) return { ran: false, ...NOTHING };
    // First, so that the voice notes and positions of the requests it deletes are counted with them. Ended requests
    // (declined, stopped, withdrawn, cancelled, or expired unanswered; one still shared stays while the recipient
    // shares): their positions, map views, events and voice notes go with them by their foreign keys, a tombstone
    // keeps the message's opt-out and report links working, and the message that carried the link goes too.
    const lapsed = await deleteLapsedRequests(tx, LAPSED_ACCOUNT_DAYS);
    return {
      ran: true,
      locationRequests: lapsed.requests,
      requestMessages: lapsed.messages,
      pushSubscriptions: await deleteLapsedPushSubscriptions(tx, LAPSED_ACCOUNT_DAYS),
      positions: await deletePositions(tx, retentionDays),
      requestEvents: await deleteRequestEvents(tx, retentionDays),
      mapViews: await deleteMapViews(tx, retentionDays),
      geocodeCache: await deleteGeocodeAnswers(tx, retentionDays),
      linkTombstones: await deleteLinkTombstones(tx, TOMBSTONE_DAYS),
      // A sent message (a code, a receipt, a contact form's copy) holds an address and a name: it is not kept
      // forever. Still queued ones wait for delivery; a request's own message lives as long as the request, whose
      // history shows its delivery state.
      outboxMessages: await deleteSentMessages(tx, retentionDays),
      visitorReports: await deleteVisitorReports(tx, retentionDays),
      authThrottles: await deleteSpentThrottles(tx, SPENT_COUNTER_HOURS),
      sendLimits: await deleteSpentSendLimits(tx, SPENT_COUNTER_HOURS),
      // An expired code can no longer be used, and nothing reads it.
      verificationCodes: await deleteExpiredCodes(tx),
      // Settled within a day (the reconciliation gives up after 24 hours); the account, if any, has the details.
      registrations: await deleteRegistrations(tx, retentionDays),
      webhookEvents: await deleteWebhookEvents(tx, WEBHOOK_EVENT_DAYS),
      contactMessages: await deleteContactMessages(tx, CONTACT_MESSAGE_DAYS),
      abuseReports: await deleteAbuseReports(tx, ABUSE_REPORT_DAYS),
      accountSuspensions: await deleteLiftedSuspensions(tx, SUSPENSION_DAYS),
      refundRequests: await deleteRefundRequests(tx, REFUND_REQUEST_DAYS),
      sessions: await deleteEndedSessions(tx, retentionDays),
      operatorSessions: await deleteEndedOperatorSessions(tx, retentionDays),
      operatorAuditLog: await deleteAuditLog(tx, OPERATOR_AUDIT_YEARS),
      payments: await deletePayments(tx, PAYMENT_YEARS),
      // A day's send counts matter only on that day (and to the next one, across time zones): then they go.
      dailySendCounts: await pruneDailySendCounts(tx),
      voiceNotes: await deleteVoiceNotes(tx, VOICE_DRAFT_HOURS, retentionDays),
    };
  });
}
