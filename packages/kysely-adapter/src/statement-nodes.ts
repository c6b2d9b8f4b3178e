import {
  AHEAD_COLUMN,
  type DeferredJoinStatement,
  KEYS_TABLE,
  type KeysetStatement,
  type LookAhead,
  literal,
  type OrderItem,
  type PrivateSelection,
  Slot,
  type SqlLiteral,
  TIE_COLUMN,
  TIE_TABLE,
} from '@pagewise/sql';
import {
  AliasNode,
  AndNode,
  FromNode,
  IdentifierNode,
  JoinNode,
  LimitNode,
  OffsetNode,
  type OperationNode,
  type OrderByItemNode,
  ParensNode,
  RawNode,
  SelectionNode,
  SelectQueryNode,
  SetOperationNode,
  TableNode,
  ValueNode,
  WhereNode,
} from 'kysely';
import { lower, lowerOrderItems } from './lower.js';
import { selectionName } from './query-nodes.js';

// `@pagewise/sql`'s statements as Kysely select nodes, built from the query's own tree: its WHERE
// extended, its ORDER BY, LIMIT and OFFSET replaced, private columns selected beside its own, its
// table read through a named index, arms joined by `union all`, a derived table ranked.

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
 * LIMIT (and OFFSET): a slot, so one compiled statement serves every page, or a number Pagewise
 * wrote (`literalLimit`; whole numbers only).
 */
export function withLimit(
  query: SelectQueryNode,
  limit: Slot | SqlLiteral,
  offset: Slot | SqlLiteral | null,
): SelectQueryNode {
  const limited = SelectQueryNode.cloneWithLimit(query, LimitNode.create(lower(limit)));
  return offset === null
    ? limited
    : SelectQueryNode.cloneWithOffset(limited, OffsetNode.create(lower(offset)));
}

/**
 * `statement` read with each row's tie group: `dense_rank()` over the ordering's columns, so rows
 * share a group exactly when the database compares their positions equal (its collation's
 * equality: 'a' and 'A ' under a case-insensitive PAD SPACE one). The ranking runs over the
 * statement's own rows only, as a derived table, which keeps its index range and LIMIT; `keys`
 * name the ordering's columns of its result and `items` order it again.
 *
 * @example
 * // select "w".*, dense_rank() over (order by "title") as "__pagewise_tie"
 * //   from (select ... order by "title" limit $2) as "w" order by "title"
 */
export function withTieGroups(
  statement: SelectQueryNode,
  keys: readonly OperationNode[],
  items: readonly OrderItem[],
): SelectQueryNode {
  const fragments = ['dense_rank() over (order by ', ...keys.slice(1).map(() => ', '), ')'];
  const rank = RawNode.create(fragments, keys);
  const { with: head, ...body } = statement;
  const derived = AliasNode.create(body as SelectQueryNode, IdentifierNode.create(TIE_TABLE));
  const outer = SelectQueryNode.cloneWithSelections(SelectQueryNode.createFrom([derived]), [
    SelectionNode.createSelectAllFromTable(TableNode.create(TIE_TABLE)),
    SelectionNode.create(AliasNode.create(rank, IdentifierNode.create(TIE_COLUMN))),
  ]);
  const ordered = SelectQueryNode.cloneWithOrderByItems(outer, lowerOrderItems(items));
  return head === undefined ? ordered : { ...ordered, with: head };
}

/**
 * `statement` limited with its look-ahead row apart (`TieGroups.lookAhead`): the rows before it
 * and the look-ahead row each a derived table of their own, told apart by `AHEAD_COLUMN`, the
 * query's WITH kept at the head.
 *
 * @example
 * // select `a`.*, 0 as `pagewiseahead` from (select ... order by `title` limit ? offset ?) as `a`
 * // union all select `b`.*, 1 as `pagewiseahead` from (select ... order by `title` limit ? offset ?) as `b`
 */
