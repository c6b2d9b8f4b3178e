import { ConfigurationError } from '../errors.js';
import { type CachedCountResult, CountCache } from './count-cache.js';
import type { OrderedQuery } from './ordered-query.js';

/** How a page finds its total: `exact` counts, `estimated` asks the adapter, `none` skips it. */
export type CountMode = 'exact' | 'estimated' | 'none';

/** The count options every style takes (cursor styles default to `'none'`, page numbers to `'exact'`). */
export interface PageCountOptions {
  /** How the total is found. */
  count?: CountMode;
  /**
   * Reuses each query's count for this many milliseconds. The cache lives with this options
   * object (kept on it, not enumerable), so define the options once, not per request.
   * @default null (count on every request)
   */
  countCacheTtl?: number | null;
  /** A count cache to use (its own `ttlMs` applies); wins over `countCacheTtl`. @default null */
  countCache?: CountCache | null;
  /**
   * Milliseconds an exact count may run: one still running then is cancelled on the server and
   * the estimate answered instead, with `countMode: 'estimated'`. @default null (no limit)
   */
  countTimeout?: number | null;
}

/** What a page says of its count: the total, how it was found, and how old a cached one is. */
export interface PageCountFields {
  readonly count: number | null;
  readonly countMode: CountMode;
  readonly countAgeMs: number | null;
}

/** Where `countCacheTtl` keeps its cache: on the options object, out of sight. */
const OWN_COUNT_CACHE = Symbol('pagewise.countCache');

/**
 * `countCache`, else the cache `countCacheTtl` keeps on the options object (a bad TTL is
 * refused); `null` with neither, or with `count: 'none'`.
 */
export function countCacheOf(name: string, options: PageCountOptions, mode: CountMode): CountCache | null {
  if (mode === 'none') return null;
  if (options.countCache) return options.countCache;
  const ttl = options.countCacheTtl ?? null;
  if (ttl === null) return null;
  const holder = options as { [OWN_COUNT_CACHE]?: CountCache };
  const own = holder[OWN_COUNT_CACHE];
  if (own !== undefined && own.ttlMs === ttl) return own;
  const cache = new CountCache({ ttlMs: ttl });
  if (!Object.isExtensible(options)) {
    throw new ConfigurationError(
      `${name}: countCacheTtl keeps its cache on the options object, which is frozen; pass countCache: new CountCache({ ttlMs }) instead`,
    );
  }
  Object.defineProperty(options, OWN_COUNT_CACHE, { value: cache, configurable: true });
  return cache;
}

/** `countTimeout`, checked: a positive integer of milliseconds, or `null`. */
export function countTimeoutOf(name: string, options: PageCountOptions): number | null {
  const timeout = options.countTimeout ?? null;
  if (timeout !== null && !(Number.isSafeInteger(timeout) && timeout > 0)) {
    throw new ConfigurationError(
      `${name}: countTimeout must be a positive integer of milliseconds, got ${timeout}`,
    );
  }
  return timeout;
}

/** How a page function counts, its options checked: the mode, the cache and the timeout. */
export interface CountPlan {
  readonly mode: CountMode;
  readonly cache: CountCache | null;
  readonly timeout: number | null;
  /** Takes the count (see `takeCount`); `null` with `count: 'none'`. */
  readonly take: (() => Promise<CachedCountResult>) | null;
}

/**
 * `count`, `countCacheTtl` / `countCache` and `countTimeout` of `options`, checked, with the
 * thunk that takes the count of `query` (`null` when nothing is counted).
 *
 * @example
 * const { take } = countPlan('cursorPage', query, options, 'none');
 */
export function countPlan(
  name: string,
  query: OrderedQuery<unknown>,
  options: PageCountOptions,
  fallback: CountMode,
): CountPlan {
  const mode = countModeOf(name, options.count, fallback);
  const cache = countCacheOf(name, options, mode);
  const timeout = countTimeoutOf(name, options);
  const take = mode === 'none' ? null : () => takeCount(query, mode, cache, timeout);
  return { mode, cache, timeout, take };
}

/** `count` checked: one of the three modes. */
export function countModeOf(name: string, mode: CountMode | undefined, fallback: CountMode): CountMode {
  const chosen = mode ?? fallback;
  if (chosen !== 'exact' && chosen !== 'estimated' && chosen !== 'none') {
    throw new ConfigurationError(
      `${name}: count must be 'none', 'estimated' or 'exact', got ${String(chosen)}`,
    );
  }
  return chosen;
}

/**
 * The query's count in `mode` (not `'none'`), through `cache` when the adapter keys its counts:
 * an exact one bounded by `timeoutMs` (the adapter answers its estimate past it).
 *
 * @example
 * const counted = await takeCount(query, 'exact', null, 500); // { value, exact, cached, ageMs }
 */
export async function takeCount(
  query: OrderedQuery<unknown>,
  mode: 'exact' | 'estimated',
  cache: CountCache | null,
  timeoutMs: number | null,
): Promise<CachedCountResult> {
  const options = mode === 'estimated' ? { estimate: true } : timeoutMs === null ? {} : { timeoutMs };
  const key = cache === null ? null : (query.countKey?.() ?? null);
  if (key !== null) return cache!.lookup(`${mode}:${key}`, () => query.count(options));
  const result = await query.count(options);
  return { value: result.value, exact: result.exact, cached: false, ageMs: 0 };
}

/** A page's count fields from what was counted (`null`: not counted). */
export function countFieldsOf(counted: CachedCountResult | null): PageCountFields {
  if (counted === null) return { count: null, countMode: 'none', countAgeMs: null };
  return {
    count: counted.value,
    countMode: counted.exact ? 'exact' : 'estimated',
    countAgeMs: counted.cached ? counted.ageMs : null,
  };
}

/**
 * The count keys of a body, as page numbers write them: `{ count }` when exact and fresh,
 * `{ count, countMode }` when not exact, `{ count, countMode, countAge }` (whole seconds) when a
 * count cache answered.
 */
export function countKeys(fields: PageCountFields): {
  count: number | null;
  countMode?: CountMode;
  countAge?: number;
} {
  const { count, countMode, countAgeMs } = fields;
  if (countAgeMs !== null) return { count, countMode, countAge: Math.floor(countAgeMs / 1000) };
  return countMode === 'exact' ? { count } : { count, countMode };
}
