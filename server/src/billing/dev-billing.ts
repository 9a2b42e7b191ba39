import type { Database } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import type { Billing } from './billing-services';
import { findUserByEmail } from '../auth/users';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import { processorsOf } from '../payments/processors';
import { sayBilling } from './billing-messages';
import { expireSubscriptionAt } from './dev-billing-rows';
import { subscriptionInfo } from './subscriptions';

// The local trial's and the end-to-end tests' subscription tools (routes/dev-billing): never on in production.

const say = messagesOf('devBilling');

/** What the tools use of the server: the database, billing, and the outbox the renewals' emails go to. */
export interface DevBillingDeps {
  db: Database;
  outbox: MessageOutbox;
  billing: Pick<Billing, 'clock' | 'sandbox' | 'stripe' | 'paypal' | 'midtrans' | 'runRenewals'>;
}

async function userIdOf(deps: DevBillingDeps, email: string): Promise<string> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new HttpError(404, say('noAccount'));
  return user.id;
}

/** Ends the account's subscription now (status expired), as a failed renewal would; 404 without account or one. */
export async function expireSubscriptionNow(deps: DevBillingDeps, email: string) {
  const userId = await userIdOf(deps, email);
  const now = deps.billing.clock.now();
  const updated = await expireSubscriptionAt(deps.db, userId, now);
  if (!updated) throw new HttpError(404, sayBilling('noSubscription'));
  return subscriptionInfo(updated, now, processorsOf(deps.billing));
}

/** One pass of the renewal job at `at` (default: the billing clock), for every account or the one of `email`. */
export async function runRenewalsNow(deps: DevBillingDeps, at: string | undefined, email: string | undefined) {
  const userId = email ? await userIdOf(deps, email) : undefined;
  const report = await deps.billing.runRenewals(at ? new Date(at) : undefined, userId);
  deps.outbox.kick();
  return report;
}
