import { and, eq, isNull } from 'drizzle-orm';
import type { WhatsAppFallback } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { locationRequests } from '../db/schema/location-requests';

// A WhatsApp request's SMS fallback as rows (whatsapp-fallback.ts).

/** The WhatsApp request whose message this is, with its requester's name, while nothing was done in its place. */
export async function lockWhatsAppRequestOfMessage(db: DatabaseExecutor, messageId: string) {
  const [row] = await db
    .select({
      id: locationRequests.id,
      userId: locationRequests.userId,
      target: locationRequests.target,
      locale: locationRequests.locale,
      note: locationRequests.note,
      consent: locationRequests.consent,
      expiresAt: locationRequests.expiresAt,
      displayName: users.displayName,
    })
    .from(locationRequests)
    .innerJoin(users, eq(users.id, locationRequests.userId))
    .where(
      and(
        eq(locationRequests.messageId, messageId),
        eq(locationRequests.sentByWhatsapp, true),
        isNull(locationRequests.whatsappFallback),
      ),
    )
    .for('update', { of: locationRequests });
  return row;
}

/** Records what was done instead; with an SMS, the request's message and its link's new token hash. */
export async function recordWhatsAppFallback(
  db: DatabaseExecutor,
  requestId: string,
  fallback: WhatsAppFallback,
  sms?: { messageId: string; tokenHash: string },
): Promise<void> {
  await db
    .update(locationRequests)
    .set({ whatsappFallback: fallback, ...(sms ? { messageId: sms.messageId, tokenHash: sms.tokenHash } : {}) })
    .where(eq(locationRequests.id, requestId));
}
