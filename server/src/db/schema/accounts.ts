import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  CONTACT_TOPICS,
  DEVICE_TYPES,
  NOTICE_CHANNELS,
  oneOf,
  REQUESTER_NOTICES,
  VERIFICATION_PURPOSES,
} from '../column-values';
import { LOCALES } from '../../lib/messages';
import { createdAt } from './columns';

// Accounts, sessions, codes and throttles; what visitors send (device reports, contact messages).

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Always stored lower-cased, so the unique index is case-insensitive in effect.
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    locale: text('locale', { enum: LOCALES }).notNull().default('en'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // The consent given at sign-up (18 or older, the terms and their version); null for accounts made before 0008.
    ageConfirmedAt: timestamp('age_confirmed_at', { withTimezone: true, mode: 'date' }),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true, mode: 'date' }),
    termsVersion: text('terms_version'),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    check('users_email_lower_case', sql`${table.email} = lower(${table.email})`),
    check('users_locale_check', oneOf(table.locale, LOCALES)),
  ],
);

/**
 * A browser where the subscriber turned notifications on (Web Push): its push service's endpoint and the keys its
 * messages are encrypted with. One browser is one endpoint, owned by the account last signed in there. Removed when
 * the subscriber turns notifications off there, when the push service says it has expired, and with the account.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    // The browser's P-256 public key and authentication secret (base64url), as PushSubscription.toJSON() gives them.
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(table.endpoint),
    index('push_subscriptions_user_idx').on(table.userId),
  ],
);

/**
 * The notices a subscriber turned off, per channel: a notice without a row here is sent (every one is on until the
 * subscriber turns it off on the account page). Erased with the account.
 */
export const noticeOptOuts = pgTable(
  'notice_opt_outs',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: NOTICE_CHANNELS }).notNull(),
    notice: text('notice', { enum: REQUESTER_NOTICES }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.channel, table.notice] }),
    check('notice_opt_outs_channel_check', oneOf(table.channel, NOTICE_CHANNELS)),
    check('notice_opt_outs_notice_check', oneOf(table.notice, REQUESTER_NOTICES)),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // sha256 of the token: a leaked table does not let anyone in.
    tokenHash: text('token_hash').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_unique').on(table.tokenHash),
    index('sessions_user_id_idx').on(table.userId),
  ],
);

/** One-time codes: 6-digit email codes (password reset, email change, billing) and opaque auth codes (login after sign-up). */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: VERIFICATION_PURPOSES }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('verification_codes_email_purpose_idx').on(table.email, table.purpose),
    index('verification_codes_code_hash_idx').on(table.codeHash),
    check('verification_codes_purpose_check', oneOf(table.purpose, VERIFICATION_PURPOSES)),
  ],
);

/**
 * Counters for login and code throttling, shared by every instance through the database. A key that holds personal
 * data (an address, an email) holds its keyed hash; spent windows are pruned by the retention job.
 */
export const authThrottles = pgTable(
  'auth_throttles',
  {
    // `<kind>:<keyed hash>` of an address or email (throttleKey), or `<kind>:<id>` of an account or a link.
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    // Fixed-window counters: when the window started. Growing delays (claimAttempt): the last counted attempt.
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' }).notNull(),
    // Growing delays: no attempt is taken before this moment.
    blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('auth_throttles_window_started_at_idx').on(table.windowStartedAt)],
);

/**
 * The device report a browser sends on its first load of a public page. No IP address is stored, on purpose; the
 * page and referrer are kept without query string or fragment, and a recipient's page sends none. Pruned by the
 * retention job after RETENTION_DAYS.
 */
export const visitorReports = pgTable(
  'visitor_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    visitorId: text('visitor_id').notNull(),
    userAgent: text('user_agent').notNull(),
    osName: text('os_name'),
    osVersion: text('os_version'),
    browserName: text('browser_name'),
    browserVersion: text('browser_version'),
    deviceType: text('device_type', { enum: DEVICE_TYPES }).notNull(),
    deviceBrand: text('device_brand'),
    deviceModel: text('device_model'),
    pageUrl: text('page_url'),
    referrerUrl: text('referrer_url'),
    source: text('source'),
    visitTime: timestamp('visit_time', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('visitor_reports_visitor_id_idx').on(table.visitorId),
    index('visitor_reports_created_at_idx').on(table.createdAt),
    check('visitor_reports_device_type_check', oneOf(table.deviceType, DEVICE_TYPES)),
  ],
);

/**
 * Messages sent through the public contact form (/contact-us): kept for the operator, who also gets each one by
 * email. No IP address is stored; the per-IP throttle keeps only a counter keyed by it (auth_throttles).
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    topic: text('topic', { enum: CONTACT_TOPICS }).notNull(),
    message: text('message').notNull(),
    locale: text('locale', { enum: LOCALES }).notNull(),
    createdAt: createdAt(),
    // The operator's queue (safety-desk/): opened in the console, answered (by email, outside Kabari) with a note.
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    answerNote: text('answer_note'),
  },
  (table) => [
    index('contact_messages_created_at_idx').on(table.createdAt),
    check('contact_messages_topic_check', oneOf(table.topic, CONTACT_TOPICS)),
    check('contact_messages_locale_check', oneOf(table.locale, LOCALES)),
  ],
);
