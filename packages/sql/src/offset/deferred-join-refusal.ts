import { ConfigurationError } from '@pagewise/core';
import type { AdapterName } from '../adapter-name.js';
import { readCatalog } from '../catalog/catalog-reads.js';
import { keyColumnsOf } from '../catalog/key-columns.js';
import type { SqlSession } from '../catalog/session.js';
import type { QueryTables } from '../catalog/source-tables.js';
import { uniqueIndexes } from '../catalog/unique-indexes.js';
import { catalogNullable } from '../dialect/catalog-rows.js';
import type { PlanSource, QueryClauses } from '../planner/order-plan.js';
import { keyFields } from './deferred-join.js';

// What a deferred join cannot serve. Its inner select picks a page of keys from the query's rows
// and its outer one reads the rows of those keys: right only when every row of the query is one
// key's, and a row's values do not depend on the other rows of the page. GROUP BY, DISTINCT,
// HAVING and aggregates make rows of several rows' keys; a compound (UNION...) has no one FROM to
// join; a window function computed over the page's rows alone answers other values than over
// the whole query; without a unique key two rows share one. Each is refused when the query is
// made (`refuseDeferredJoin`); the key's uniqueness, which the catalog says, at the first page
// (`deferredKeyRefusal`).

/** What the query holds that a deferred join cannot serve, as its ORM reads it. */
export interface DeferredJoinClauses
  extends Pick<QueryClauses, 'distinct' | 'distinctOn' | 'groupBy' | 'having' | 'setOperations'> {
  /** A window function (`... over (...)`) in its selection, outside any subquery. */
  readonly windowFunction: boolean;
  /** An aggregate (`count(*)`, `sum(x)`) in its selection, outside any subquery. */
  readonly aggregate: boolean;
}

