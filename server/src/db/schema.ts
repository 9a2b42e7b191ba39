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
  CONTACT_TOPICS,
  DEVICE_TYPES,
  oneOf,
  OUTBOX_CHANNELS,
  OUTBOX_STATES,
  PAYMENT_KINDS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATES,
  REFUND_REASONS,
  REFUND_REQUEST_STATES,
  REGISTRATION_STATES,
  REQUEST_CHANNELS,
  POSITION_SOURCES,
  REQUEST_STATUSES,
  SUBSCRIPTION_STATUSES,
  VERIFICATION_PURPOSES,
} from './column-values';
import { LOCALES } from '../lib/messages';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** Values the server itself owns (its RSA key pair, its secret), shared by every instance. */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

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
 * Messages to deliver: written with the change that causes them, delivered with retries by the dispatcher. A
 * location request's message carries its consent link only until a provider has taken it (or refused it for
 * good): the token in the stored body then becomes `[token]` (plugins/message-outbox.ts). In the local outbox it stays
 * whole, since reading it there is how a local trial opens the link.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    idempotencyKey: text('idempotency_key').notNull(),
    channel: text('channel', { enum: OUTBOX_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    bodyText: text('body_text').notNull(),
    bodyHtml: text('body_html'),
    // Where a reply goes when it is not the sender (a contact-form message: the visitor who wrote it).
    replyTo: text('reply_to'),
    // Deleted once a provider has taken it (or refused it for good): it goes to an address we no longer keep.
    eraseWhenSent: boolean('erase_when_sent').notNull().default(false),
    locale: text('locale').notNull().default('en'),
    state: text('state', { enum: OUTBOX_STATES }).notNull().default('queued'),
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
    check('outbox_messages_channel_check', oneOf(table.channel, OUTBOX_CHANNELS)),
    check('outbox_messages_state_check', oneOf(table.state, OUTBOX_STATES)),
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
  },
  (table) => [
    index('contact_messages_created_at_idx').on(table.createdAt),
    check('contact_messages_topic_check', oneOf(table.topic, CONTACT_TOPICS)),
    check('contact_messages_locale_check', oneOf(table.locale, LOCALES)),
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

// ---------------------------------------------------------------------------------------------------------------
// Accounts, subscriptions and payments. Amounts are integers in the currency's minor unit (cents; rupiah has none).

/**
 * One sign-up attempt (registerAndSign/*, registerQuery/{id}): the visitor's details, the provider and the
 * state the register result screen polls. `id` is the {id} of registerQuery: random, known only to the browser
 * that signed up. The auth code that logs the new user in is kept hashed in verification_codes.
 */
export const registrations = pgTable(
  'registrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    phone: text('phone'),
    locale: text('locale', { enum: LOCALES }).notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    state: text('state', { enum: REGISTRATION_STATES }).notNull().default('querying'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id'),
    // The provider's own reference (a Stripe PaymentIntent, a PayPal order), to match webhooks to the attempt.
    providerRef: text('provider_ref'),
    // Argon2id hash of the password chosen at sign-up, held only until the user exists (a provider may confirm
    // the payment later, by webhook); null once the user is created.
    passwordHash: text('password_hash'),
    // When registerQuery handed out the one-time auth code: it is handed out once.
    authCodeIssuedAt: timestamp('auth_code_issued_at', { withTimezone: true, mode: 'date' }),
    // The consent given in the sign-up form, copied to the user when the account is created.
    ageConfirmedAt: timestamp('age_confirmed_at', { withTimezone: true, mode: 'date' }),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true, mode: 'date' }),
    termsVersion: text('terms_version'),
    // When the reconciliation job last asked the provider about this attempt (its webhook is late).
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('registrations_provider_ref_idx').on(table.providerRef),
    index('registrations_querying_idx')
      .on(table.createdAt)
      .where(sql`${table.state} = 'querying'`),
    check('registrations_provider_check', oneOf(table.provider, PAYMENT_PROVIDERS)),
    check('registrations_state_check', oneOf(table.state, REGISTRATION_STATES)),
    check('registrations_locale_check', oneOf(table.locale, LOCALES)),
  ],
);

