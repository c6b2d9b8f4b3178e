import type { AdapterName, ColumnInfo, ColumnKind, DialectCapabilities, DialectName } from '@pagewise/sql';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { StatementCache } from './statement-cache.js';

/** The adapter's name in `OrderedQuery.adapter` and in its errors, and the factory they suggest. */
export const KYSELY: AdapterName = Object.freeze({ name: 'kysely', factory: 'fromKysely' });

/** The adapter's name in `OrderedQuery.adapter`. */
export const ADAPTER = KYSELY.name;

// biome-ignore lint/suspicious/noExplicitAny: the adapter accepts a Kysely instance of any schema.
export type AnyKysely = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: internally the builder is only compiled and executed.
export type AnyBuilder = SelectQueryBuilder<any, any, any>;

/**
 * Options of `fromKysely`.
 * @example
 * fromKysely(db.selectFrom('articles').selectAll(), { db, uniqueKey: 'article_id' })
 */
export interface KyselyQueryOptions {
  /**
   * The Kysely instance the builder came from. With it, each window shape is compiled once and
   * re-run with new parameters, and column types are read from the catalog once per table.
   * Without it everything runs through the builder itself: compiled per page, and column types
   * read once per query object.
   * @default undefined
   */
  db?: AnyKysely | undefined;
  /**
   * A column unique per row, appended by cursor pagination as the tiebreaker; `null` falls back
   * to DRF's position + offset cursors. A qualified name (`'articles.id'`) disambiguates joins.
   * Where the catalog lists the table's primary key and unique indexes (a query of one table,
   * ordered by its columns), a key order none of them covers is refused with a
   * `ConfigurationError` on the first cursor page; views, joins and expressions are taken as given.
   * A list names the columns of a composite key (a multi-tenant table's `PRIMARY KEY (tenant_id,
   * id)`): each one the ordering lacks is appended in key order, and cursors carry them all; the
   * catalog check then asks for an index over the whole key.
   * @default 'id'
   * @example
   * fromKysely(db.selectFrom('orders').selectAll(), { db, uniqueKey: ['tenant_id', 'id'] })
   */
  uniqueKey?: string | readonly string[] | null;
  /**
   * Column kinds (and nullability) of ordering fields, for expressions the catalog cannot
   * describe or to skip the catalog lookup (a declared key is then also taken as unique).
   * @default {}
   * @example
   * { columns: { score: 'number', published: { kind: 'date', nullable: true } } }
   */
  columns?: Readonly<Record<string, ColumnKind | ColumnInfo>>;
  /**
   * The SQL dialect, when recognising it by how it compiles is not enough.
   * @default recognised from the compiled SQL (quotes and placeholders)
   */
  dialect?: DialectName | DialectCapabilities;
  /**
   * A builder whose `count(*)` replaces the page query's: the query without the joins that do not
   * change its rows, or a counter table's select. Its ORDER BY, LIMIT and OFFSET are dropped; the
   * page query's own LIMIT/OFFSET still bounds the total. Safe only when it selects exactly as
   * many rows as the page query: a join that filters (an inner join to a table that may lack a
   * match) or one that multiplies rows makes the total wrong. @default undefined (the page
   * query's own count)
   * @example
   * fromKysely(db.selectFrom('articles').innerJoin('authors', 'authors.id', 'articles.author_id').selectAll('articles'),
   *   { db, countQuery: db.selectFrom('articles') })
   * // select count(*) as "count" from (select 1 as "one" from "articles") as "pagewise_count"
   */
  countQuery?: AnyBuilder | undefined;
  /**
   * Offset pages (page numbers, limit/offset) select the page's keys first, by LIMIT/OFFSET over
   * the query's FROM, JOINs and WHERE with nothing else selected (an index-only scan where an
   * index holds the ordering and the key), then the rows of those keys: a deep page no longer
   * reads every row before it. The rows are those of plain OFFSET ordered by the ordering, then
   * by `uniqueKey` in its last direction (ties fall alike on every page). Refused with a
   * `ConfigurationError` when the query is made for GROUP BY, DISTINCT, HAVING, UNION, an
   * aggregate or a window function in the selection, or `uniqueKey: null`; at the first page for
   * a key no primary key or unique index of the query's one table covers. Cursor pages and counts
   * are unchanged. @default false
   * @example
   * fromKysely(db.selectFrom('articles').selectAll(), { db, deferredJoin: true })
   * // select * from "articles" inner join (select "id" as "pagewisek0" from "articles"
   * //   order by "created" desc, "id" desc limit $1 offset $2) as "pagewisekeys"
   * //   on "id" = "pagewisekeys"."pagewisek0" order by "created" desc, "id" desc
   */
  deferredJoin?: boolean | undefined;
  /**
   * Where compiled statements, catalog reads and the recognised dialect are kept between
   * queries: share one across the queries of one database, or give a query its own.
   * @default the cache owned by `db` (one per Kysely instance), or one per query without `db`
   */
  statementCache?: StatementCache | undefined;
}
