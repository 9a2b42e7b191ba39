import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { payments } from './billing';
import { abuseReports } from './location-requests';

// What the operator's safety desk keeps beside the tables it acts on (safety-desk/).

/**
 * A requester the operator suspended: while it stands (lifted_at null) the account cannot sign in or send, its
 * renewals stop, and sign-up refuses its email, kept here only as a keyed hash (lib/keyed-hash.ts) so that erasing
 * the account does not free the address. `refund_payment_id` is the payment owed back because of it, if any. The
 * operator ids have no foreign key: the audit log names them, and it outlives an operator's removal.
 */
export const accountSuspensions = pgTable(
  'account_suspensions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    emailHash: text('email_hash').notNull(),
    reportId: uuid('report_id').references(() => abuseReports.id, { onDelete: 'set null' }),
    note: text('note').notNull(),
    suspendedAt: timestamp('suspended_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    suspendedBy: uuid('suspended_by'),
    refundPaymentId: uuid('refund_payment_id').references(() => payments.id, { onDelete: 'set null' }),
    liftedAt: timestamp('lifted_at', { withTimezone: true, mode: 'date' }),
    liftedBy: uuid('lifted_by'),
    liftNote: text('lift_note'),
  },
  (table) => [
    // One standing suspension per account.
    uniqueIndex('account_suspensions_standing_user_unique')
      .on(table.userId)
      .where(sql`${table.liftedAt} is null and ${table.userId} is not null`),
    index('account_suspensions_standing_email_idx')
      .on(table.emailHash)
      .where(sql`${table.liftedAt} is null`),
    index('account_suspensions_suspended_at_idx').on(table.suspendedAt),
  ],
);
