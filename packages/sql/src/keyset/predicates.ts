import type { KeyTerm } from '@pagewise/core';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import { raw, type SqlPart, sql } from '../fragment/fragment.js';
import { Slot } from '../fragment/slot.js';
import type { Segment, SegmentCondition } from './segments.js';

// The WHERE predicates of keyset statements, as fragments over the ordering's expressions and the
// slots of the bound's values: the row-value comparison, its expanded form behind a leading range
// bound, the conditions that fix or bound one term in a segment, and the far bound of a window
// between two cursors.

/** The parameter of bound value `index`, as its column compares with it (a cast, or itself). */
export type BoundParameter = (index: number, parameter: SqlPart) => SqlPart;

const asIs: BoundParameter = (_, parameter) => parameter;

function beyond(term: KeyTerm): string {
  return term.direction === 'asc' ? '>' : '<';
}

/** `left op right`. */
function compared(left: SqlPart, op: string, right: SqlPart): SqlPart {
  return sql(['', ` ${op} `, ''], left, right);
}

/**
 * `(a, b) > ($1, $2)` when every direction agrees and the dialect seeks on row values (preceded
 * by `a >= $1 AND` with `rowValueLeadingBound`); otherwise
 * `a >= $1 AND (a > $1 OR (a = $1 AND b > $2))`, whose leading bound is the index range
 * (`a >= $1 AND NOT (a = $1 AND NOT (b > $2))` with `negatedTies`).
 *
 * @example
 * keysetPredicate(order, exprs, params, 0, postgresCapabilities) // "created" <= $1 and ("created", "id") < ($2, $3)
 */
export function keysetPredicate(
  order: readonly KeyTerm[],
  exprs: readonly SqlPart[],
  params: readonly SqlPart[],
  from: number,
  capabilities: Pick<DialectCapabilities, 'rowValueSeek' | 'rowValueLeadingBound' | 'negatedTies'>,
): SqlPart {
  /** Term `j` compared with its bound by `op`: `a > $1`. */
  const compare = (j: number, op: string) => compared(exprs[j]!, op, params[j]!);
  const terms = order.slice(from);
  const first = terms[0]!;
  if (terms.length === 1) return compare(from, beyond(first));
  const leading = compare(from, `${beyond(first)}=`);
  const uniform = terms.every((t) => t.direction === first.direction);
  if (uniform && capabilities.rowValueSeek) {
    const columns = terms.map((_, k) => exprs[from + k]!);
    const values = terms.map((_, k) => params[from + k]!);
    const fragments = [
      '(',
      ...columns.slice(1).map(() => ', '),
      `) ${beyond(first)} (`,
      ...values.slice(1).map(() => ', '),
      ')',
    ];
    const comparison = sql(fragments, ...columns, ...values);
    return capabilities.rowValueLeadingBound ? sql`${leading} and ${comparison}` : comparison;
  }
  // The terms after the first, innermost last: `(b > $2 or (b = $2 and c > $3))`.
  const last = order.length - 1;
  let rest = compare(last, beyond(order[last]!));
  for (let j = last - 1; j > from; j -= 1) {
    rest = sql`(${compare(j, beyond(order[j]!))} or (${compare(j, '=')} and ${rest}))`;
  }
  const tie = compare(from, '=');
  if (capabilities.negatedTies) {
    return sql`${leading} and not (${tie} and not ${terms.length > 2 ? rest : sql`(${rest})`})`;
  }
  return sql`${leading} and (${compare(from, beyond(first))} or (${tie} and ${rest}))`;
}

function condition(
  c: SegmentCondition,
  order: readonly KeyTerm[],
  exprs: readonly SqlPart[],
  params: readonly SqlPart[],
): SqlPart {
  const expr = exprs[c.term]!;
  switch (c.op) {
    case 'null':
      return sql`${expr} is null`;
    case 'notNull':
      return sql`${expr} is not null`;
    case 'eq':
      return sql`${expr} = ${params[c.term]!}`;
    case 'after':
      return compared(expr, beyond(order[c.term]!), params[c.term]!);
  }
}

/**
 * The slots of the near bound's values (`i`, each passed through `bound`).
 * @example
 * boundSlots(order) // [Slot(0), Slot(1)]
 */
