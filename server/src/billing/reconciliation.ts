import type { PaymentProvider } from '../db/column-values';
import type { Database } from '../db/open-database';
import type { Logger } from '../lib/logger';
import type { MidtransProcessor } from '../payments/midtrans';
import type { PaypalProcessor } from '../payments/paypal';
import type { StripeProcessor } from '../payments/stripe';
import type { MessageOutbox } from '../messages/message-outbox';
import type { BillingConfig } from './billing-config';

const BATCH_LIMIT = 100;

/** What every reconciliation job (sign-ups, renewals, refunds owed) works with. */
export interface ReconciliationDeps {
  db: Database;
  outbox: MessageOutbox;
  config: BillingConfig;
  stripe: StripeProcessor | undefined;
  paypal: PaypalProcessor | undefined;
  midtrans?: MidtransProcessor | undefined;
  log: Logger;
  /** OPERATOR_EMAIL: told about a refund the provider refused, to make it by hand. */
  operatorEmail: string;
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
