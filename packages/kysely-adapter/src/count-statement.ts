import { AliasNode, ExplainNode, IdentifierNode, RawNode, SelectionNode, SelectQueryNode } from 'kysely';
import { selectsDistinct } from './query-tables.js';

// The statements of `count()`: `select count(*) as "count" from (<core>) as "pagewise_count"`, and
// the planner's estimate, `explain (format json) <core>` (MySQL/MariaDB: `explain format=json <core>`).

/** Whether the selection decides the rows: DISTINCT, DISTINCT ON, GROUP BY, HAVING, set operations. */
export function decidesRows(core: SelectQueryNode): boolean {
  return Boolean(
    selectsDistinct(core) || core.distinctOn || core.groupBy || core.having || core.setOperations,
  );
}

/**
 * What `count` counts: the core query, selecting a constant unless the selection decides the
 * rows (DISTINCT, GROUP BY, set operations). The constant spares the database the columns and
 * MySQL its "Duplicate column name" error for `select a.*, b.*` in a derived table.
 */
function counted(core: SelectQueryNode): SelectQueryNode {
  if (decidesRows(core)) return core;
  return {
    ...core,
    selections: [
      SelectionNode.create(AliasNode.create(RawNode.createWithSql('1'), IdentifierNode.create('one'))),
    ],
  };
}

/**
 * `select count(*) as "count" from (<core>) as "pagewise_count"`.
 * @example
 * countNode(core) // select count(*) as "count" from (select 1 as "one" from "articles" where ...) as "pagewise_count"
 */
export function countNode(core: SelectQueryNode): SelectQueryNode {
  return SelectQueryNode.cloneWithSelections(
    SelectQueryNode.createFrom([AliasNode.create(counted(core), IdentifierNode.create('pagewise_count'))]),
    [
      SelectionNode.create(
        AliasNode.create(RawNode.createWithSql('count(*)'), IdentifierNode.create('count')),
      ),
    ],
  );
}

/**
 * `explain (format json) <core>`, as Kysely writes EXPLAIN for the dialect (MySQL:
 * `explain format=json <core>`): the planner's row estimate (`readEstimate` reads it).
 * @example
 * estimateNode(core) // explain (format json) select * from "articles" where ...
 */
export function estimateNode(core: SelectQueryNode): SelectQueryNode {
  return { ...core, explain: ExplainNode.create('json') };
}
