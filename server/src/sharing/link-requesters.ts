import type { DatabaseExecutor } from '../db/open-database';
import { requestTokenHash } from '../requests/request-tokens';
import { requesterOfTokenHash } from './link-rows';

// Links remembered before the oldest is dropped.
const REMEMBERED_LINKS = 10_000;

/**
 * Who requested each link used on this instance, by its token's hash: a request's requester never changes, so it is
 * asked of the database once per link and kept. The recipient's routes use it to forget the requester's cached
 * history on this instance before their answer is sent (the database's notice follows on every instance).
 */
export class LinkRequesters {
  private readonly known = new Map<string, string>();

  constructor(private readonly db: DatabaseExecutor) {}

  /** The link's requester; undefined when the link names no request (unknown, or deleted). */
  async of(token: string): Promise<string | undefined> {
    const tokenHash = requestTokenHash(token);
    const known = this.known.get(tokenHash);
    if (known !== undefined) return known;
    const userId = await requesterOfTokenHash(this.db, tokenHash);
    if (userId !== undefined) this.remember(tokenHash, userId);
    return userId;
  }

  /** The link's requester, learnt from a statement that read the request anyway: not asked of the database again. */
  know(token: string, userId: string): void {
    const tokenHash = requestTokenHash(token);
    if (!this.known.has(tokenHash)) this.remember(tokenHash, userId);
  }

  private remember(tokenHash: string, userId: string): void {
    if (this.known.size >= REMEMBERED_LINKS) {
      // Maps iterate in insertion order: the first key is the oldest.
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
    this.known.set(tokenHash, userId);
  }
}
