import { type KeyTerm, type OrderTerm, settleNulls, type WindowSpec } from '@pagewise/core';
import {
  type BuilderSlice,
  type DeferredOrdering,
  deferredJoinStatement,
  keyColumn,
  keyColumnsOf,
  type OrderPlan,
  offsetOrderItems,
  type PlanSource,
  planByText,
  Slot,
  sliceWindow,
} from '@pagewise/sql';
import { SelectQueryNode } from 'kysely';
import { lowerOrderItems } from './lower.js';
import { columnName, directionOf } from './query-nodes.js';
import type { SharedState } from './shared-state.js';
import type { CompiledTemplate, ShapeCache } from './statement-cache.js';
import { deferredJoinNode, withLimit } from './statement-nodes.js';

/** What an offset window reads of its query (`KyselyQuery`'s source). */
export interface OffsetSource extends PlanSource {
  readonly session: SharedState;
  readonly shape: ShapeCache;
  /** The builder's statement, its values replaced by base slots. */
  readonly node: SelectQueryNode;
  /** The statement without ORDER BY, LIMIT and OFFSET. */
  readonly core: SelectQueryNode;
  readonly base: readonly unknown[];
  readonly description: string;
}

/**
 * The rows of an offset window (`select ... order by ... limit $1 offset $2`), inside the
 * builder's own slice. With `terms` (an ordering `orderBy` set, or the builder's own over plain
 * columns) the statement orders by them with core's NULL placement, the plan's, built only the
 * first time its key is seen; without, the builder's ORDER BY as written.
 *
 * @example
 * await offsetRows(source, null, null, { order: null, after: null, offset: 40, limit: 20 })
 * // select * from "articles" order by "created" desc limit $1 offset $2
 */
export async function offsetRows(
  source: OffsetSource,
  terms: readonly OrderTerm[] | null,
  slice: BuilderSlice | null,
  spec: WindowSpec,
): Promise<Record<string, unknown>[]> {
  const inSlice = sliceWindow(slice, spec.offset, spec.limit);
  if (inSlice === null) return [];
  const window = { ...spec, ...inSlice };
  const shared = source.session;
  let ordered: { order: KeyTerm[]; plan: OrderPlan<CompiledTemplate> } | null = null;
  const shape = source.shape;
  if (terms !== null) {
    const order = terms.map(settleNulls);
    ordered = { order, plan: await planByText(shape, shared, source, order) };
  }
  // No limit and no offset: every row, without a LIMIT clause. MySQL wants a LIMIT before any
  // OFFSET, so an offset without a limit gets the largest safe one.
  const unlimited = window.limit === null && window.offset === 0;
  // An ordered statement is its plan's (the plan stands for the ordering and `planKey`), as keyset
  // windows are; built only the first time its key is seen, not per page.
  const deferred = shared.deferredJoin;
  if (deferred) await shared.deferredKey.check(shared, source);
  const key = `${deferred ? 'd' : 'o'}|${window.offset > 0}|${unlimited}`;
  const templates = ordered === null ? shape.templates : ordered.plan.windows;
  const template = shared.template(templates, ordered === null ? key + shared.planKey : key, () => {
    if (deferred)
      return deferredNode(source, ordered, { limit: !unlimited, offset: !unlimited && window.offset > 0 });
    // Pagination owns LIMIT and OFFSET: the builder's own would shift or cut every page.
    let node = SelectQueryNode.cloneWithoutOffset(SelectQueryNode.cloneWithoutLimit(source.node));
    if (ordered !== null) {
      const items = offsetOrderItems(ordered.order, ordered.plan, shared.capabilities);
      node = SelectQueryNode.cloneWithOrderByItems(source.core, lowerOrderItems(items));
    }
    return unlimited ? node : withLimit(node, new Slot(0), window.offset > 0 ? new Slot(1) : null);
  });
  const limit = window.limit ?? Number.MAX_SAFE_INTEGER;
  const rows = await shared.run(template, unlimited ? [] : [limit, window.offset], source.base);
  // A `select *` reads the derived table's key columns too.
  return deferred && rows.length > 0 && keyColumn(0) in rows[0]! ? shared.stripper.strip(rows) : rows;
}

/**
 * The deferred-join window of `source` (`deferredJoinStatement`): ordered by the plan's items,
 * or by the builder's own ORDER BY where no plan orders it, then by the key.
 */
function deferredNode(
  source: OffsetSource,
  ordered: { order: KeyTerm[]; plan: OrderPlan<CompiledTemplate> } | null,
  window: { limit: boolean; offset: boolean },
): SelectQueryNode {
  const shared = source.session;
  const key = keyColumnsOf(shared).map((field) => ({ field, expr: source.field(field).expr }));
  const own = source.node.orderBy?.items ?? [];
  let ordering: DeferredOrdering;
  if (ordered !== null) {
    const { order, plan } = ordered;
    const items = offsetOrderItems(order, plan, shared.capabilities);
    ordering = { items, fields: order.map((t) => t.field), direction: order.at(-1)?.direction ?? 'asc' };
  } else {
    const fields = own.flatMap((item) => columnName(item.orderBy) ?? []);
    const last = own.at(-1);
    ordering = { items: null, fields, direction: last === undefined ? 'asc' : directionOf(last) };
  }
  return deferredJoinNode(source.core, own, deferredJoinStatement(key, ordering, window));
}
