import type { KeyTerm, PositionValue } from '@pagewise/core';
import {
  AliasNode,
  AndNode,
  FromNode,
  IdentifierNode,
  LimitNode,
  OffsetNode,
  type OperationNode,
  OrderByItemNode,
  ParensNode,
  RawNode,
  SelectionNode,
  SelectQueryNode,
  SetOperationNode,
  TableNode,
  ValueNode,
  WhereNode,
} from 'kysely';
import type { DialectCapabilities } from './dialect-capabilities.js';
import { TIE_COLUMN } from './private-columns.js';

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
export function nullsNative(term: KeyTerm, capabilities: DialectCapabilities): boolean {
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
  capabilities: DialectCapabilities,
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
  capabilities: DialectCapabilities,
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

/**
 * A parameter placeholder filled per fetch: an index into the window's values, or with `base`
 * into the values of the query's own WHERE (so one compiled statement serves every query of
 * the same shape, whatever its values).
 */
export class Slot {
  constructor(
    readonly index: number,
    readonly base = false,
  ) {}
}

function raw(strings: TemplateStringsArray, ...nodes: OperationNode[]): RawNode {
  return RawNode.create(strings, nodes);
}

function slot(index: number): OperationNode {
  return ValueNode.create(new Slot(index));
}

function beyond(term: KeyTerm): string {
  return term.direction === 'asc' ? '>' : '<';
}

/**
 * `(a, b) > ($1, $2)` when every direction agrees and the dialect seeks on row values (preceded
 * by `a >= $1 AND` with `rowValueLeadingBound`); otherwise
 * `a >= $1 AND (a > $1 OR (a = $1 AND b > $2))`, whose leading bound is the index range
 * (`a >= $1 AND NOT (a = $1 AND NOT (b > $2))` with `negatedTies`).
 */
function keysetPredicate(
  order: readonly KeyTerm[],
  exprs: readonly OperationNode[],
  params: readonly OperationNode[],
  from: number,
  capabilities: DialectCapabilities,
): OperationNode {
  /** Term `j` compared with its bound by `op`: `a > $1`. */
  const compare = (j: number, op: string) => RawNode.create(['', ` ${op} `, ''], [exprs[j]!, params[j]!]);
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
    const comparison = RawNode.create(fragments, [...columns, ...values]);
    return capabilities.rowValueLeadingBound ? raw`${leading} and ${comparison}` : comparison;
  }
  // The terms after the first, innermost last: `(b > $2 or (b = $2 and c > $3))`.
  const last = order.length - 1;
  let rest = compare(last, beyond(order[last]!));
  for (let j = last - 1; j > from; j -= 1) {
    rest = raw`(${compare(j, beyond(order[j]!))} or (${compare(j, '=')} and ${rest}))`;
  }
  const tie = compare(from, '=');
  if (capabilities.negatedTies) {
    return raw`${leading} and not (${tie} and not ${terms.length > 2 ? rest : raw`(${rest})`})`;
  }
  return raw`${leading} and (${compare(from, beyond(first))} or (${tie} and ${rest}))`;
}

function condition(
  c: SegmentCondition,
  order: readonly KeyTerm[],
  exprs: readonly OperationNode[],
  params: readonly OperationNode[],
): OperationNode {
  const expr = exprs[c.term]!;
  switch (c.op) {
    case 'null':
      return raw`${expr} is null`;
    case 'notNull':
      return raw`${expr} is not null`;
    case 'eq':
      return raw`${expr} = ${params[c.term]!}`;
    case 'after':
      return RawNode.create(['', ` ${beyond(order[c.term]!)} `, ''], [expr, params[c.term]!]);
  }
}

/** Why a term holds no NULL: its column cannot, or the segment's predicate excludes them. */
export type NonNull = 'column' | 'segment' | false;

/**
 * ORDER BY items for `terms`, keeping each term's NULL placement: native when the dialect
 * already sorts NULLs there, a `NULLS` clause where supported, else a leading `x IS NULL` key.
 * Terms known to be non-NULL get a plain item so the index order serves them, except where
 * indexes declare their placement (Postgres): there the clause stays, to match the index
 * written for the ordering.
 */
export function orderByItems(
  terms: readonly KeyTerm[],
  exprs: readonly OperationNode[],
  nonNull: (index: number) => NonNull,
  capabilities: DialectCapabilities,
): OrderByItemNode[] {
  const items: OrderByItemNode[] = [];
  terms.forEach((term, i) => {
    const expr = exprs[i]!;
    const direction = RawNode.createWithSql(term.direction);
    const known = nonNull(i);
    if (
      nullsNative(term, capabilities) ||
      known === 'column' ||
      (known === 'segment' && !capabilities.indexNullsOrder)
    ) {
      items.push(OrderByItemNode.create(expr, direction));
    } else if (capabilities.nullsOrderingSyntax) {
      items.push(OrderByItemNode.cloneWith(OrderByItemNode.create(expr, direction), { nulls: term.nulls }));
    } else {
      const nullsKey = RawNode.createWithSql(term.nulls === 'last' ? 'asc' : 'desc');
      items.push(
        OrderByItemNode.create(raw`${expr} is null`, nullsKey),
        OrderByItemNode.create(expr, direction),
      );
    }
  });
  return items;
}

