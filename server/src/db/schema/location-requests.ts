import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CONSENT_STATES,
  LIVE_END_REASONS,
  oneOf,
  POSITION_SOURCES,
  REPORT_OUTCOMES,
  REPORT_REASONS,
  REQUEST_CHANNELS,
  REQUEST_EVENT_TYPES,
  REQUEST_STATUSES,
  WHATSAPP_FALLBACKS,
  type Place,
} from '../column-values';
import { LOCALES } from '../../lib/messages';
import { createdAt } from './columns';
import { users } from './accounts';
import { outboxMessages } from './outbox';

// Location requests, consent, positions and what the live map reads.

/**
 * A request to share a location: by SMS, by email, or a trackable link. Each carries a long random token, the
 * consent link's key, stored only as its sha256 (requests/request-tokens.ts). `status` is what was shared (pending,
 * ip_located, gps_tracked); `consent` is what the recipient decided.
 */
export const locationRequests = pgTable(
  'location_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: REQUEST_CHANNELS }).notNull(),
    // E.164 number for sms, lower-cased address for email, null for a link.
    target: text('target'),
    // The target's opt-out key (requests/opt-outs.ts), copied into the tombstone when the request is deleted.
    targetHash: text('target_hash'),
    title: text('title'),
    // sha256 (hex) of the token: the consent routes look the request up by it; a copy of the table opens no link.
    tokenHash: text('token_hash').notNull(),
    // A trackable link's token sealed with a key derived from the server's secret (AES-256-GCM), opened only for
    // its requester's own view of the link; null for an SMS or email, whose token only the recipient needs.
    tokenCipher: text('token_cipher'),
    // A link's token as a version before hashed tokens stored it, sealed into token_cipher and cleared at the
    // next start (sealLegacyLinkTokens); null on every other row.
    legacyToken: text('legacy_token'),
    locale: text('locale', { enum: LOCALES }).notNull(),
    templateId: text('template_id'),
    note: text('note'),
    // The message that carries the consent link (sms/email): its state is the delivery state shown.
    messageId: uuid('message_id').references(() => outboxMessages.id, { onDelete: 'set null' }),
    // A request to a number sent by WhatsApp (channel 'sms': it goes to a phone number either way).
    sentByWhatsapp: boolean('sent_by_whatsapp').notNull().default(false),
    // What was done when the number turned out to have no WhatsApp: message_id then names the SMS sent instead.
    whatsappFallback: text('whatsapp_fallback', { enum: WHATSAPP_FALLBACKS }),
    status: text('status', { enum: REQUEST_STATUSES }).notNull().default('pending'),
    consent: text('consent', { enum: CONSENT_STATES }).notNull().default('none'),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }),
    consentedAt: timestamp('consented_at', { withTimezone: true, mode: 'date' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    liveUntil: timestamp('live_until', { withTimezone: true, mode: 'date' }),
    // The live page's last sign of life (a position, or its minute's call) while a window is open: a page silent
    // for long (closed, the phone asleep) has its window ended.
    liveHeardAt: timestamp('live_heard_at', { withTimezone: true, mode: 'date' }),
    // When and why the last live window ended before its time; cleared when a new one starts.
    liveEndedAt: timestamp('live_ended_at', { withTimezone: true, mode: 'date' }),
    liveEndReason: text('live_end_reason', { enum: LIVE_END_REASONS }),
    locatedAt: timestamp('located_at', { withTimezone: true, mode: 'date' }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('location_requests_token_hash_unique').on(table.tokenHash),
    index('location_requests_legacy_token_idx')
      .on(table.id)
      .where(sql`${table.legacyToken} is not null`),
    index('location_requests_user_created_idx').on(table.userId, table.createdAt),
    // A message's request, found by its delivery's changes (the history's notice, receipts, the WhatsApp fallback).
    index('location_requests_message_id_idx')
      .on(table.messageId)
      .where(sql`${table.messageId} is not null`),
    // The consent overview finds the requests to an address by its keyed hash.
    index('location_requests_target_hash_idx')
      .on(table.targetHash)
      .where(sql`${table.targetHash} is not null`),
    index('location_requests_unkeyed_target_idx')
      .on(table.id)
      .where(sql`${table.target} is not null and ${table.targetHash} is null`),
    // The live windows a job looks at every half minute (requests/requester-notices.ts): few rows have one.
    index('location_requests_live_until_idx')
      .on(table.liveUntil)
      .where(sql`${table.liveUntil} is not null`),
    check('location_requests_channel_check', oneOf(table.channel, REQUEST_CHANNELS)),
    check('location_requests_status_check', oneOf(table.status, REQUEST_STATUSES)),
    check('location_requests_consent_check', oneOf(table.consent, CONSENT_STATES)),
    check('location_requests_locale_check', oneOf(table.locale, LOCALES)),
    check('location_requests_live_end_reason_check', oneOf(table.liveEndReason, LIVE_END_REASONS)),
    check('location_requests_whatsapp_fallback_check', oneOf(table.whatsappFallback, WHATSAPP_FALLBACKS)),
  ],
);

/**
 * Send limits as one row per key: `target:<keyed hash of the E.164 number or email>` (one message per 3 hours,
 * whoever sends) and `link:<user id>` (one new link per 3 hours). An upsert that only succeeds when the window has
 * passed makes the limit hold across instances and concurrent requests.
 */
export const sendLimits = pgTable(
  'send_limits',
  {
    key: text('key').primaryKey(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('send_limits_last_sent_at_idx').on(table.lastSentAt)],
);

/**
 * How many SMS and emails were sent on a day (UTC), per key: `sms:account:<user id>`, `email:account:<user id>`
 * (an account's daily limit) and `sms:all` (the operator's daily SMS budget). Counted by an upsert that only adds
 * one below the limit, inside the transaction that writes the message, so no two instances or concurrent sends
 * can pass a limit together. Rows of past days are pruned by the retention job.
 */
export const dailySendCounts = pgTable(
  'daily_send_counts',
  {
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    count: integer('count').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.day] }),
    check('daily_send_counts_count_check', sql`${table.count} >= 0`),
  ],
);

