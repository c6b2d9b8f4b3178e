import type { KeyTerm } from '@pagewise/core';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import { literal, type SqlLiteral, type SqlPart } from '../fragment/fragment.js';
import { Slot } from '../fragment/slot.js';
import { type NonNull, type OrderItem, orderByItems } from './order-items.js';
import { type BoundParameter, boundSlots, segmentPredicates } from './predicates.js';
import type { Segment } from './segments.js';

// A keyset window's statements as values: what to select beside the query's own columns, which
// index to name, which predicates to AND onto its WHERE, the ORDER BY, LIMIT and OFFSET, the
// `UNION ALL` arms and the tie-group ranking. An ORM lowers one into its own select node, starting
// from the user's query without its ORDER BY, LIMIT and OFFSET (the "core").

/** The alias of the derived table a statement read with tie groups is ranked in. */
export const TIE_TABLE = 'w';

/** An expression selected beside the query's own columns, under a private alias. */
export interface PrivateSelection {
  readonly expr: SqlPart;
  readonly alias: string;
}

/**
 * The ranking of a statement's rows into tie groups (`TIE_COLUMN`): `select "w".*, dense_rank() over (order by
 * <keys>) as "pagewisetie" from (<statement>) as "w" order by <orderBy>`, the query's WITH kept
 * at the head.
 */
export interface TieGroups {
  /** The ordering's columns as the statement's result names them. */
  readonly keys: readonly SqlPart[];
  readonly orderBy: readonly OrderItem[];
  /**
   * Where sorting the rows again may reorder ties (`resortKeepsTies` false): the statement read
   * twice, its rows but the last (`limit`) and its last row alone (`aheadLimit`, `aheadOffset`),
   * `union all`'d in the derived table with `AHEAD_COLUMN` 0 and 1, which the ORDER BY ends with. The rows of the
   * page are then the ones the statement's ORDER BY put first (two reads of one index order
   * their ties alike, as DRF's offsets count on), whatever order a sort gives the ties.
   */
  readonly lookAhead: LookAhead | null;
}

/** The two LIMITs of a statement read with its look-ahead row apart (`TieGroups.lookAhead`). */
export interface LookAhead {
  /** The rows before the look-ahead row: the statement's limit less one. */
  readonly limit: Slot | SqlLiteral;
  /** The look-ahead row's LIMIT: 1, 0 for a statement limited to none. */
  readonly aheadLimit: Slot | SqlLiteral;
  /** The look-ahead row's OFFSET: the statement's offset plus `limit`. */
  readonly aheadOffset: Slot | SqlLiteral;
}

/**
 * The values of a look-ahead row's slots (`lookAheadSlots`) for a statement reading `limit` rows
 * from `offset`.
 * @example
 * lookAheadValues(5, 2) // [4, 1, 6]
 */
export function lookAheadValues(limit: number, offset: number): [number, number, number] {
  const before = Math.max(limit - 1, 0);
  // A window without a limit reads to the end (`Number.MAX_SAFE_INTEGER`): no row is past it.
  return [before, Math.min(limit, 1), Math.min(offset + before, Number.MAX_SAFE_INTEGER)];
}

/**
 * The look-ahead row's LIMITs for an ordering of `terms`: slots after the far bound's
 * (`2 * terms + 2` to `2 * terms + 4`), or numbers for a written LIMIT (read from offset 0).
 */
export function lookAheadSlots(terms: number, written: SqlLiteral | Slot): LookAhead {
  if (!(written instanceof Slot)) {
    const [limit, aheadLimit, aheadOffset] = lookAheadValues(Number(written.value), 0);
    return { limit: literal(limit), aheadLimit: literal(aheadLimit), aheadOffset: literal(aheadOffset) };
  }
  const first = 2 * terms + 2;
  return { limit: new Slot(first), aheadLimit: new Slot(first + 1), aheadOffset: new Slot(first + 2) };
}

/**
 * One statement of a keyset window, built from the query's core (no ORDER BY, LIMIT, OFFSET):
 *
 * 1. `selections` added to its SELECT (in order), and the query's own selection named as each of
 *    `replaced` is aliased selecting that one's expression instead (`TextInPlace`);
 * 2. its one table read through `indexHint` (`from t force index (i)`) when set;
 * 3. `stop` ANDed onto its WHERE (the query's own WHERE parenthesised first);
 * 4. each arm: `arms[k]` ANDed onto that WHERE in turn (parenthesised again);
 * 5. one arm: ordered by `orderBy` when it has items, limited by `limit` (and `offset`);
 *    several: the arms joined by `union all` (the arms after the first without the WITH), the
 *    compound ordered by `orderBy` and limited;
 * 6. with `tieGroups`, ranked as a derived table.
 *
 * Every value is a `Slot`: bound value `i` is slot `i`, the limit slot `order.length`, the offset
 * slot `order.length + 1`, the far bound's `order.length + 2 + i`, a look-ahead row's LIMITs the
 * three after (`lookAheadSlots`); a written `limit` is a literal.
 */
