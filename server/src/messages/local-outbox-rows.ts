import { desc, eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { outboxMessages } from '../db/schema/outbox';

/** The newest messages in the outbox, to one recipient or to anyone. */
export function latestOutboxMessages(db: DatabaseExecutor, recipient: string | undefined, limit: number) {
  return db
    .select()
    .from(outboxMessages)
    .where(recipient ? eq(outboxMessages.recipient, recipient) : undefined)
    .orderBy(desc(outboxMessages.createdAt))
    .limit(limit);
}