/**
 * Numbers and emails that opted out of all requests, by a hash of the normalised target keyed with the server's
 * secret (requests/opt-outs.ts), never the target itself. Rows from before the keyed hash hold its plain sha256
 * until met again; both are looked up, so no opt-out is ever lost.
 */
export const optOuts = pgTable(
  'opt_outs',
  {
    targetHash: text('target_hash').primaryKey(),
    channel: text('channel', { enum: REQUEST_CHANNELS }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [check('opt_outs_channel_check', oneOf(table.channel, REQUEST_CHANNELS))],
);

/**
 * What is left of a deleted location request (by its requester, or with their account), so that the opt-out and
 * report links in a message already sent keep working: the token's sha256 (the request's own token_hash), the
 * target's opt-out hash and the requester's id, nothing else (the id is cleared when the account is deleted).
 * Written by a trigger on location_requests (migrations 0005, 0014, 0018), so every way of deleting a request
 * leaves one; pruned by the retention job after a year.
 */
export const linkTombstones = pgTable(
  'link_tombstones',
  {
    tokenHash: text('token_hash').primaryKey(),
    // No foreign key: it outlives the request, so the operator still knows whom a report is about; null once the
    // account itself is deleted.
    requesterId: uuid('requester_id'),
    // Copied from the request by the trigger, so one of its channels.
    channel: text('channel', { enum: REQUEST_CHANNELS }).notNull(),
    targetHash: text('target_hash'),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('link_tombstones_deleted_at_idx').on(table.deletedAt)],
);

/**
 * Abuse reports from recipients, stored for the operator with the request they concern and its requester, who
 * stays known when the request is deleted; deleting the account detaches the report from it. Kept a year. One per
 * link and reporter (the browser that reported), and only a few per link: a link reported over and over fills
 * nothing.
 */
export const abuseReports = pgTable(
  'abuse_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id').references(() => locationRequests.id, { onDelete: 'set null' }),
    requesterId: uuid('requester_id'),
    // The link reported, as its token's sha256 (the request's and the tombstone's token_hash): it outlives the
    // request. Null on reports stored before it was kept.
    tokenHash: text('token_hash'),
    // A keyed hash of the reporting browser's random cookie (plugins/reporter-session.ts): names nobody.
    reporterKey: text('reporter_key'),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    details: text('details'),
    createdAt: createdAt(),
    // The operator's decision (safety-desk/): open while null; closed_by is the operator's id (their audit log
    // names them), note what they wrote.
    outcome: text('outcome', { enum: REPORT_OUTCOMES }),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    closedBy: uuid('closed_by'),
    operatorNote: text('operator_note'),
  },
  (table) => [
    uniqueIndex('abuse_reports_token_reporter_unique').on(table.tokenHash, table.reporterKey),
    // Deleting a request clears its reports' request_id, and a report finds the copy of the note kept before.
    index('abuse_reports_request_id_idx')
      .on(table.requestId)
      .where(sql`${table.requestId} is not null`),
    index('abuse_reports_created_at_idx').on(table.createdAt),
    index('abuse_reports_requester_id_idx')
      .on(table.requesterId)
      .where(sql`${table.requesterId} is not null`),
    check('abuse_reports_reason_check', oneOf(table.reason, REPORT_REASONS)),
    check('abuse_reports_outcome_check', oneOf(table.outcome, REPORT_OUTCOMES)),
    check('abuse_reports_closed_check', sql`(${table.outcome} is null) = (${table.closedAt} is null)`),
  ],
);