export interface KeysetStatement {
  readonly selections: readonly PrivateSelection[];
  /**
   * Expressions selected in place of the query's own selection of the same result name (`alias`:
   * a column the rows carry), which the adapter offered as `FieldSource.replaceable`.
   * @default []
   */
  readonly replaced?: readonly PrivateSelection[];
  readonly indexHint: string | null;
  readonly stop: SqlPart | null;
  readonly arms: readonly (readonly SqlPart[])[];
  readonly orderBy: readonly OrderItem[];
  readonly limit: Slot | SqlLiteral;
  readonly offset: Slot | null;
  readonly tieGroups: TieGroups | null;
}

/** What a statement starts from beside its segments: selections, the index, the far bound. */
export interface StatementBase {
  readonly selections: readonly PrivateSelection[];
  /** @default [] */
  readonly replaced?: readonly PrivateSelection[];
  readonly indexHint: string | null;
  readonly stop: SqlPart | null;
}

/**
 * The statement of one segment: filtered by the segment's conditions and keyset predicate,
 * ordered by its free terms. With `writtenLimit`, the LIMIT is that number instead of its slot.
 *
 * @example
 * // Postgres, order [created desc, id desc], keyset from 0:
 * // select ... where "created" <= $1 and ("created", "id") < ($2, $3) order by "created" desc, "id" desc limit $3
 */
export function segmentStatement(
  base: StatementBase,
  order: readonly KeyTerm[],
  exprs: readonly SqlPart[],
  nullable: readonly boolean[],
  segment: Segment,
  withOffset: boolean,
  capabilities: DialectCapabilities,
  bound?: BoundParameter,
  writtenLimit?: number,
): KeysetStatement {
  const params = boundSlots(order, bound);
  const predicates = segmentPredicates(segment, order, exprs, params, capabilities);
  const fixed = new Set(
    segment.conditions.filter((c) => c.op === 'null' || c.op === 'eq').map((c) => c.term),
  );
  // `x = $1` makes x a constant the planner drops from any index order; `x IS NULL` does not on
  // Postgres, so there a NULL block keeps x in its ORDER BY: `x IS NULL AND id < $1 ORDER BY
  // x DESC NULLS LAST, id DESC` is one range of the ordering's index, where `ORDER BY id DESC`
  // alone walks the primary key and filters out every non-NULL row on the way.
  const nullKept = new Set(
    capabilities.indexNullsOrder ? segment.conditions.filter((c) => c.op === 'null').map((c) => c.term) : [],
  );
  const bounded = new Set(
    segment.conditions.filter((c) => c.op === 'notNull' || c.op === 'after').map((c) => c.term),
  );
  const indexes = order
    .map((_, i) => i)
    .filter((i) => nullKept.has(i) || (i >= segment.orderFrom && !fixed.has(i)));
  const items = orderByItems(
    indexes.map((i) => order[i]!),
    indexes.map((i) => exprs[i]!),
    (k): NonNull => {
      const i = indexes[k]!;
      if (!nullable[i]) return 'column';
      return bounded.has(i) || (segment.keyset !== null && i >= segment.keyset) ? 'segment' : false;
    },
    capabilities,
  );
  return {
    ...base,
    arms: [predicates],
    orderBy: items,
    limit: writtenLimit === undefined ? new Slot(order.length) : literal(writtenLimit),
    offset: withOffset ? new Slot(order.length + 1) : null,
    tieGroups: null,
  };
}

/**
 * One statement reading a run of segments (`groupSegments`): each segment a `UNION ALL` arm,
 * the whole ordered by every term and limited once. SQLite reads each arm in index order and
 * merges them, lazily, so the limit stops it as one range would. A compound's ORDER BY names
 * columns of its result: `keys` are the terms there (the selected expression, or the private
 * column's alias). With `writtenLimit`, the LIMIT is that number instead of its slot.
 *
 * @example
 * // SQLite, [score desc, id desc] after [5, 7]:
 * // select ... where "score" = ? and "id" < ? union all select ... where "score" < ?
 * //   union all select ... where "score" is null order by "score" desc, "id" desc limit ?
 */
export function mergedStatement(
  base: StatementBase,
  order: readonly KeyTerm[],
  exprs: readonly SqlPart[],
  keys: readonly SqlPart[],
  run: readonly Segment[],
  withOffset: boolean,
  capabilities: DialectCapabilities,
  bound?: BoundParameter,
  writtenLimit?: number,
): KeysetStatement {
  const params = boundSlots(order, bound);
  // `groupSegments` lets into a run no arm holding NULLs of a term whose placement is emulated:
  // for ORDER BY, every term's NULLs are native or excluded by the run's predicates.
  return {
    ...base,
    arms: run.map((segment) => segmentPredicates(segment, order, exprs, params, capabilities)),
    orderBy: orderByItems(order, keys, () => 'segment', capabilities),
    limit: writtenLimit === undefined ? new Slot(order.length) : literal(writtenLimit),
    offset: withOffset ? new Slot(order.length + 1) : null,
    tieGroups: null,
  };
}
