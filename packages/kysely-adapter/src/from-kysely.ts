import { keyColumnsOf, refuseDeferredJoin } from '@pagewise/sql';
import type { SelectQueryBuilder, SelectQueryNode, Simplify } from 'kysely';
import { KyselyQuery } from './kysely-query.js';
import { type AnyBuilder, KYSELY, type KyselyQueryOptions } from './options.js';
import { deferredClauses, queryDescription } from './query-tables.js';
import { SharedState } from './shared-state.js';
import { StatementCache } from './statement-cache.js';

/**
 * Pages a Kysely select query on Postgres (and PGlite), SQLite or MySQL/MariaDB. Its ORDER BY is
 * the query's ordering; cursor pagination replaces it and appends `uniqueKey` as the
 * tiebreaker, selecting it if the query does not (and stripping it from the rows again).
 * Rows keep the builder's row type. Under a plugin that renames identifiers (`CamelCasePlugin`),
 * orderings, `uniqueKey` and lookups name fields as the rows do (`createdAt`).
 *
 * @example
 * const query = fromKysely(db.selectFrom('articles').selectAll().orderBy('created', 'desc'), { db });
 * const rows = await new CursorPagination({ pageSize: 20 }).paginateQueryset(query, request);
 * // select * from "articles" where ("created", "id") < ($1, $2) order by "created" desc, "id" desc limit $3
 */
export function fromKysely<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  options: KyselyQueryOptions = {},
): KyselyQuery<Simplify<O>> {
  const tree = query.toOperationNode();
  const { cache, node, values, shape } = StatementCache.recognised(tree, options.statementCache, options.db);
  const shared = new SharedState(query as AnyBuilder, options, cache, renames(query, tree));
  if (shared.deferredJoin) {
    refuseDeferredJoin(KYSELY, queryDescription(tree), deferredClauses(tree), keyColumnsOf(shared));
  }
  return new KyselyQuery<Simplify<O>>(shared, node as SelectQueryNode, null, values, shape);
}

/**
 * Whether the builder's plugins rewrite its tree: without any, `toOperationNode` answers the
 * builder's own node, the same object every time; a plugin (CamelCasePlugin) answers a new one.
 */
function renames(query: { toOperationNode(): unknown }, tree: unknown): boolean {
  return query.toOperationNode() !== tree;
}