export function boundSlots(order: readonly KeyTerm[], bound: BoundParameter = asIs): SqlPart[] {
  return order.map((_, i) => bound(i, new Slot(i)));
}

/**
 * The WHERE predicates of one segment: its conditions, then its keyset predicate (the bound's
 * values in `params`, `boundSlots`).
 * @example
 * segmentPredicates({ conditions: [{ op: 'null', term: 0 }], keyset: 1, orderFrom: 1 }, order, exprs, params, caps)
 * // ["score" is null, "id" < $2]
 */
export function segmentPredicates(
  segment: Segment,
  order: readonly KeyTerm[],
  exprs: readonly SqlPart[],
  params: readonly SqlPart[],
  capabilities: Pick<DialectCapabilities, 'rowValueSeek' | 'rowValueLeadingBound' | 'negatedTies'>,
): SqlPart[] {
  const predicates = segment.conditions.map((c) => condition(c, order, exprs, params));
  if (segment.keyset !== null) {
    predicates.push(keysetPredicate(order, exprs, params, segment.keyset, capabilities));
  }
  return predicates;
}

/**
 * The far bound of a window between two cursors: rows strictly before it in `order`. Its values
 * are the slots after the limit and offset (`order.length + 2 + i`, each passed through `bound`);
 * `nulls[i]` says the bound holds NULL in term `i`. Written as the expanded comparison with each
 * term's NULL placement, `a < $1 or (a = $1 and b < $2)`, led by `a <= $1` when no NULL of the
 * first term sorts before the bound, so the index range has both ends (and, with `negatedTies`,
 * its tie negated as `keysetPredicate` writes it, which keeps Postgres from turning the OR into a
 * bitmap scan and a sort). The column's collation compares, as it does for the near bound.
 *
 * @example
 * // [created desc, id desc] before [t, 7]:
 * // "created" >= $5 and ("created" > $5 or ("created" = $5 and "id" > $6))
 */
export function stopPredicate(
  order: readonly KeyTerm[],
  exprs: readonly SqlPart[],
  nullable: readonly boolean[],
  nulls: readonly boolean[],
  capabilities: Pick<DialectCapabilities, 'negatedTies'>,
  bound: BoundParameter = asIs,
): SqlPart {
  const params = order.map((_, i) => bound(i, new Slot(order.length + 2 + i)));
  /** Term `i` compared with its bound value by `<` (`>` descending), `orEqual` adding `=`. */
  const short = (i: number, orEqual = '') =>
    compared(exprs[i]!, `${order[i]!.direction === 'asc' ? '<' : '>'}${orEqual}`, params[i]!);
  /** Term `i` strictly before its bound value, or `null` when no row's can be (NULLs first, bound NULL). */
  const before = (i: number): SqlPart | null => {
    const expr = exprs[i]!;
    if (nulls[i]) return order[i]!.nulls === 'first' ? null : sql`${expr} is not null`;
    return order[i]!.nulls === 'first' && nullable[i] ? sql`(${expr} is null or ${short(i)})` : short(i);
  };
  const equal = (i: number): SqlPart =>
    nulls[i] ? sql`${exprs[i]!} is null` : sql`${exprs[i]!} = ${params[i]!}`;
  /** Terms `from` on: strictly before the bound, or tied with it and strictly before on the next. */
  const from = (k: number): SqlPart => {
    let predicate: SqlPart = before(order.length - 1) ?? raw('1 = 0');
    for (let i = order.length - 2; i >= k; i -= 1) {
      const strictly = before(i);
      const tie = sql`${equal(i)} and ${predicate}`;
      predicate = strictly === null ? tie : sql`(${strictly} or (${tie}))`;
    }
    return predicate;
  };
  const first = order[0]!;
  if (nulls[0] || order.length === 1 || (first.nulls === 'first' && nullable[0])) return from(0);
  const rest = from(1);
  return capabilities.negatedTies
    ? sql`${short(0, '=')} and not (${equal(0)} and not (${rest}))`
    : sql`${short(0, '=')} and (${short(0)} or (${equal(0)} and ${rest}))`;
}
