import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { oneOf } from '../column-values';
import { LOCALES } from '../../lib/messages';
import { createdAt } from './columns';

// The operators who run the safety desk: their own accounts (never a subscriber's), their second factor, their
// sessions and what they did.

/**
 * An operator: made by the `operator add` command, never by sign-up. Until enrolment finishes only the enrolment
 * token's hash is set; enrolment sets the password (Argon2id) and the TOTP secret, both sealed or hashed at rest.
 * `last_totp_step` is the 30-second step of the last code accepted: a code is never taken twice. Disabled
 * operators keep their row (the audit log names them) but cannot sign in.
 */
export const operators = pgTable(
  'operators',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Always stored lower-cased, so the unique index is case-insensitive in effect.
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    // The authenticator's secret, sealed with a key derived from the server's secret (operators/totp-secrets.ts).
    totpSecret: text('totp_secret'),
    // The secret shown by enrolment/begin, until enrolment/finish proves the authenticator has it.
    pendingTotpSecret: text('pending_totp_secret'),
    lastTotpStep: bigint('last_totp_step', { mode: 'number' }),
    enrolmentTokenHash: text('enrolment_token_hash'),
    enrolmentExpiresAt: timestamp('enrolment_expires_at', { withTimezone: true, mode: 'date' }),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true, mode: 'date' }),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    locale: text('locale', { enum: LOCALES }).notNull().default('en'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('operators_email_unique').on(table.email),
    uniqueIndex('operators_enrolment_token_unique')
      .on(table.enrolmentTokenHash)
      .where(sql`${table.enrolmentTokenHash} is not null`),
    check('operators_email_lower_case', sql`${table.email} = lower(${table.email})`),
    check('operators_locale_check', oneOf(table.locale, LOCALES)),
  ],
);

/** The one-time recovery codes enrolment hands out (a keyed hash of each), used up one by one. */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('operator_recovery_codes_operator_code_unique').on(table.operatorId, table.codeHash)],
);

/**
 * A signed-in operator: the token's sha256 only. Ends 30 minutes after the last request, 12 hours after sign-in at
 * the latest (`expires_at`), or when revoked (sign-out, the operator disabled).
 */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('operator_sessions_token_hash_unique').on(table.tokenHash),
    index('operator_sessions_operator_idx').on(table.operatorId),
  ],
);

/**
 * What operators did: append-only. A trigger refuses every update, and a delete of a row younger than the
 * retention period (OPERATOR_AUDIT_YEARS), which only the retention job deletes.
 */
export const operatorAuditLog = pgTable(
  'operator_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id'),
    note: text('note'),
    createdAt: createdAt(),
  },
  (table) => [index('operator_audit_log_created_at_idx').on(table.createdAt)],
);
