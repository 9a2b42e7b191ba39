import type { DatabaseExecutor } from '../db/open-database';
import { contactMessages } from '../db/schema/accounts';

/** Stores a contact-form message for the operator; answers its id and when it arrived. */
export async function insertContactMessage(db: DatabaseExecutor, values: typeof contactMessages.$inferInsert) {
  const [row] = await db
    .insert(contactMessages)
    .values(values)
    .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
  if (!row) throw new Error('the contact message was not stored');
  return row;
}
