import type { DatabaseExecutor } from '../db/open-database';
import { requestTokenHash } from '../requests/request-tokens';
import { requesterOfTokenHash } from './link-rows';

// Links remembered before the oldest is dropped.
const REMEMBERED_LINKS = 10_000;

/**
 * Who requested each link used on this instance: a request's requester never changes, so it is asked of the database
 * once per link and kept. Kept by the token itself, in this process's memory where the request carrying it is anyway
 * (the database finds the request by the token's hash, made only then): a live share's every position passes here,
 * and hashing its token each time cost more than the rest of the lookup. Only tokens that name a request are kept.
 * The recipient's routes use it to forget the requester's cached history on this instance before their answer is
 * sent (the database's notice follows on every instance).
 */
export class LinkRequesters {
  private readonly known = new Map<string, string>();

  constructor(private readonly db: DatabaseExecutor) {}

  /** The link's requester; undefined when the link names no request (unknown, or deleted). */
  async of(token: string): Promise<string | undefined> {
    const known = this.known.get(token);
    if (known !== undefined) return known;
    const userId = await requesterOfTokenHash(this.db, requestTokenHash(token));
    if (userId !== undefined) this.remember(token, userId);
    return userId;
  }

  /** The link's requester, learnt from a statement that read the request anyway: not asked of the database again. */
  know(token: string, userId: string): void {
    if (!this.known.has(token)) this.remember(token, userId);
  }

  private remember(token: string, userId: string): void {
    if (this.known.size >= REMEMBERED_LINKS) {
      // Maps iterate in insertion order: the first key is the oldest.
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
    this.known.set(token, userId);
  }
}
