import { LONGEST_WINDOW_SECONDS } from '../auth/throttle';

// How long each kind of personal data is kept, and why (docs/privacy.md lists every table). Positions, live events,
// cached addresses, sent messages, visitor reports, ended sessions and sign-up attempts: RETENTION_DAYS.

/** Long enough for an old message's opt-out or report link to be followed; the tombstone holds only hashes. */
export const TOMBSTONE_DAYS = 365;
/** Time to answer a message and follow it up, or to act on a report of abuse or a refund request. */
export const CONTACT_MESSAGE_DAYS = 365;
export const ABUSE_REPORT_DAYS = 365;
/** A lifted suspension, kept as long as a report: the operator sees what was decided before if it happens again. */
export const SUSPENSION_DAYS = 365;
export const REFUND_REQUEST_DAYS = 365;
/** Providers retry a webhook for about 3 days and can resend an event for 30: a replay within that does nothing. */
export const WEBHOOK_EVENT_DAYS = 90;
/**
 * An account whose subscription ended this long ago (or that never had one for as long) keeps neither its ended
 * requests (a stranger's number or address, the note) nor its browsers' push subscriptions: a subscriber coming
 * back within a year still finds their history.
 */
export const LAPSED_ACCOUNT_DAYS = 365;
/** Accounting and tax records: Indonesian law asks for 10 years. */
export const PAYMENT_YEARS = 10;
/**
 * What operators did (suspensions, refunds, warnings): long enough to answer a complaint or a regulator about a
 * decision. The audit log's trigger refuses to delete a younger entry (migration 0027 holds the same 3 years).
 */
export const OPERATOR_AUDIT_YEARS = 3;
/**
 * Throttle counters and send limits are dead once their window has passed. No throttle window is longer than a day
 * (countAttempt refuses one) and the send limit is 3 hours, so a day after it started a row is spent.
 */
export const SPENT_COUNTER_HOURS = LONGEST_WINDOW_SECONDS / 3600;
