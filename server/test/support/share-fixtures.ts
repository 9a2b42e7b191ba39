import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/open-database';
import { users } from '../../src/db/schema/accounts';
import { locationRequests } from '../../src/db/schema/location-requests';
import { newRequestToken, requestTokenHash } from '../../src/requests/request-tokens';

export type RequestValues = Partial<typeof locationRequests.$inferInsert>;

/** A requester inserted directly (no sign-up), with the display name the consent page shows. */
export async function insertRequester(db: Database, displayName = 'Budi Santoso'): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({ email: `${randomUUID()}@kabari.test`, displayName, passwordHash: 'not-a-real-hash' })
    .returning({ id: users.id });
  if (!row) throw new Error('the user was not stored');
  return row.id;
}

/**
 * A location request as the request routes store it (only its token's hash): an SMS to a number unless `values`
 * says otherwise. Answers the row with the token, which the recipient would have from the message.
 */
export async function insertRequest(db: Database, userId: string, values: RequestValues = {}) {
  const token = newRequestToken();
  const [row] = await db
    .insert(locationRequests)
    .values({
      userId,
      channel: 'sms',
      target: '+628123456789',
      tokenHash: requestTokenHash(token),
      locale: 'en',
      expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
      ...values,
    })
    .returning();
  if (!row) throw new Error('the request was not stored');
  return { ...row, token };
}