/** An aggregate call or a window function in SQL text the ORM holds as written (`sql\`...\``). */
const WINDOW = /\bover\s*\(/i;
const AGGREGATE =
  /\b(?:count|sum|avg|min|max|group_concat|string_agg|array_agg|json_agg|jsonb_agg|json_arrayagg|json_objectagg|bool_and|bool_or|every|bit_and|bit_or|stddev\w*|var_\w+|variance)\s*\(/i;
const SUBQUERY = /\bselect\b/i;

/**
 * What SQL text written into a selection says (`DeferredJoinClauses`' two flags): a window
 * function wherever `over (` appears; an aggregate where a call of one appears and the text holds
 * no `select` (a correlated subquery's `count(*)` counts other rows, per row, and is served).
 * @example
 * selectionTextComputes('rank() over (order by score)') // { windowFunction: true, aggregate: false }
 */
export function selectionTextComputes(text: string): { windowFunction: boolean; aggregate: boolean } {
  return { windowFunction: WINDOW.test(text), aggregate: AGGREGATE.test(text) && !SUBQUERY.test(text) };
}

/**
 * Throws the `ConfigurationError` of a query a deferred join cannot serve (`DeferredJoinClauses`,
 * or no unique key), naming what it holds; nothing for one it serves.
 * @example
 * refuseDeferredJoin(KYSELY, 'kysely query on "items"', clauses, 'id')
 * // kysely adapter: deferredJoin cannot page kysely query on "items": it has GROUP BY (...)
 */
export function refuseDeferredJoin(
  adapter: AdapterName,
  description: string,
  clauses: DeferredJoinClauses,
  uniqueKey: string | readonly string[] | null,
): void {
  const held = [
    clauses.groupBy && 'GROUP BY',
    (clauses.distinct || clauses.distinctOn) && 'DISTINCT',
    clauses.having && 'HAVING',
    clauses.setOperations && 'a UNION, INTERSECT or EXCEPT',
    clauses.aggregate && 'an aggregate in its selection',
    clauses.windowFunction && 'a window function in its selection',
  ].filter((what): what is string => typeof what === 'string');
  if (held.length > 0) {
    throw new ConfigurationError(
      `${adapter.name} adapter: deferredJoin cannot page ${description}: it has ${held.join(', ')}, so its ` +
        "rows are not one row per key (or a row's values depend on the rows beside it); drop deferredJoin " +
        'for this query, or page the query as a derived table of its own',
    );
  }
  if (keyFields(uniqueKey).length === 0) {
    throw new ConfigurationError(
      `${adapter.name} adapter: deferredJoin pages ${description} by its unique key, and uniqueKey is null; ` +
        `name a column unique per row (${adapter.factory}(query, { uniqueKey: 'id', deferredJoin: true })) ` +
        'or drop deferredJoin',
    );
  }
}

/**
 * Why `columns` (the key's, as the query names them) are not unique per row of a query of one
 * table: not a column of it, or covered by no primary key or unique index over NOT NULL columns.
 * `undefined` when one covers them, and whenever the catalog cannot say (a join, a view, a
 * derived table, a dialect without the catalog read): the key is then taken as given.
 *
 * @example
 * await deferredKeyRefusal(session, tables, 'kysely query on "items"', ['rank'])
 * // 'kysely adapter: deferredJoin needs a key unique per row of kysely query on "items", and no
 * //  primary key or unique index of "items" has all its columns among "rank"; ...'
 */
export async function deferredKeyRefusal(
  session: SqlSession,
  source: QueryTables,
  joins: boolean,
  description: string,
  columns: readonly string[],
): Promise<string | undefined> {
  const { tables, complete } = source;
  if (joins || !complete || tables.length !== 1) return undefined;
  const table = tables[0]!;
  const catalog = await readCatalog(session, table);
  const indexes = uniqueIndexes(catalog);
  if (catalog.size === 0 || indexes === undefined) return undefined;
  const { name, factory } = session.adapter;
  const declared = (column: string) =>
    [...catalog.keys()].find((known) => known === column || known.toLowerCase() === column.toLowerCase());
  const missing = columns.filter((column) => declared(column) === undefined);
  if (missing.length > 0) {
    return (
      `${name} adapter: deferredJoin pages ${description} by its unique key, and "${table.name}" has no ` +
      `column ${missing.map((c) => `"${c}"`).join(', ')}; name its key, e.g. ${factory}(query, { uniqueKey: '<column>', deferredJoin: true })`
    );
  }
  const among = new Set(columns.map((column) => declared(column)!));
  const nullable = (column: string) => {
    const row = catalog.get(column);
    return row === undefined || catalogNullable(row);
  };
  const covered = indexes.some(
    (index) =>
      index.columns.every((column) => among.has(column)) &&
      (index.nullsNotDistinct === true || !index.columns.some(nullable)),
  );
  if (covered) return undefined;
  return (
    `${name} adapter: deferredJoin needs a key unique per row of ${description}, and no primary key or ` +
    `unique index of "${table.name}" has all its columns among ${columns.map((c) => `"${c}"`).join(', ')} ` +
    '(NOT NULL): rows sharing a key would be read twice, or pages would skip rows; name a unique column with ' +
    `uniqueKey (${factory}(query, { uniqueKey: 'id', deferredJoin: true })), or drop deferredJoin`
  );
}

/**
 * The check of a query's key that deferred joins make at its first page (`deferredKeyRefusal`),
 * made once: a refusal stays, a failed catalog read is tried again at the next page. Held by what
 * every copy of one query shares (an adapter's session of it), never by the module.
 */
export class DeferredKeyCheck {
  #checked: Promise<void> | undefined;

  /**
   * Throws the `ConfigurationError` of a key of `source` no primary key or unique index of its one
   * table covers; passes a key the catalog cannot judge (an expression, a join, a view).
   * @example
   * await check.check(session, source) // ConfigurationError: ... deferredJoin needs a key unique per row ...
   */
  check(session: SqlSession, source: PlanSource & { readonly description: string }): Promise<void> {
    this.#checked ??= (async () => {
      const columns: string[] = [];
      for (const field of keyColumnsOf(session)) {
        const column = source.field(field).column;
        if (column === undefined) return;
        columns.push(column);
      }
      const joins = source.clauses().joins;
      const refusal = await deferredKeyRefusal(session, source.tables(), joins, source.description, columns);
      if (refusal !== undefined) throw new ConfigurationError(refusal);
    })().catch((error: unknown) => {
      if (!(error instanceof ConfigurationError)) this.#checked = undefined;
      throw error;
    });
    return this.#checked;
  }
}