/** ANDs `predicates` onto the query's own WHERE, parenthesised so an OR in either cannot leak. */
export function withWhere(query: SelectQueryNode, predicates: readonly OperationNode[]): SelectQueryNode {
  const parts = [...(query.where ? [ParensNode.create(query.where.where)] : []), ...predicates];
  if (parts.length === 0) return query;
  const combined = parts
    .slice(1)
    .reduce<OperationNode>((left, right) => AndNode.create(left, right), parts[0]!);
  return { ...query, where: WhereNode.create(combined) };
}

/**
 * LIMIT (and OFFSET) as parameters, so one compiled statement serves every page; with `written`,
 * LIMIT as that number (`literalLimit`; `writtenLimit` admits whole numbers only).
 */
export function withLimit(
  query: SelectQueryNode,
  limitSlot: number,
  offsetSlot: number | null,
  written?: number,
): SelectQueryNode {
  const limit = written === undefined ? slot(limitSlot) : ValueNode.createImmediate(written);
  const limited = SelectQueryNode.cloneWithLimit(query, LimitNode.create(limit));
  return offsetSlot === null
    ? limited
    : SelectQueryNode.cloneWithOffset(limited, OffsetNode.create(slot(offsetSlot)));
}

/**
 * The query of one segment: `base` (no ORDER BY/LIMIT) filtered by the segment's conditions and
 * keyset predicate, ordered by its free terms. Parameters are `Slot`s: bound value `i` is slot
 * `i` (passed through `bound`, which may cast it for its column), the limit slot `order.length`,
 * the offset slot `order.length + 1`; with `writtenLimit`, the LIMIT is that number instead.
 *
 * @example
 * // Postgres, order [created desc, id desc], keyset from 0:
 * // select ... where "created" <= $1 and ("created", "id") < ($2, $3) order by "created" desc, "id" desc limit $3
 */
export function compileSegment(
  base: SelectQueryNode,
  order: readonly KeyTerm[],
  exprs: readonly OperationNode[],
  nullable: readonly boolean[],
  segment: Segment,
  withOffset: boolean,
  capabilities: DialectCapabilities,
  bound: BoundParameter = (_, parameter) => parameter,
  writtenLimit?: number,
): SelectQueryNode {
  const params = order.map((_, i) => bound(i, slot(i)));
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
  const filtered = withWhere(base, predicates);
  const ordered = items.length > 0 ? SelectQueryNode.cloneWithOrderByItems(filtered, items) : filtered;
  return withLimit(ordered, order.length, withOffset ? order.length + 1 : null, writtenLimit);
}

/** The parameter of bound value `index`, as its column compares with it (a cast, or itself). */
export type BoundParameter = (index: number, parameter: OperationNode) => OperationNode;

/** The WHERE predicates of one segment: its conditions, then its keyset predicate. */
function segmentPredicates(
  segment: Segment,
  order: readonly KeyTerm[],
  exprs: readonly OperationNode[],
  params: readonly OperationNode[],
  capabilities: DialectCapabilities,
): OperationNode[] {
  const predicates = segment.conditions.map((c) => condition(c, order, exprs, params));
  if (segment.keyset !== null) {
    predicates.push(keysetPredicate(order, exprs, params, segment.keyset, capabilities));
  }
  return predicates;
}

/**
 * One statement reading a run of segments (`groupSegments`): each segment a `UNION ALL` arm of
 * `base` filtered by its predicates, the whole ordered by every term and limited once. SQLite
 * reads each arm in index order and merges them, lazily, so the limit stops it as one range
 * would. A compound's ORDER BY names columns of its result: `keys` are the terms there (the
 * selected expression, or the private column's alias). The query's WITH stays at the head,
 * where it serves every arm.
 *
 * @example
 * // SQLite, [score desc, id desc] after [5, 7]:
 * // select ... where "score" = ? and "id" < ? union all select ... where "score" < ?
 * //   union all select ... where "score" is null order by "score" desc, "id" desc limit ?
 */