export function withLookAhead(
  statement: SelectQueryNode,
  offset: Slot | null,
  lookAhead: LookAhead,
): SelectQueryNode {
  const { with: head, ...body } = statement;
  const arm = (limited: SelectQueryNode, alias: string, ahead: number) =>
    SelectQueryNode.cloneWithSelections(
      SelectQueryNode.createFrom([AliasNode.create(limited, IdentifierNode.create(alias))]),
      [
        SelectionNode.createSelectAllFromTable(TableNode.create(alias)),
        SelectionNode.create(AliasNode.create(lower(literal(ahead)), IdentifierNode.create(AHEAD_COLUMN))),
      ],
    );
  const page = arm(withLimit(body as SelectQueryNode, lookAhead.limit, offset), 'a', 0);
  const next = arm(withLimit(body as SelectQueryNode, lookAhead.aheadLimit, lookAhead.aheadOffset), 'b', 1);
  const both: SelectQueryNode = { ...page, setOperations: [SetOperationNode.create('union', next, true)] };
  return head === undefined ? both : { ...both, with: head };
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

/**
 * A keyset statement (`KeysetStatement`, in the order its fields say) over `core`, the query
 * without ORDER BY, LIMIT and OFFSET.
 *
 * @example
 * keysetNode(core, segmentStatement(...))
 * // select * from "t" where "created" <= $1 and ("created", "id") < ($2, $3) order by "created" desc, "id" desc limit $4
 */
export function keysetNode(core: SelectQueryNode, statement: KeysetStatement): SelectQueryNode {
  const extra = statement.selections.map((s) =>
    SelectionNode.create(AliasNode.create(lower(s.expr), IdentifierNode.create(s.alias))),
  );
  const own = withReplaced(core, statement.replaced ?? []);
  const selected = extra.length > 0 ? SelectQueryNode.cloneWithSelections(own, extra) : own;
  const hinted = statement.indexHint === null ? selected : withIndexHint(selected, statement.indexHint);
  const base = statement.stop === null ? hinted : withWhere(hinted, [lower(statement.stop)]);
  const arms = statement.arms.map((arm) => withWhere(base, arm.map(lower)));
  const items = lowerOrderItems(statement.orderBy);
  let node: SelectQueryNode;
  if (arms.length === 1) {
    const filtered = arms[0]!;
    node = items.length > 0 ? SelectQueryNode.cloneWithOrderByItems(filtered, items) : filtered;
  } else {
    const head: SelectQueryNode = {
      ...arms[0]!,
      setOperations: arms
        .slice(1)
        .map(({ with: _head, ...arm }) => SetOperationNode.create('union', arm, true)),
    };
    node = SelectQueryNode.cloneWithOrderByItems(head, items);
  }
  const ties = statement.tieGroups;
  const limited =
    ties?.lookAhead == null
      ? withLimit(node, statement.limit, statement.offset)
      : withLookAhead(node, statement.offset, ties.lookAhead);
  return ties === null ? limited : withTieGroups(limited, ties.keys.map(lower), ties.orderBy);
}

/**
 * `core` with each of `replaced` selected in place of its selection of the same result name
 * (`KeysetStatement.replaced`, offered by `replaceableColumn`).
 *
 * @example
 * // select "id", cast("items"."created" as text) as "created" from "items"
 */
export function withReplaced(core: SelectQueryNode, replaced: readonly PrivateSelection[]): SelectQueryNode {
  if (replaced.length === 0) return core;
  const selections = (core.selections ?? []).map((selection) => {
    const name = selectionName(selection.selection);
    const by = replaced.find((r) => r.alias === name);
    return by === undefined
      ? selection
      : SelectionNode.create(AliasNode.create(lower(by.expr), IdentifierNode.create(by.alias)));
  });
  return { ...core, selections: Object.freeze(selections) };
}

/** A plain slot as a Kysely value node. */
export function slotNode(index: number): OperationNode {
  return ValueNode.create(new Slot(index));
}

/**
 * A deferred-join offset window (`DeferredJoinStatement`) over `core`, the query without ORDER
 * BY, LIMIT and OFFSET; `own` the query's own ORDER BY items, for a statement ordered by them.
 *
 * @example
 * deferredJoinNode(core, [], deferredJoinStatement(...))
 * // select * from "t" inner join (select "id" as "pagewisek0" from "t" order by "created" desc, "id" desc
 * //   limit $1 offset $2) as "pagewisekeys" on "id" = "pagewisekeys"."pagewisek0" order by "created" desc, "id" desc
 */
export function deferredJoinNode(
  core: SelectQueryNode,
  own: readonly OrderByItemNode[],
  statement: DeferredJoinStatement,
): SelectQueryNode {
  const items = [
    ...(statement.orderBy === null ? own : lowerOrderItems(statement.orderBy)),
    ...lowerOrderItems(statement.tiebreak),
  ];
  // The outer query's WITH serves the inner one too.
  const { with: _head, ...body } = core;
  const keys = statement.keys.map((s) =>
    SelectionNode.create(AliasNode.create(lower(s.expr), IdentifierNode.create(s.alias))),
  );
  const selected: SelectQueryNode = { ...body, selections: Object.freeze(keys) };
  const ordered = items.length > 0 ? SelectQueryNode.cloneWithOrderByItems(selected, items) : selected;
  const inner = statement.limit === null ? ordered : withLimit(ordered, statement.limit, statement.offset);
  const keysTable = AliasNode.create(inner, IdentifierNode.create(KEYS_TABLE));
  const joined: SelectQueryNode = {
    ...core,
    joins: Object.freeze([
      ...(core.joins ?? []),
      JoinNode.createWithOn('InnerJoin', keysTable, lower(statement.on)),
    ]),
  };
  return items.length > 0 ? SelectQueryNode.cloneWithOrderByItems(joined, items) : joined;
}
