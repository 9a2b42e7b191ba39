import type { WebhookProvider } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { webhookEvents } from '../db/schema/billing';

/**
 * Records a provider's event id, inside the transaction of its effect: true the first time it is seen, false for a
 * replay (which then changes nothing).
 */
export async function firstDelivery(
  tx: DatabaseExecutor,
  provider: WebhookProvider,
  eventId: string,
  type: string,
): Promise<boolean> {
  const inserted = await tx
    .insert(webhookEvents)
    .values({ provider, eventId, type })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return inserted.length === 1;
}
