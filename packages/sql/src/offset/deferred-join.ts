import { identifier, join, type SqlPart, sql } from '../fragment/fragment.js';
import { Slot } from '../fragment/slot.js';
import type { OrderItem } from '../keyset/order-items.js';
import type { PrivateSelection } from '../keyset/statement.js';

// A deferred-join offset window (Laravel's fast-paginate, kysely-paginate's
// `experimental_deferredJoinPrimaryKey`): the page's keys first, by LIMIT/OFFSET over the query's
// own FROM, JOINs and WHERE, selecting nothing but the key columns (an index-only scan where an
// index holds the ordering and the key); then the rows of those keys. MySQL refuses LIMIT inside
// `IN (subquery)`, so the keys are a derived table the query joins, which every dialect takes:
//
//   select <selection> from <from, joins>
//     join (select <key> as "pagewisek0" from <from, joins> where <where>
//           order by <ordering>, <key> limit ? offset ?) as "pagewisekeys"
//       on <key> = "pagewisekeys"."pagewisek0"
//   where <where> order by <ordering>, <key>
//
// Both ORDER BYs end with the key columns the ordering lacks: the inner one picks the page's keys,
// the outer one puts their rows in the same order, and ties fall the same way in both.

/** The alias of the derived table of a page's keys. */
export const KEYS_TABLE = 'pagewisekeys';

/**
 * The column of key column `index` in the derived table of keys (a private column: a `select *`
 * of the outer query reads it too, and the rows are stripped of it).
 * @example
 * keyColumn(0) // 'pagewisek0'
 */
export function keyColumn(index: number): string {
  return `pagewisek${index}`;
}

/** One column of the unique key, as the query has it. */
export interface KeyPart {
  /** The field, as orderings name it. */
  readonly field: string;
  /** Its expression in the query (an ORM node, `node(...)`). */
  readonly expr: SqlPart;
}

/** The ordering of a deferred window: its ORDER BY items and what the key join appends to them. */
export interface DeferredOrdering {
  /** The ordering's items; `null`: the query's own ORDER BY, as written (the adapter keeps it). */
  readonly items: readonly OrderItem[] | null;
  /** The fields it orders by, as far as they are known: a key column among them is not appended. */
  readonly fields: readonly string[];
  /** The direction of its last item (key columns follow it, so one index serves both ways). @default 'asc' */
  readonly direction?: 'asc' | 'desc';
}

/**
 * A deferred-join offset window as a value, which an ORM lowers over the query's core (no ORDER BY,
 * LIMIT, OFFSET): the inner select is the core with `keys` as its only selection, without its
 * WITH, ordered by `orderBy` (the query's own items where `null`) then `tiebreak`, limited by
 * `limit` and `offset`; the outer is the core, its WITH kept, inner-joined to the inner as
 * `KEYS_TABLE` on `on`, ordered alike.
 */
export interface DeferredJoinStatement {
  readonly keys: readonly PrivateSelection[];
  readonly on: SqlPart;
  readonly orderBy: readonly OrderItem[] | null;
  /** The key columns the ordering lacks, after its items, in its last direction. */
  readonly tiebreak: readonly OrderItem[];
  /** Slot 0, or `null` for every row. */
  readonly limit: Slot | null;
  /** Slot 1, or `null` for none. */
  readonly offset: Slot | null;
}

/**
 * The deferred-join window of `key` (one part per key column) under `ordering`.
 *
 * @example
 * deferredJoinStatement([{ field: 'id', expr: node(id) }], { items, fields: ['created'], direction: 'desc' },
 *   { limit: true, offset: true })
 * // keys: [id as "pagewisek0"], on: id = "pagewisekeys"."pagewisek0", tiebreak: [id desc],
 * // limit: slot 0, offset: slot 1
 */
export function deferredJoinStatement(
  key: readonly KeyPart[],
  ordering: DeferredOrdering,
  window: { readonly limit: boolean; readonly offset: boolean },
): DeferredJoinStatement {
  const direction = ordering.direction ?? 'asc';
  const ordered = new Set(ordering.fields);
  const keys = key.map((part, i) => ({ expr: part.expr, alias: keyColumn(i) }));
  const on = join(
    key.map((part, i) => sql`${part.expr} = ${identifier(KEYS_TABLE, keyColumn(i))}`),
    ' and ',
  );
  return {
    keys,
    on,
    orderBy: ordering.items,
    // Key columns are NOT NULL (a unique key): no NULL placement, so an index of the ordering serves.
    tiebreak: key.filter((part) => !ordered.has(part.field)).map((part) => ({ expr: part.expr, direction })),
    limit: window.limit ? new Slot(0) : null,
    offset: window.offset ? new Slot(1) : null,
  };
}

/**
 * The fields of a unique key, one per column: `uniqueKey` as the adapters' options take it.
 * @example
 * keyFields('id') // ['id']; keyFields(['tenant_id', 'id']) // ['tenant_id', 'id']; keyFields(null) // []
 */
export function keyFields(uniqueKey: string | readonly string[] | null): readonly string[] {
  if (uniqueKey === null) return [];
  return typeof uniqueKey === 'string' ? [uniqueKey] : uniqueKey;
}
