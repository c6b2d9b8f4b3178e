import { type KeyTerm, type OrderTerm, settleNulls, type WindowSpec } from '@pagewise/core';
import {
  type BuilderSlice,
  type OrderPlan,
  orderByItems,
  type PlanSource,
  planByText,
  Slot,
  sliceWindow,
} from '@pagewise/sql';
import { SelectQueryNode } from 'kysely';
import { lowerOrderItems } from './lower.js';
import type { SharedState } from './shared-state.js';
import type { CompiledTemplate, ShapeCache } from './statement-cache.js';
import { withLimit } from './statement-nodes.js';

/** What an offset window reads of its query (`KyselyQuery`'s source). */
export interface OffsetSource extends PlanSource {
  readonly session: SharedState;
  readonly shape: ShapeCache;
  /** The builder's statement, its values replaced by base slots. */
  readonly node: SelectQueryNode;
  /** The statement without ORDER BY, LIMIT and OFFSET. */
  readonly core: SelectQueryNode;
  readonly base: readonly unknown[];
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
  const key = `o|${window.offset > 0}|${unlimited}`;
  const templates = ordered === null ? shape.templates : ordered.plan.windows;
  const template = shared.template(templates, ordered === null ? key + shared.planKey : key, () => {
    // Pagination owns LIMIT and OFFSET: the builder's own would shift or cut every page.
    let node = SelectQueryNode.cloneWithoutOffset(SelectQueryNode.cloneWithoutLimit(source.node));
    if (ordered !== null) {
      // Columns the catalog knows to be NOT NULL need no NULL placement, which keeps the index order usable.
      const { order, plan } = ordered;
      const items = orderByItems(
        order,
        plan.exprs,
        (i) => (plan.nullable[i] ? false : 'column'),
        shared.capabilities,
      );
      node = SelectQueryNode.cloneWithOrderByItems(source.core, lowerOrderItems(items));
    }
    return unlimited ? node : withLimit(node, new Slot(0), window.offset > 0 ? new Slot(1) : null);
  });
  const limit = window.limit ?? Number.MAX_SAFE_INTEGER;
  return shared.run(template, unlimited ? [] : [limit, window.offset], source.base);
}
