import type { QueryClauses, QueryTables, SourceTable } from '@pagewise/sql';
import { AliasNode, type OperationNode, type SelectQueryNode, TableNode } from 'kysely';
import { equalityColumns, fixedColumns, identifierName } from './query-nodes.js';

// What `@pagewise/sql`'s planner reads of a query, read from Kysely's tree: the tables of its FROM
// and JOINs, and what its clauses say (DISTINCT, GROUP BY, set operations, WHERE equalities).

/** A FROM or JOIN item as a `SourceTable`, `undefined` for a derived table or an expression. */
export function sourceTable(node: OperationNode): SourceTable | undefined {
  if (TableNode.is(node)) {
    const name = node.table.identifier.name;
    return { name, schema: node.table.schema?.name, alias: name };
  }
  if (AliasNode.is(node) && TableNode.is(node.node)) {
    const alias = identifierName(node.alias);
    const name = node.node.table.identifier.name;
    return { name, schema: node.node.table.schema?.name, alias: alias ?? name };
  }
  return undefined;
}

/** The FROM items and JOIN tables of `node`, in order. */
function sourcesOf(node: SelectQueryNode): OperationNode[] {
  const sources: OperationNode[] = [...(node.from?.froms ?? [])];
  for (const join of node.joins ?? []) sources.push(join.table);
  return sources;
}

/** The tables `node` reads from; `complete` when every source is one (no derived table, no CTE). */
export function queryTables(node: SelectQueryNode): QueryTables {
  const sources = sourcesOf(node);
  const tables: SourceTable[] = [];
  for (const source of sources) {
    const table = sourceTable(source);
    if (table !== undefined) tables.push(table);
  }
  return { tables, complete: tables.length === sources.length && node.with === undefined };
}

/** The name of the first table `node` reads from, as `queryTables` would list it. */
export function firstTableName(node: SelectQueryNode): string | undefined {
  for (const source of sourcesOf(node)) {
    if (TableNode.is(source)) return source.table.identifier.name;
    if (AliasNode.is(source) && TableNode.is(source.node)) return source.node.table.identifier.name;
  }
  return undefined;
}

/** Whether `core` selects `DISTINCT`. */
export function selectsDistinct(core: SelectQueryNode): boolean {
  return core.frontModifiers?.some((m) => m.modifier === 'Distinct') ?? false;
}

/**
 * What the clauses of `core` (the query without ORDER BY, LIMIT and OFFSET) say, as the planner reads them.
 * @example
 * queryClauses(db.selectFrom('t').selectAll().where('tenant', '=', 1).toOperationNode()).equalityColumns // ['tenant']
 */
export function queryClauses(core: SelectQueryNode): QueryClauses {
  const where = core.where?.where;
  return {
    distinct: selectsDistinct(core),
    distinctOn: core.distinctOn !== undefined,
    joins: core.joins !== undefined,
    groupBy: core.groupBy !== undefined,
    having: core.having !== undefined,
    setOperations: core.setOperations !== undefined,
    equalityColumns: where === undefined ? [] : equalityColumns(where),
    fixedColumns: where === undefined ? [] : fixedColumns(where),
  };
}