/** One subscription per user: trial, active, cancelled, expired or unsubscribed; access lasts until valid_until. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    // The provider's customer and saved payment method (never card data), to charge renewals.
    providerCustomerRef: text('provider_customer_ref'),
    providerPaymentMethodRef: text('provider_payment_method_ref'),
    currency: text('currency').notNull(),
    firstDayAmount: integer('first_day_amount').notNull(),
    amount: integer('amount').notNull(),
    periodDays: integer('period_days').notNull(),
    // How many periods have been charged: 0 = the first-day trial; renewal n charges period n exactly once.
    periodIndex: integer('period_index').notNull().default(0),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true, mode: 'date' }).notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true, mode: 'date' }).notNull(),
    reminderSentForPeriod: integer('reminder_sent_for_period'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('subscriptions_user_id_unique').on(table.userId),
    index('subscriptions_due_idx').on(table.status, table.validUntil),
    check('subscriptions_status_check', oneOf(table.status, SUBSCRIPTION_STATUSES)),
    check('subscriptions_provider_check', oneOf(table.provider, PAYMENT_PROVIDERS)),
  ],
);

/**
 * Every charge attempt. Kept when an account is deleted (the law asks for payment records), detached from the
 * person: user_id and subscription_id become null. Never a card number or CVV: at most brand and last four.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    registrationId: uuid('registration_id').references(() => registrations.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: PAYMENT_KINDS }).notNull(),
    periodIndex: integer('period_index').notNull(),
    // Sent to the provider as its idempotency key, and unique here: a period is charged exactly once.
    idempotencyKey: text('idempotency_key').notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    providerRef: text('provider_ref'),
    currency: text('currency').notNull(),
    amount: integer('amount').notNull(),
    state: text('state', { enum: PAYMENT_STATES }).notNull().default('pending'),
    failureCode: text('failure_code'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    // What the provider reports afterwards: money given back (minor units) and a dispute (chargeback) opened.
    refundedAmount: integer('refunded_amount').notNull().default(0),
    disputedAt: timestamp('disputed_at', { withTimezone: true, mode: 'date' }),
    // A renewal left pending: when the reconciliation job last asked its provider (its webhook did not come).
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
    // Money taken that we did not earn, given back by refunds-owed.ts: why (kept), and since when until refunded.
    refundReason: text('refund_reason', { enum: REFUND_REASONS }),
    refundOwedAt: timestamp('refund_owed_at', { withTimezone: true, mode: 'date' }),
    // A refund owed that the provider refused for good: when, and the provider's error code (left to the operator).
    refundFailedAt: timestamp('refund_failed_at', { withTimezone: true, mode: 'date' }),
    refundFailure: text('refund_failure'),
  },
  (table) => [
    uniqueIndex('payments_idempotency_key_unique').on(table.idempotencyKey),
    index('payments_refund_owed_idx')
      .on(table.refundOwedAt)
      .where(sql`${table.refundOwedAt} is not null`),
    index('payments_pending_idx')
      .on(table.createdAt)
      .where(sql`${table.state} = 'pending'`),
    index('payments_user_id_idx').on(table.userId),
    index('payments_provider_ref_idx').on(table.providerRef),
    check('payments_kind_check', oneOf(table.kind, PAYMENT_KINDS)),
    check('payments_state_check', oneOf(table.state, PAYMENT_STATES)),
    check('payments_provider_check', oneOf(table.provider, PAYMENT_PROVIDERS)),
    check('payments_refund_reason_check', oneOf(table.refundReason, REFUND_REASONS)),
  ],
);

/** Webhook events already handled: a replayed event finds its row and has no second effect. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('webhook_events_provider_event_unique').on(table.provider, table.eventId)],
);

/** Cancel-and-refund requests from /unsubscribe-and-refund, kept for the operator. */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    reason: text('reason').notNull(),
    locale: text('locale').notNull(),
    state: text('state', { enum: REFUND_REQUEST_STATES }).notNull().default('open'),
    createdAt: createdAt(),
  },
  (table) => [check('refund_requests_state_check', oneOf(table.state, REFUND_REQUEST_STATES))],
);

// ---------------------------------------------------------------------------------------------------------------
// Location requests, consent and positions.

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
    status: text('status', { enum: REQUEST_STATUSES }).notNull().default('pending'),
    consent: text('consent', { enum: CONSENT_STATES }).notNull().default('none'),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }),
    consentedAt: timestamp('consented_at', { withTimezone: true, mode: 'date' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    liveUntil: timestamp('live_until', { withTimezone: true, mode: 'date' }),
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
    index('location_requests_unkeyed_target_idx')
      .on(table.id)
      .where(sql`${table.target} is not null and ${table.targetHash} is null`),
    check('location_requests_channel_check', oneOf(table.channel, REQUEST_CHANNELS)),
    check('location_requests_status_check', oneOf(table.status, REQUEST_STATUSES)),
    check('location_requests_consent_check', oneOf(table.consent, CONSENT_STATES)),
    check('location_requests_locale_check', oneOf(table.locale, LOCALES)),
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
export const optOuts = pgTable('opt_outs', {
  targetHash: text('target_hash').primaryKey(),
  channel: text('channel').notNull(),
  createdAt: createdAt(),
});

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
 * stays known when the request is deleted; deleting the account detaches the report from it. Kept a year.
 */
export const abuseReports = pgTable('abuse_reports', {
  id: uuid('id').primaryKey().defaultRandom(),
  requestId: uuid('request_id').references(() => locationRequests.id, { onDelete: 'set null' }),
  requesterId: uuid('requester_id'),
  reason: text('reason').notNull(),
  details: text('details'),
  createdAt: createdAt(),
});

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
    place: jsonb('place'),
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
 * Live events for a requester (status changes, positions, consent withdrawn). The id is the SSE event id: a
 * reconnecting browser sends Last-Event-ID and gets what it missed. NOTIFY carries only the id; every instance
 * reads the row. Old events are pruned by the retention job.
 */
export const requestEvents = pgTable(
  'request_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id').references(() => locationRequests.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('request_events_user_id_idx').on(table.userId, table.id)],
);

/** Reverse-geocoding answers from a Nominatim-compatible service, cached as its usage policy asks. */
export const geocodeCache = pgTable('geocode_cache', {
  // An HMAC of the rounded position (reverse-geocode.ts): the key does not say where.
  key: text('key').primaryKey(),
  // The place's parts (geo/place.ts); null when the service knows no address there.
  place: jsonb('place'),
  createdAt: createdAt(),
});
