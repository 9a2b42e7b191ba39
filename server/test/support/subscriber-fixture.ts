import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createSession } from '../../src/auth/sessions';
import { users } from '../../src/db/schema/accounts';
import { subscriptions } from '../../src/db/schema/billing';

export interface TestRequester {
  userId: string;
  token: string;
  displayName: string;
  /** Headers that sign a request in as this user. */
  headers: { authorization: string };
}

/**
 * A signed-in user, with a subscription row as the billing code writes it (status and valid_until decide access).
 * `subscription: null` makes a user who never subscribed. The password hash is a placeholder: these users sign
 * in through the session made here, never with a password.
 */
export async function createRequester(
  app: FastifyInstance,
  options: {
    displayName?: string;
    subscription?: { status: 'trial' | 'active' | 'cancelled' | 'expired' | 'unsubscribed'; validUntil: Date } | null;
  } = {},
): Promise<TestRequester> {
  const displayName = options.displayName ?? 'Sari';
  const [user] = await app.db
    .insert(users)
    .values({ email: `requester-${randomUUID()}@example.com`, displayName, passwordHash: 'not-a-password-hash' })
    .returning({ id: users.id });
  if (!user) throw new Error('the test user was not created');
  const subscription =
    options.subscription === undefined
      ? { status: 'active' as const, validUntil: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000) }
      : options.subscription;
  if (subscription) {
    await app.db.insert(subscriptions).values({
      userId: user.id,
      status: subscription.status,
      provider: 'sandbox',
      currency: 'USD',
      firstDayAmount: 99,
      amount: 2999,
      periodDays: 30,
      currentPeriodStart: new Date(),
      validUntil: subscription.validUntil,
    });
  }
  const { token } = await createSession(app.db, user.id, 'jest');
  return { userId: user.id, token, displayName, headers: { authorization: token } };
}
