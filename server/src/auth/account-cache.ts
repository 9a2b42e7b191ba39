/**
 * A short-lived cache, per instance, of who a session token belongs to and of each user's subscription: GET
 * subscribe/info runs on every protected navigation, and two database reads per call would cap it far below
 * the rest of the API.
 *
 * Freshness: the database announces every change to a user, a session or a subscription on the
 * `kabari_account_changes` channel (a trigger, migration 0004), whichever instance or job made it, and every
 * instance forgets that user's entries. A read that raced such a change is not stored, and nothing is kept longer than `ttlMs`, so a notice missed while the
 * listening connection was down costs at most that long. Writes never rely on it: the auth plugin reads the
 * session afresh for anything but GET and HEAD.
 */
export const ACCOUNT_CHANGES_CHANNEL = 'kabari_account_changes';

interface Entry<T> {
  value: T;
  userId: string | null;
  storedAt: number;
}

export interface AccountCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

export const DEFAULT_ACCOUNT_CACHE_OPTIONS: AccountCacheOptions = { ttlMs: 5_000, maxEntries: 20_000 };

export class AccountCache {
  private readonly entries = new Map<string, Entry<unknown>>();
  private readonly keysByUser = new Map<string, Set<string>>();
  /** When (in notices counted) each user last changed; only needed while a load is in flight. */
  private readonly changedAt = new Map<string, number>();
  private notices = 0;
  private loading = 0;
  private epoch = 0;
  private readonly now: () => number;

  constructor(private readonly options: AccountCacheOptions = DEFAULT_ACCOUNT_CACHE_OPTIONS) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The cached value for `key`, else `load()`'s, stored unless a change to its user was announced meanwhile.
   * `userOf` names the user the value belongs to (null: nobody, e.g. an unknown token, kept for `ttlMs` only).
   * A value still fresh is returned as it is, not in a promise (`await` takes either): the usual case, on every
   * protected navigation, then costs no promise of its own.
   */
  get<T>(key: string, load: () => Promise<T>, userOf: (value: T) => string | null): T | Promise<T> {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.storedAt < this.options.ttlMs) return entry.value as T;
    if (entry) this.delete(key);
    return this.load(key, load, userOf);
  }

  private async load<T>(key: string, load: () => Promise<T>, userOf: (value: T) => string | null): Promise<T> {
    const epoch = this.epoch;
    const noticesBefore = this.notices;
    this.loading += 1;
    try {
      const value = await load();
      const userId = userOf(value);
      const raced = epoch !== this.epoch || (userId !== null && (this.changedAt.get(userId) ?? 0) > noticesBefore);
      if (!raced) this.store(key, value, userId);
      return value;
    } finally {
      this.loading -= 1;
      if (this.loading === 0) this.changedAt.clear();
    }
  }

  /** A change to this user was announced: forget every entry that belongs to them. */
  forgetUser(userId: string): void {
    this.notices += 1;
    if (this.loading > 0) this.changedAt.set(userId, this.notices);
    for (const key of this.keysByUser.get(userId) ?? []) this.entries.delete(key);
    this.keysByUser.delete(userId);
  }

  /** Notices may have been missed (the listening connection dropped): forget everything. */
  clear(): void {
    this.epoch += 1;
    this.entries.clear();
    this.keysByUser.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, value: unknown, userId: string | null): void {
    if (this.entries.size >= this.options.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    this.entries.set(key, { value, userId, storedAt: this.now() });
    if (userId !== null) {
      let keys = this.keysByUser.get(userId);
      if (!keys) this.keysByUser.set(userId, (keys = new Set()));
      keys.add(key);
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (entry?.userId) this.keysByUser.get(entry.userId)?.delete(key);
  }
}
