import { LOOKUP_SLICE, lookupPredicate, node, Slot } from '@pagewise/sql';
import {
  AliasNode,
  ColumnNode,
  IdentifierNode,
  type OperationNode,
  ReferenceNode,
  SelectionNode,
  SelectQueryNode,
} from 'kysely';
import { lower } from './lower.js';
import { withLimit, withWhere } from './statement-nodes.js';

/**
 * The statement of an equality lookup (`lookupPredicate`): the query's WHERE and the bound value
 * ANDed, one row. Over a sliced builder the lookup runs on the slice (a derived table), so rows
 * outside it are not found. Slot 0 is the value, slot 1 the limit.
 *
 * @example
 * // select * from "articles" where "published" = $1 and "id" = $2 limit $3
 * // sliced: select * from (select * from "articles" order by "id" limit $1) as "pagewise_slice" where "id" = $2 limit $3
 */
export function lookupNode(
  core: SelectQueryNode,
  sliced: SelectQueryNode | null,
  expr: OperationNode,
  column: string,
): SelectQueryNode {
  const equals = (left: OperationNode) => lower(lookupPredicate(node(left)));
  if (sliced === null) return withLimit(withWhere(core, [equals(expr)]), new Slot(1), null);
  const from = SelectQueryNode.cloneWithSelections(
    SelectQueryNode.createFrom([AliasNode.create(sliced, IdentifierNode.create(LOOKUP_SLICE))]),
    [SelectionNode.createSelectAll()],
  );
  return withLimit(
    withWhere(from, [equals(ReferenceNode.create(ColumnNode.create(column)))]),
    new Slot(1),
    null,
  );
}
