import { ConfigurationError } from '../errors.js';
import { positiveIntOr } from '../url/positive-int.js';
import type { QueryParams } from '../url/query-params.js';

/**
 * DRF's `get_page_size`: the client's size when `param` is set and the value is a positive integer
 * (clamped to `max`), otherwise `fallback`.
 *
 * @example
 * requestedPageSize(new QueryParams('page_size=500'), 'page_size', 100, 20) // 100
 */
export function requestedPageSize(
  params: QueryParams,
  param: string | null | undefined,
  max: number | null | undefined,
  fallback: number | null,
): number | null {
  if (!param) return fallback;
  return positiveIntOr(params.get(param), fallback, { strict: true, cutoff: max ?? null });
}

/** A page size the server configured: a positive integer, else a `ConfigurationError` naming `fn`. */
export function checkedPageSize(fn: string, size: number): number {
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new ConfigurationError(`${fn}: pageSize must be a positive integer, got ${size}`);
  }
  return size;
}
