import { eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { registrations } from '../db/schema/billing';

// A sign-up attempt's row (or a renewal's by hand, which is kept the same way): the queries the sign-up and renewal
// routes make of it themselves; settling one is sign-ups.ts's and restarts.ts's.

export type RegistrationRow = typeof registrations.$inferSelect;

export async function insertRegistration(db: DatabaseExecutor, row: typeof registrations.$inferInsert): Promise<void> {
  await db.insert(registrations).values(row);
}

export async function findRegistration(db: DatabaseExecutor, id: string): Promise<RegistrationRow | undefined> {
  const [row] = await db.select().from(registrations).where(eq(registrations.id, id));
  return row;
}

/** The sign-up a form's submission made, by the id the form gave it (see registrations.attemptId). */
export async function findRegistrationByAttempt(
  db: DatabaseExecutor,
  attemptId: string,
): Promise<RegistrationRow | undefined> {
  const [row] = await db.select().from(registrations).where(eq(registrations.attemptId, attemptId));
  return row;
}

/** The provider's reference of a payment still pending (a Stripe PaymentIntent awaiting 3-D Secure). */
export async function setRegistrationProviderRef(
  db: DatabaseExecutor,
  id: string,
  providerRef: string,
  now: Date,
): Promise<void> {
  await db.update(registrations).set({ providerRef, updatedAt: now }).where(eq(registrations.id, id));
}
