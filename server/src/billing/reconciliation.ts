import { eq, isNull, lte, or, type AnyColumn, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentProvider } from '../db/column-values';
import type { Database } from '../db/open-database';
import type { payments, registrations } from '../db/schema/billing';
import type { PaypalProcessor } from '../payments/paypal';
import type { StripeProcessor } from '../payments/stripe';
import type { MessageOutbox } from '../messages/message-outbox';
import type { BillingConfig } from './billing-config';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * When the reconciliation jobs ask a provider about a payment its webhook has not settled (sign-ups and renews
 * after expiry by their registration, scheduled renewals by their payment):
 * - first after `firstCheckAfterMs` (the webhook normally comes within seconds), then every `recheckEveryMs`;
 * - a sign-up the payer has not finished after `abandonedAfterMs` (3-D Secure never completed, a PayPal order
 *   never approved: PayPal lets an unapproved order expire after 3 hours) is abandoned;
 * - a payment the provider still cannot settle after `unknownAfterMs` (still processing, or the provider cannot
 *   be asked) ends the polling; a definite answer arriving later (a webhook) still settles it.
 */
export const RECONCILIATION_LIMITS = {
  firstCheckAfterMs: 5 * MINUTE_MS,
  recheckEveryMs: 5 * MINUTE_MS,
  abandonedAfterMs: 3 * HOUR_MS,
  unknownAfterMs: 24 * HOUR_MS,
} as const;

const BATCH_LIMIT = 100;

/** What every reconciliation job (sign-ups, renewals, refunds owed) works with. */
export interface ReconciliationDeps {
  db: Database;
  outbox: MessageOutbox;
  config: BillingConfig;
  stripe: StripeProcessor | undefined;
  paypal: PaypalProcessor | undefined;
  log: FastifyBaseLogger;
  /** OPERATOR_EMAIL: told about a refund the provider refused, to make it by hand. */
  operatorEmail: string;
}

/** Not taken by any instance within the recheck interval (or never). */
export function notCheckedRecently(at: Date, checkedAt: AnyColumn): SQL {
  return or(isNull(checkedAt), lte(checkedAt, new Date(at.getTime() - RECONCILIATION_LIMITS.recheckEveryMs)))!;
}

/** Old enough to ask about, and not asked by any instance within the recheck interval. */
export function dueForCheck(at: Date, createdAt: AnyColumn, checkedAt: AnyColumn): SQL[] {
  return [
    lte(createdAt, new Date(at.getTime() - RECONCILIATION_LIMITS.firstCheckAfterMs)),
    notCheckedRecently(at, checkedAt),
  ];
}

/** The tables a reconciliation pass claims rows of: each row says when an instance last took it (checked_at). */
type ClaimedTable = typeof payments | typeof registrations;

/**
 * Claims one row for a pass: the first by `order` of those `where` selects, skipping rows another instance holds;
 * its checked_at moves to `at` in the same short transaction, so no other instance (nor this pass) takes it again
 * before the recheck interval. The provider is asked outside any transaction.
 */
export function claimNextRow<Table extends ClaimedTable>(
  db: Database,
  table: Table,
  where: SQL | undefined,
  order: AnyPgColumn,
  at: Date,
): Promise<Table['$inferSelect'] | undefined> {
  // One body for both tables: drizzle cannot type a query over a union of tables, which share these columns.
  const claimed = table as typeof payments;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(claimed)
      .where(where)
      .orderBy(order)
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return undefined;
    await tx.update(claimed).set({ checkedAt: at }).where(eq(claimed.id, row.id));
    return row as Table['$inferSelect'];
  });
}

/** How to ask each provider about one payment. */
interface ProviderQuestions<Answer> {
  stripe: (stripe: StripeProcessor) => Promise<Answer>;
  paypal: (paypal: PaypalProcessor) => Promise<Answer>;
}

/**
 * Asks the payment's provider; undefined when this instance has no keys for it (another instance, or a later
 * start, asks). An error (unreachable, an unknown payment) is `cannotTell`, logged with the provider's own message
 * only: its request carries credentials.
 */
export async function askProvider<Answer>(
  deps: Pick<ReconciliationDeps, 'stripe' | 'paypal' | 'log'>,
  provider: PaymentProvider,
  context: Record<string, string>,
  questions: ProviderQuestions<Answer>,
  cannotTell: Answer,
): Promise<Answer | undefined> {
  const { stripe, paypal } = deps;
  const ask =
    provider === 'stripe' && stripe
      ? () => questions.stripe(stripe)
      : provider === 'paypal' && paypal
        ? () => questions.paypal(paypal)
        : undefined;
  if (!ask) return undefined;
  try {
    return await ask();
  } catch (error) {
    deps.log.warn(
      { ...context, provider, message: (error as Error).message },
      'The payment provider could not be asked about a pending payment',
    );
    return cannotTell;
  }
}

/**
 * One pass: claims the next row (each claim is a short skip-locked transaction that moves its checked_at, so
 * several instances never ask about the same payment at once) and counts what handling it did, until none is
 * left or the batch is full.
 */
export async function runReconciliationPass<Row, Step extends string>(
  claimNext: () => Promise<Row | undefined>,
  handle: (row: Row) => Promise<Step>,
  report: { checked: number } & Record<Step, number>,
): Promise<void> {
  for (let index = 0; index < BATCH_LIMIT; index += 1) {
    const row = await claimNext();
    if (!row) break;
    report.checked += 1;
    const step = await handle(row);
    (report as Record<Step, number>)[step] += 1;
  }
}
