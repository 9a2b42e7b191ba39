import { createSession } from '../../src/auth/sessions';
import { createUser } from '../../src/auth/users';
import type { Database } from '../../src/db/open-database';
import { locationRequests } from '../../src/db/schema/location-requests';
import { newRequestToken, requestTokenHash } from '../../src/requests/request-tokens';

/** A requester with a session token (as login would hand out). */
export async function signedInRequester(
  db: Database,
  email: string,
): Promise<{ userId: string; token: string; sessionId: string }> {
  const user = await createUser(db, { email, displayName: email.split('@')[0] ?? 'Requester', password: 'secret-123' });
  const { token, sessionId } = await createSession(db, user.id, 'jest');
  return { userId: user.id, token, sessionId };
}

/** A link request owned by the user, as POST /api/v1/links stores it. */
export async function linkRequest(db: Database, userId: string): Promise<string> {
  const [row] = await db
    .insert(locationRequests)
    .values({
      userId,
      channel: 'link',
      title: 'Family',
      tokenHash: requestTokenHash(newRequestToken()),
      locale: 'en',
      expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
    })
    .returning({ id: locationRequests.id });
  if (!row) throw new Error('the request was not stored');
  return row.id;
}