export function compileMerged(
  base: SelectQueryNode,
  order: readonly KeyTerm[],
  exprs: readonly OperationNode[],
  keys: readonly OperationNode[],
  run: readonly Segment[],
  withOffset: boolean,
  capabilities: DialectCapabilities,
  bound: BoundParameter = (_, parameter) => parameter,
): SelectQueryNode {
  const params = order.map((_, i) => bound(i, slot(i)));
  const arms = run.map((segment) =>
    withWhere(base, segmentPredicates(segment, order, exprs, params, capabilities)),
  );
  const head: SelectQueryNode = {
    ...arms[0]!,
    setOperations: arms
      .slice(1)
      .map(({ with: _head, ...arm }) => SetOperationNode.create('union', arm, true)),
  };
  // `groupSegments` lets into a run no arm holding NULLs of a term whose placement is emulated:
  // for ORDER BY, every term's NULLs are native or excluded by the run's predicates.
  const items = orderByItems(order, keys, () => 'segment', capabilities);
  return withLimit(
    SelectQueryNode.cloneWithOrderByItems(head, items),
    order.length,
    withOffset ? order.length + 1 : null,
  );
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
  exprs: readonly OperationNode[],
  nullable: readonly boolean[],
  nulls: readonly boolean[],
  capabilities: Pick<DialectCapabilities, 'negatedTies'>,
  bound: BoundParameter = (_, parameter) => parameter,
): OperationNode {
  const params = order.map((_, i) => bound(i, slot(order.length + 2 + i)));
  /** Term `i` compared with its bound value by `<` (`>` descending), `orEqual` adding `=`. */
  const short = (i: number, orEqual = '') =>
    RawNode.create(
      ['', ` ${order[i]!.direction === 'asc' ? '<' : '>'}${orEqual} `, ''],
      [exprs[i]!, params[i]!],
    );
  /** Term `i` strictly before its bound value, or `null` when no row's can be (NULLs first, bound NULL). */
  const before = (i: number): OperationNode | null => {
    const expr = exprs[i]!;
    if (nulls[i]) return order[i]!.nulls === 'first' ? null : raw`${expr} is not null`;
    return order[i]!.nulls === 'first' && nullable[i] ? raw`(${expr} is null or ${short(i)})` : short(i);
  };
  const equal = (i: number): OperationNode =>
    nulls[i] ? raw`${exprs[i]!} is null` : raw`${exprs[i]!} = ${params[i]!}`;
  /** Terms `from` on: strictly before the bound, or tied with it and strictly before on the next. */
  const from = (k: number): OperationNode => {
    let predicate: OperationNode = before(order.length - 1) ?? raw`1 = 0`;
    for (let i = order.length - 2; i >= k; i -= 1) {
      const strictly = before(i);
      const tie = raw`${equal(i)} and ${predicate}`;
      predicate = strictly === null ? tie : raw`(${strictly} or (${tie}))`;
    }
    return predicate;
  };
  const first = order[0]!;
  if (nulls[0] || order.length === 1 || (first.nulls === 'first' && nullable[0])) return from(0);
  const rest = from(1);
  return capabilities.negatedTies
    ? raw`${short(0, '=')} and not (${equal(0)} and not (${rest}))`
    : raw`${short(0, '=')} and (${short(0)} or (${equal(0)} and ${rest}))`;
}

/**
 * `statement` read with each row's tie group: `dense_rank()` over the ordering's columns, so rows
 * share a group exactly when the database compares their positions equal (its collation's
 * equality: 'a' and 'A ' under a case-insensitive PAD SPACE one). The ranking runs over the
 * statement's own rows only, as a derived table, which keeps its index range and LIMIT; `keys`
 * name the ordering's columns of its result and `items` order it again.
 *
 * @example
 * // select "w".*, dense_rank() over (order by "title") as "pagewisetie"
 * //   from (select ... order by "title" limit $2) as "w" order by "title"
 */
export function withTieGroups(
  statement: SelectQueryNode,
  keys: readonly OperationNode[],
  items: readonly OrderByItemNode[],
): SelectQueryNode {
  const fragments = ['dense_rank() over (order by ', ...keys.slice(1).map(() => ', '), ')'];
  const rank = RawNode.create(fragments, keys);
  const { with: head, ...body } = statement;
  const derived = AliasNode.create(body as SelectQueryNode, IdentifierNode.create('w'));
  const outer = SelectQueryNode.cloneWithSelections(SelectQueryNode.createFrom([derived]), [
    SelectionNode.createSelectAllFromTable(TableNode.create('w')),
    SelectionNode.create(AliasNode.create(rank, IdentifierNode.create(TIE_COLUMN))),
  ]);
  const ordered = SelectQueryNode.cloneWithOrderByItems(outer, items);
  return head === undefined ? ordered : { ...ordered, with: head };
}

/**
 * `base` reading its one table through `index` (`indexQuery`): `from t as a force index (i)`.
 *
 * @example
 * // select * from `items` force index (`items_score_id`) where `score` is null and `id` < ? ...
 */
export function withIndexHint(base: SelectQueryNode, index: string): SelectQueryNode {
  const table = base.from!.froms[0]!;
  const hinted = RawNode.create(['', ' force index (', ')'], [table, IdentifierNode.create(index)]);
  return { ...base, from: FromNode.create([hinted]) };
}
