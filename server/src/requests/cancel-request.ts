import type { Database } from '../db/open-database';
import { findOwnedRequest, publishRequestChange, type LinkUrlSource } from './location-request-view';
import { deleteOwnedRequestRow, markOwnedRequestCancelled } from './request-rows';
import type { LocationRequestView } from './view-types';

/** The consent states a cancel changes: not yet answered, sharing, or stopped for now (the link still opens). */
export const CANCELLABLE_CONSENTS = ['none', 'sharing', 'stopped'] as const;

export interface CancelOutcome {
  request: LocationRequestView;
  /** false: the request had already ended (declined, withdrawn, cancelled) and is answered as it is. */
  cancelled: boolean;
}

/**
 * Cancels one of the owner's requests, of any channel: its link stops working and any live sharing ends.
 * undefined when it does not exist or belongs to someone else (the caller answers both alike).
 */
export async function cancelOwnedRequest(
  db: Database,
  userId: string,
  requestId: string,
  links: LinkUrlSource,
): Promise<CancelOutcome | undefined> {
  return db.transaction(async (tx) => {
    const cancelled = await markOwnedRequestCancelled(tx, userId, requestId, [...CANCELLABLE_CONSENTS], new Date());
    if (cancelled) await publishRequestChange(tx, userId, requestId);
    const request = await findOwnedRequest(tx, userId, requestId, links);
    return request ? { request, cancelled } : undefined;
  });
}

/**
 * Deletes one of the owner's requests with its positions and events (its tombstone stays, written by the database):
 * false when it does not exist or belongs to someone else (the caller answers both alike).
 */
export async function deleteOwnedRequest(db: Database, userId: string, requestId: string): Promise<boolean> {
  return deleteOwnedRequestRow(db, userId, requestId);
}
