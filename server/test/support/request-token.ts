import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/open-database';
import { locationRequests } from '../../src/db/schema/location-requests';
import { outboxMessages } from '../../src/db/schema/outbox';
import { requestTokenHash } from '../../src/requests/request-tokens';

/**
 * The token of an SMS or email request, as its recipient has it: from the consent link in its message (the local
 * outbox keeps the whole text). The database holds only its hash, which must match.
 */
export async function tokenFromMessage(db: Database, requestId: string): Promise<string> {
  const [row] = await db
    .select({ tokenHash: locationRequests.tokenHash, body: outboxMessages.bodyText })
    .from(locationRequests)
    .innerJoin(outboxMessages, eq(outboxMessages.id, locationRequests.messageId))
    .where(eq(locationRequests.id, requestId));
  const token = /enter-link\?token=([\w-]+)/.exec(row?.body ?? '')?.[1];
  if (!row || !token) throw new Error(`request ${requestId} has no message carrying its consent link`);
  if (requestTokenHash(token) !== row.tokenHash) throw new Error('the message carries another request’s token');
  return token;
}

/** The token of a trackable link, from the URL its requester was given. */
export function tokenFromUrl(url: string): string {
  const token = new URL(url).searchParams.get('token');
  if (!token) throw new Error(`${url} carries no token`);
  return token;
}
