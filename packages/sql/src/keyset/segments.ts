import type { KeyTerm, PositionValue } from '@pagewise/core';
import type { DialectCapabilities } from '../dialect/capabilities.js';

// How a keyset window splits into index-seekable queries (segments) and how those are grouped into
// statements: pure planning over the ordering, the nullability of its terms and the bound's NULLs.

/** A condition fixing or bounding one ordering term inside a segment. */
export interface SegmentCondition {
  readonly op: 'null' | 'notNull' | 'eq' | 'after';
  readonly term: number;
}

/**
 * One index-seekable query of a keyset window: rows matching `conditions` (and, from `keyset`
 * on, strictly after the bound), ordered by the terms from `orderFrom` on. A window is the
 * concatenation of its segments, in order.
 */
export interface Segment {
  readonly conditions: readonly SegmentCondition[];
  /** First term of a combined keyset predicate over the terms from here to the end. */
  readonly keyset: number | null;
  readonly orderFrom: number;
}

/** Whether the dialect puts this term's NULLs where the term wants them without a `NULLS` clause. */
export function nullsNative(term: KeyTerm, capabilities: Pick<DialectCapabilities, 'nativeNulls'>): boolean {
  const high = capabilities.nativeNulls === 'high';
  return term.nulls === (term.direction === 'asc' ? (high ? 'last' : 'first') : high ? 'first' : 'last');
}

/**
 * Splits a window into segments so that every query stays an index range: NULL blocks of
 * nullable terms become their own segments instead of an `OR x IS NULL` that no index can serve,
 * and the non-NULL part after a bound is one combined keyset predicate whenever the later terms
 * cannot hold NULL (the common case: one nullable term plus the unique key). With `splitTies`
 * (where the segments become arms of one statement, `groupSegments`) it never is: the rows tied
 * with the bound on a term are a segment of their own (`a = $1 AND b > $2`), a range on every
 * column of the index, for a planner that ranges a row value on its first column only (SQLite)
 * and would read and drop the tied rows before the bound one by one.
 *
 * @example
 * // created (nullable, NULLs last) then id, after [t, 7]:
 * // [{ keyset: 0 }, { conditions: [created IS NULL] }]
 */
export function planSegments(
  order: readonly KeyTerm[],
  nullable: readonly boolean[],
  bound: readonly PositionValue[] | null,
  capabilities: Pick<DialectCapabilities, 'nativeNulls'>,
  splitTies = false,
): Segment[] {
  const free = (conditions: readonly SegmentCondition[], orderFrom: number): Segment => ({
    conditions,
    keyset: null,
    orderFrom,
  });

  const fromStart = (i: number, conditions: readonly SegmentCondition[]): Segment[] => {
    const term = order[i];
    if (term === undefined || !nullable[i] || nullsNative(term, capabilities)) return [free(conditions, i)];
    const nulls = fromStart(i + 1, [...conditions, { op: 'null', term: i }]);
    const values = free([...conditions, { op: 'notNull', term: i }], i);
    return term.nulls === 'first' ? [...nulls, values] : [values, ...nulls];
  };

  const after = (i: number, conditions: readonly SegmentCondition[]): Segment[] => {
    const term = order[i];
    if (term === undefined) return [];
    const value = bound![i] ?? null;
    if (value === null) {
      const out = after(i + 1, [...conditions, { op: 'null', term: i }]);
      if (term.nulls === 'first') out.push(free([...conditions, { op: 'notNull', term: i }], i));
      return out;
    }
    const out: Segment[] = [];
    const mergeable =
      !splitTies && order.every((_, j) => j <= i || (!nullable[j] && (bound![j] ?? null) !== null));
    if (mergeable) {
      out.push({ conditions, keyset: i, orderFrom: i });
    } else {
      out.push(...after(i + 1, [...conditions, { op: 'eq', term: i }]));
      out.push(free([...conditions, { op: 'after', term: i }], i));
    }
    if (term.nulls === 'last' && nullable[i])
      out.push(...fromStart(i + 1, [...conditions, { op: 'null', term: i }]));
    return out;
  };

  return bound === null ? fromStart(0, []) : after(0, []);
}

/** Whether rows of `segment` may hold NULL in term `i`: none of its conditions or its keyset excludes it. */
function mayBeNull(segment: Segment, i: number, nullable: readonly boolean[]): boolean {
  if (!nullable[i]) return false;
  if (segment.keyset !== null && i >= segment.keyset) return false;
  return !segment.conditions.some((c) => c.term === i && c.op !== 'null');
}

/**
 * Groups a window's segments, in order, into the statements that read them: with `merge`, the
 * segments of a run become the `UNION ALL` arms of one statement under the window's ORDER BY
 * (`compileMerged`), as long as that ORDER BY needs no emulated NULL placement (a term whose
 * NULLs sort natively where the ordering wants them, or that no arm of the run holds NULL in);
 * otherwise each segment is a statement of its own, read only when the page reaches it.
 *
 * @example
 * // SQLite, score DESC NULLS LAST then id DESC, after [5, 7]:
 * // [[score = 5 AND id < 7, score < 5, score IS NULL]]: one statement
 */
export function groupSegments(
  segments: readonly Segment[],
  order: readonly KeyTerm[],
  nullable: readonly boolean[],
  capabilities: Pick<DialectCapabilities, 'nativeNulls'>,
  merge: boolean,
): Segment[][] {
  if (!merge) return segments.map((segment) => [segment]);
  // The terms whose NULLs an ORDER BY item without `IS NULL` key would put in the wrong place.
  const emulated = order.flatMap((term, i) => (nullable[i] && !nullsNative(term, capabilities) ? [i] : []));
  const runs: Segment[][] = [];
  // A segment holding such NULLs is a run of its own: no other arm can sort beside it.
  let open = false;
  for (const segment of segments) {
    const holds = emulated.some((i) => mayBeNull(segment, i, nullable));
    if (open && !holds) runs.at(-1)!.push(segment);
    else runs.push([segment]);
    open = !holds;
  }
  return runs;
}
