import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  LOCAL_CHANNELS,
  oneOf,
  PAYMENT_KINDS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATES,
  REFUND_REASONS,
  REFUND_REQUEST_STATES,
  REGISTRATION_STATES,
  SUBSCRIPTION_STATUSES,
  WEBHOOK_PROVIDERS,
} from '../column-values';
import { LOCALES } from '../../lib/messages';
import { createdAt } from './columns';
import { users } from './accounts';

// Sign-ups, subscriptions and payments. Amounts are integers in the currency's minor unit (cents; rupiah has none).

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
    // The sign-up form's own id for this submission: the page sends it again when the first answer was lost, and
    // gets this attempt back instead of paying a second time. Null for a client that sends none.
    attemptId: uuid('attempt_id'),
    // When the reconciliation job last asked the provider about this attempt (its webhook is late).
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('registrations_provider_ref_idx').on(table.providerRef),
    uniqueIndex('registrations_attempt_id_idx').on(table.attemptId),
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
    // Renews only when paid: the period the last reminder to pay went out for, and how many days before its end (7,
    // then 1), so each goes once per period.
    payReminderPeriod: integer('pay_reminder_period'),
    payReminderDays: integer('pay_reminder_days'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    // Set while a dispute of one of its charges has ended the subscription: that payment, and the status and end of
    // period it had, so that a dispute the operator wins gives them back.
    disputedPaymentId: uuid('disputed_payment_id'),
    statusBeforeDispute: text('status_before_dispute', { enum: SUBSCRIPTION_STATUSES }),
    validUntilBeforeDispute: timestamp('valid_until_before_dispute', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('subscriptions_user_id_unique').on(table.userId),
    index('subscriptions_due_idx').on(table.status, table.validUntil),
    check('subscriptions_status_check', oneOf(table.status, SUBSCRIPTION_STATUSES)),
    check('subscriptions_provider_check', oneOf(table.provider, PAYMENT_PROVIDERS)),
    check('subscriptions_status_before_dispute_check', oneOf(table.statusBeforeDispute, SUBSCRIPTION_STATUSES)),
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
    // The operator's reference for a refund they made by hand, outside Kabari (marked refunded in the console).
    refundReference: text('refund_reference'),
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

/**
 * What a payment the payer completes in their own app (QRIS, an e-wallet, a virtual account) shows while it waits,
 * one per attempt (a sign-up, or a renewal by hand): kept so that a visitor who closed the page and came back sees
 * the same code or account number, and so that it ends at its expiry. The attempt's id is the gateway's order id.
 */
export const localPayments = pgTable(
  'local_payments',
  {
    registrationId: uuid('registration_id')
      .primaryKey()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: LOCAL_CHANNELS }).notNull(),
    currency: text('currency').notNull(),
    amount: integer('amount').notNull(),
    qrString: text('qr_string'),
    deeplinkUrl: text('deeplink_url'),
    vaNumber: text('va_number'),
    billerCode: text('biller_code'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [check('local_payments_channel_check', oneOf(table.channel, LOCAL_CHANNELS))],
);

/** Webhook events already handled: a replayed event finds its row and has no second effect. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider', { enum: WEBHOOK_PROVIDERS }).notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('webhook_events_provider_event_unique').on(table.provider, table.eventId),
    check('webhook_events_provider_check', oneOf(table.provider, WEBHOOK_PROVIDERS)),
  ],
);

/** Cancel-and-refund requests from /unsubscribe-and-refund, kept for the operator. */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    reason: text('reason').notNull(),
    locale: text('locale', { enum: LOCALES }).notNull(),
    state: text('state', { enum: REFUND_REQUEST_STATES }).notNull().default('open'),
    createdAt: createdAt(),
    // When the operator refunded it (through the processor, or by hand with their reference).
    refundedAt: timestamp('refunded_at', { withTimezone: true, mode: 'date' }),
    refundReference: text('refund_reference'),
  },
  (table) => [
    check('refund_requests_state_check', oneOf(table.state, REFUND_REQUEST_STATES)),
    check('refund_requests_locale_check', oneOf(table.locale, LOCALES)),
  ],
);
