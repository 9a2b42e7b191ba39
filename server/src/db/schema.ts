import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** Values the server itself owns (its RSA key pair, its secret), shared by every instance. */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The device report a browser sends on first load (spec §3). No IP address is stored, on purpose. */
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
    deviceType: text('device_type').notNull(),
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
    check('visitor_reports_device_type_check', sql`${table.deviceType} in ('mobile', 'tablet', 'desktop')`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Always stored lower-cased, so the unique index is case-insensitive in effect.
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    locale: text('locale').notNull().default('en'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    check('users_email_lower_case', sql`${table.email} = lower(${table.email})`),
    check('users_locale_check', sql`${table.locale} in ('en', 'id')`),
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

/** One-time codes: 6-digit email codes (password reset) and opaque auth codes (login after sign-up). */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('verification_codes_email_purpose_idx').on(table.email, table.purpose),
    index('verification_codes_code_hash_idx').on(table.codeHash),
    check('verification_codes_purpose_check', sql`${table.purpose} in ('reset_password', 'auth_code')`),
  ],
);

/** Messages to deliver: written with the change that causes them, delivered with retries by the dispatcher. */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    idempotencyKey: text('idempotency_key').notNull(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    bodyText: text('body_text').notNull(),
    bodyHtml: text('body_html'),
    // Where a reply goes when it is not the sender (a contact-form message: the visitor who wrote it).
    replyTo: text('reply_to'),
    locale: text('locale').notNull().default('en'),
    state: text('state').notNull().default('queued'),
    // 'smtp' when a real provider took it, 'local' when it stays in the local outbox only.
    transport: text('transport'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('outbox_messages_idempotency_key_unique').on(table.idempotencyKey),
    index('outbox_messages_due_idx').on(table.state, table.nextAttemptAt),
    check('outbox_messages_channel_check', sql`${table.channel} in ('email', 'sms')`),
    check('outbox_messages_state_check', sql`${table.state} in ('queued', 'sent', 'failed')`),
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
    topic: text('topic').notNull(),
    message: text('message').notNull(),
    locale: text('locale').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('contact_messages_created_at_idx').on(table.createdAt),
    check('contact_messages_topic_check', sql`${table.topic} in ('question', 'billing', 'privacy', 'misuse', 'other')`),
    check('contact_messages_locale_check', sql`${table.locale} in ('en', 'id')`),
  ],
);

/** Fixed-window counters for login and code throttling, shared by every instance through the database. */
export const authThrottles = pgTable('auth_throttles', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' }).notNull(),
});
