import { AccountCache, type AccountCacheOptions } from '../auth/account-cache';
import type { LocationRequestView } from './view-types';

/**
 * What a request-events notification says when it is not an event: `list:<user id>`, sent by the database when a
 * change to what that user's request history shows commits (a trigger, migration 0033).
 */
export const LIST_CHANGED_PREFIX = 'list:';

export interface RequestListPage {
  items: LocationRequestView[];
  total: number;
}

export const DEFAULT_REQUEST_LIST_CACHE_OPTIONS: AccountCacheOptions = { ttlMs: 5_000, maxEntries: 5_000 };

/**
 * A short-lived cache, per instance, of each requester's history pages: the dashboard reads its list on every
 * visit and after every live event, and three database reads per call would cap it far below the rest of the API.
 * Each page is stored under its owner's id (and only read back for that id, which the session gives).
 *
 * Freshness, as the account cache's: the database announces every change to what a list shows, whichever instance
 * or job made it, and every instance forgets that user's pages; a read that raced such a change is not stored; the
 * requester's own writes forget them on this instance before their answer is sent; after the listening connection
 * came back everything is forgotten, and nothing is kept longer than `ttlMs`.
 */
export class RequestListCache {
  private readonly cache: AccountCache;
  /** The listening connection is lost: no notice would tell of a change, so nothing is served from memory. */
  private paused = false;

  constructor(options: AccountCacheOptions = DEFAULT_REQUEST_LIST_CACHE_OPTIONS) {
    this.cache = new AccountCache(options);
  }

  /** The page, from memory while fresh (not in a promise then), else `load()`'s. */
  page(
    userId: string,
    page: number,
    pageSize: number,
    load: () => Promise<RequestListPage>,
  ): RequestListPage | Promise<RequestListPage> {
    if (this.paused) return load();
    return this.cache.get(`${userId}:${page}:${pageSize}`, load, () => userId);
  }

  /** A `list:<user id>` notification: true when it was one (and that user's pages are forgotten). */
  heard(payload: string): boolean {
    if (!payload.startsWith(LIST_CHANGED_PREFIX)) return false;
    this.forgetUser(payload.slice(LIST_CHANGED_PREFIX.length));
    return true;
  }

  forgetUser(userId: string): void {
    this.cache.forgetUser(userId);
  }

  /** Notices may have been missed (the listening connection is back): forget every page, and cache again. */
  clear(): void {
    this.paused = false;
    this.cache.clear();
  }

  /** The listening connection is lost: forget every page, and read every page afresh until `clear()`. */
  pause(): void {
    this.paused = true;
    this.cache.clear();
  }

  get size(): number {
    return this.cache.size;
  }
}