/** A shared position: the approximate place from the IP, or the browser's position with its accuracy. */
export const positions = pgTable(
  'positions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => locationRequests.id, { onDelete: 'cascade' }),
    source: text('source', { enum: POSITION_SOURCES }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    accuracyMeters: doublePrecision('accuracy_meters'),
    // English text, as older readers show it; `place` holds the parts each reader formats in their language
    // (null on positions stored before it existed).
    address: text('address'),
    place: jsonb('place').$type<Place>(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('positions_request_id_idx').on(table.requestId, table.id),
    index('positions_created_at_idx').on(table.createdAt),
    check('positions_source_check', oneOf(table.source, POSITION_SOURCES)),
  ],
);

/**
 * The requester looking at a request's map, for the recipient to see who looked and when: one row per opening of
 * the map, its `lastSeenAt` moved on while the map stays open. Written only while the recipient shares; erased with
 * what they shared (Stop and erase), by the retention job, and with the request.
 */
export const mapViews = pgTable(
  'map_views',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => locationRequests.id, { onDelete: 'cascade' }),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('map_views_request_id_idx').on(table.requestId, table.openedAt)],
);

/**
 * Live events for a requester (status changes, positions, consent withdrawn). The id is the SSE event id: a
 * reconnecting browser sends Last-Event-ID and gets what it missed. NOTIFY carries the id, and every instance
 * reads the row; a live share's position carries its whole event instead (storeLivePosition). Old events are pruned
 * by the retention job.
 */
export const requestEvents = pgTable(
  'request_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id').references(() => locationRequests.id, { onDelete: 'cascade' }),
    type: text('type', { enum: REQUEST_EVENT_TYPES }).notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('request_events_user_id_idx').on(table.userId, table.id),
    check('request_events_type_check', oneOf(table.type, REQUEST_EVENT_TYPES)),
  ],
);

/** Reverse-geocoding answers from a Nominatim-compatible service, cached as its usage policy asks. */
export const geocodeCache = pgTable('geocode_cache', {
  // An HMAC of the rounded position (reverse-geocode.ts): the key does not say where.
  key: text('key').primaryKey(),
  // The place's parts (Place, in column-values.ts); null when the service knows no address there.
  place: jsonb('place').$type<Place>(),
  createdAt: createdAt(),
});
