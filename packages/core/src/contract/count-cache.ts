import { ConfigurationError } from '../errors.js';
import type { CountResult } from './ordered-query.js';

/** Options of a `CountCache`. */
export interface CountCacheOptions {
  /** How long a count is reused after it was taken, in milliseconds (more than 0). */
  ttlMs: number;
  /** Most query shapes kept; past it the oldest entry goes first. @default 1000 */
  maxEntries?: number;
  /** The clock, in milliseconds (tests pass a fake one). @default Date.now */
  now?: () => number;
}

/** A count as a cache answered it. */
export interface CachedCountResult extends CountResult {
  /** Whether the count was taken for an earlier request (or one running alongside). */
  readonly cached: boolean;
  /** Milliseconds since the count was taken: 0 when it was taken for this request. */
  readonly ageMs: number;
}

interface Entry {
  readonly at: number;
  readonly result: Promise<CountResult>;
}

/**
 * Counts (exact or estimated) reused per query for `ttlMs`, so a page-number page need not count
 * again on every request. Keys come from the adapter (`OrderedQuery.countKey`: the query's SQL
 * shape and its values), so two filters never share a count. A count still being taken is shared
 * by the requests that ask meanwhile (one count, not a stampede); a failed count is not kept.
 *
 * The cache is an ordinary object the application owns: give one to several paginations to share
 * it, or let `countCacheTtl` make one per pagination. Keys do not name the database, so share a
 * cache only among paginations over the same database.
 *
 * @example
 * const counts = new CountCache({ ttlMs: 30_000 });
 * const pagination = new PageNumberPagination({ pageSize: 20, count: 'estimated', countCache: counts });
 */
export class CountCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: CountCacheOptions) {
    const { ttlMs, maxEntries = 1000, now = Date.now } = options;
    if (!(typeof ttlMs === 'number' && ttlMs > 0 && Number.isFinite(ttlMs))) {
      throw new ConfigurationError(
        `CountCache: ttlMs must be a positive number of milliseconds, got ${ttlMs}`,
      );
    }
    if (!(Number.isSafeInteger(maxEntries) && maxEntries > 0)) {
      throw new ConfigurationError(`CountCache: maxEntries must be a positive integer, got ${maxEntries}`);
    }
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.#now = now;
    Object.freeze(this);
  }

  /** Query shapes held now (fresh or not yet evicted). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The count stored under `key` while it is fresh; otherwise `count()` is called and its result
   * stored.
   *
   * @example
   * const { value, cached, ageMs } = await cache.lookup(key, () => query.count({ estimate: true }));
   */
  async lookup(key: string, count: () => Promise<CountResult>): Promise<CachedCountResult> {
    const now = this.#now();
    const found = this.#entries.get(key);
    if (found !== undefined && now - found.at < this.ttlMs) {
      const result = await found.result;
      return { value: result.value, exact: result.exact, cached: true, ageMs: Math.max(0, now - found.at) };
    }
    const entry: Entry = { at: now, result: count() };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#evict(now);
    try {
      const result = await entry.result;
      return { value: result.value, exact: result.exact, cached: false, ageMs: 0 };
    } catch (error) {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
      throw error;
    }
  }

  /** Forgets every count (after a bulk write, say). */
  clear(): void {
    this.#entries.clear();
  }

  /** Drops stale entries, then the oldest ones past `maxEntries` (a Map iterates oldest first). */
  #evict(now: number): void {
    if (this.#entries.size <= this.maxEntries) return;
    for (const [key, entry] of this.#entries) {
      if (now - entry.at >= this.ttlMs) this.#entries.delete(key);
    }
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.maxEntries) break;
      this.#entries.delete(key);
    }
  }
}
