import {
  type DeferredJoinClauses,
  type QueryClauses,
  type QueryTables,
  type SourceTable,
  selectionTextComputes,
} from '@pagewise/sql';
import { AliasNode, type OperationNode, type RawNode, type SelectQueryNode, TableNode } from 'kysely';
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

/** How messages name the query: by the first table it reads from. */
export function queryDescription(node: SelectQueryNode): string {
  const first = firstTableName(node);
  return first === undefined ? 'kysely query' : `kysely query on "${first}"`;
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

/**
 * What `core` holds that a deferred join cannot serve (`DeferredJoinClauses`): its clauses, and
 * the aggregates and window functions of its selection outside any subquery, read from Kysely's
 * nodes (`fn.count()`, `fn.agg(...).over()`, `fn('sum', ...)`) and from SQL written as text.
 *
 * @example
 * deferredClauses(db.selectFrom('t').select(sql`rank() over (order by score)`.as('r')).toOperationNode()).windowFunction // true
 */
export function deferredClauses(core: SelectQueryNode): DeferredJoinClauses {
  const found = { windowFunction: false, aggregate: false };
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const kind = (node as { kind?: unknown }).kind;
    // A subquery's aggregates count its own rows, per row of the query.
    if (kind === 'SelectQueryNode') return;
    if (kind === 'AggregateFunctionNode') {
      if ((node as { over?: unknown }).over !== undefined) found.windowFunction = true;
      else found.aggregate = true;
    } else if (kind === 'OverNode') found.windowFunction = true;
    else if (kind === 'FunctionNode') {
      const text = selectionTextComputes(`${(node as { func: string }).func}(`);
      found.aggregate ||= text.aggregate;
    } else if (kind === 'RawNode') {
      const text = selectionTextComputes((node as RawNode).sqlFragments.join(' '));
      found.windowFunction ||= text.windowFunction;
      found.aggregate ||= text.aggregate;
    }
    for (const key in node) visit((node as Record<string, unknown>)[key]);
  };
  visit(core.selections);
  return { ...queryClauses(core), ...found };
}
