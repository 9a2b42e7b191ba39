import type { PaymentProvider, RegistrationState } from '../db/column-values';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { registrations } from '../db/schema/billing';

// A sign-up attempt's row (or a renewal's by hand, which is kept the same way): the queries the sign-up and renewal
// routes make of it, and those that settle it; when to settle one, and how, is sign-ups.ts's and restarts.ts's.

export type RegistrationRow = typeof registrations.$inferSelect;
type RegistrationChanges = Partial<typeof registrations.$inferInsert>;

export async function insertRegistration(db: DatabaseExecutor, row: typeof registrations.$inferInsert): Promise<void> {
  await db.insert(registrations).values(row);
}

export async function findRegistration(db: DatabaseExecutor, id: string): Promise<RegistrationRow | undefined> {
  const [row] = await db.select().from(registrations).where(eq(registrations.id, id));
  return row;
}

/** The registration by its id, its row held until the transaction ends (a concurrent answer waits for this one). */
export async function lockRegistration(db: DatabaseExecutor, id: string): Promise<RegistrationRow | undefined> {
  const [row] = await db.select().from(registrations).where(eq(registrations.id, id)).for('update');
  return row;
}

/** The language the visitor signed up in. */
export async function registrationLocale(
  db: DatabaseExecutor,
  id: string,
): Promise<RegistrationRow['locale'] | undefined> {
  const [row] = await db.select({ locale: registrations.locale }).from(registrations).where(eq(registrations.id, id));
  return row?.locale;
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

export async function updateRegistration(
  db: DatabaseExecutor,
  id: string,
  changes: RegistrationChanges,
): Promise<void> {
  await db.update(registrations).set(changes).where(eq(registrations.id, id));
}

/**
 * Changes a registration only while it is in one of `states`, in one statement, so two answers cannot both settle
 * it: the provider it was made with, or undefined when it had left those states already.
 */
export async function updateRegistrationIn(
  db: DatabaseExecutor,
  id: string,
  states: RegistrationState[],
  changes: RegistrationChanges,
): Promise<PaymentProvider | undefined> {
  const [row] = await db
    .update(registrations)
    .set(changes)
    .where(and(eq(registrations.id, id), inArray(registrations.state, states)))
    .returning({ provider: registrations.provider });
  return row?.provider;
}

/**
 * Marks a created registration's auth code handed out at `now`, unless it was handed out already or the registration
 * was last updated before `updatedAfter`: the email to issue the code for, or null.
 */
export async function markAuthCodeIssued(
  db: DatabaseExecutor,
  id: string,
  now: Date,
  updatedAfter: Date,
): Promise<string | null> {
  const rows = await db
    .update(registrations)
    .set({ authCodeIssuedAt: now })
    .where(
      and(
        eq(registrations.id, id),
        eq(registrations.state, 'created'),
        sql`${registrations.authCodeIssuedAt} is null`,
        sql`${registrations.updatedAt} > ${updatedAfter}`,
      ),
    )
    .returning({ email: registrations.email });
  return rows[0]?.email ?? null;
}
