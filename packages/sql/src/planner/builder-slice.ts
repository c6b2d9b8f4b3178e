import { ConfigurationError } from '@pagewise/core';
import type { AdapterName } from '../adapter-name.js';

/**
 * The rows a builder's own `.limit()` / `.offset()` keep (Django's `qs[offset:offset + limit]`).
 * Pagination happens inside it: counts are the slice's size and offset windows are shifted and
 * cut to it, so a "top 5" builder never pages through the whole table.
 */
export interface BuilderSlice {
  readonly offset: number;
  /** `null`: an OFFSET without a LIMIT. */
  readonly limit: number | null;
}

/**
 * The value of a builder's LIMIT or OFFSET (`clause`) as a number of rows: `value` as the ORM's
 * tree holds it (`undefined` for an expression), a non-negative safe integer or a bigint of one.
 */
function clauseValue(value: unknown, clause: 'LIMIT' | 'OFFSET', adapter: AdapterName): number {
  const number = typeof value === 'bigint' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) {
    throw new ConfigurationError(
      `${adapter.name} adapter: the builder's ${clause} must be a non-negative integer value to page within it ` +
        `(got ${String(value ?? 'an expression')}); pass a number to .${clause.toLowerCase()}()`,
    );
  }
  return number;
}

/** A clause the builder has: its value (`undefined` for an expression), or `absent`. */
export type SliceClause = { readonly value: unknown } | null;

/**
 * The builder's slice from its LIMIT and OFFSET clauses (`null`: the builder has none), or `null`
 * when it has neither.
 * @example
 * sliceOf({ value: 5 }, null, KYSELY) // { offset: 0, limit: 5 }
 */
export function sliceOf(limit: SliceClause, offset: SliceClause, adapter: AdapterName): BuilderSlice | null {
  if (limit === null && offset === null) return null;
  return Object.freeze({
    offset: offset === null ? 0 : clauseValue(offset.value, 'OFFSET', adapter),
    limit: limit === null ? null : clauseValue(limit.value, 'LIMIT', adapter),
  });
}

/** How many of `total` rows the slice keeps. */
export function sliceCount(slice: BuilderSlice | null, total: number): number {
  if (slice === null) return total;
  const after = Math.max(0, total - slice.offset);
  return slice.limit === null ? after : Math.min(after, slice.limit);
}

/**
 * An offset window of the slice as a window of the whole query; `null` when it lies past the
 * slice's end (nothing to fetch).
 */
export function sliceWindow(
  slice: BuilderSlice | null,
  offset: number,
  limit: number | null,
): { offset: number; limit: number | null } | null {
  if (slice === null) return { offset, limit };
  const room = slice.limit === null ? null : slice.limit - offset;
  if (room !== null && room <= 0) return null;
  const cut = room === null ? limit : limit === null ? room : Math.min(limit, room);
  return { offset: slice.offset + offset, limit: cut };
}

/**
 * Keyset windows replace the builder's ordering, which would reorder the rows before the slice
 * is taken (Django: "Cannot reorder a query once a slice has been taken").
 */
export function refuseKeysetOnSlice(description: string, adapter: AdapterName): never {
  throw new ConfigurationError(
    `${adapter.name} adapter: cursor pagination cannot page a sliced builder (${description} has its own ` +
      "LIMIT/OFFSET): remove the builder's .limit()/.offset() and bound the page with pageSize / " +
      'maxPageSize, or page the slice with PageNumberPagination or LimitOffsetPagination',
  );
}
