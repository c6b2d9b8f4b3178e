import { ConfigurationError } from '@pagewise/core';
import { type OperationNode, type SelectQueryNode, ValueNode } from 'kysely';
import { Slot } from './window-compiler.js';

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

function clauseValue(node: OperationNode, base: readonly unknown[], clause: string): number {
  const value = ValueNode.is(node)
    ? node.value instanceof Slot && node.value.base
      ? base[node.value.index]
      : node.value
    : undefined;
  const number = typeof value === 'bigint' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) {
    throw new ConfigurationError(
      `kysely adapter: the builder's ${clause} must be a non-negative integer value to page within it ` +
        `(got ${String(value ?? 'an expression')}); pass a number to .${clause.toLowerCase()}()`,
    );
  }
  return number;
}

/**
 * The builder's slice, or `null` when it has neither LIMIT nor OFFSET. `base` holds the values
 * the adapter lifted out of the builder's clauses (`Slot`s with `base`).
 */
export function readSlice(node: SelectQueryNode, base: readonly unknown[]): BuilderSlice | null {
  if (node.limit === undefined && node.offset === undefined) return null;
  return Object.freeze({
    offset: node.offset === undefined ? 0 : clauseValue(node.offset.offset, base, 'OFFSET'),
    limit: node.limit === undefined ? null : clauseValue(node.limit.limit, base, 'LIMIT'),
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
export function refuseKeysetOnSlice(description: string): never {
  throw new ConfigurationError(
    `kysely adapter: cursor pagination cannot page a sliced builder (${description} has its own ` +
      "LIMIT/OFFSET): remove the builder's .limit()/.offset() and bound the page with pageSize / " +
      'maxPageSize, or page the slice with PageNumberPagination or LimitOffsetPagination',
  );
}
