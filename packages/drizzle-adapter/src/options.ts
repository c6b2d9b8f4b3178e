import type { AdapterName, ColumnInfo, ColumnKind } from '@pagewise/sql';

/** The adapter's name in `OrderedQuery.adapter` and in its errors, and the factory they suggest. */
export const DRIZZLE: AdapterName = Object.freeze({ name: 'drizzle', factory: 'fromDrizzle' });

/**
 * A Drizzle database (`drizzle(pool)` of `drizzle-orm/node-postgres`, `mysql2`, `better-sqlite3`
 * or `pglite`), as far as the adapter reads it: its dialect and its session, which every
 * statement runs through (so the database's `logger` sees them).
 */
export interface DrizzleDatabase {
  readonly _: object;
}

/**
 * A Drizzle select builder (`db.select().from(posts)...`), typed by what its rows are.
 * @example
 * const builder: DrizzleSelect = db.select().from(posts).orderBy(desc(posts.createdAt));
 */
export interface DrizzleSelect {
  readonly _: { readonly result: unknown };
}

/** The row type of a select builder: one element of what awaiting it answers. */
export type RowOf<S extends DrizzleSelect> = S['_']['result'] extends ReadonlyArray<infer R> ? R : never;

/**
 * Options of `fromDrizzle`.
 * @example
 * fromDrizzle(db.select().from(posts), { db, uniqueKey: 'slug' })
 */
export interface DrizzleQueryOptions {
  /** The Drizzle database the builder came from: every statement runs through its session. */
  db: DrizzleDatabase;
  /**
   * The result key of a field unique per row, appended by cursor pagination as the tiebreaker;
   * `null` falls back to DRF's position + offset cursors. A key the selection lacks is fetched
   * beside it and stripped from the rows. A list names the result keys of a composite key (a
   * multi-tenant table's `primaryKey({ columns: [t.tenantId, t.id] })`): each one the ordering
   * lacks is appended in key order, and cursors carry them all.
   * @default the result key of the table's primary key column in the Drizzle schema, or those of
   * its composite `primaryKey({ columns })` (else `'id'`)
   * @example
   * fromDrizzle(db.select().from(orders), { db, uniqueKey: ['tenantId', 'id'] })
   */
  uniqueKey?: string | readonly string[] | null;
  /**
   * Column kinds (and nullability) of ordering fields the catalog cannot describe (`sql`
   * expressions of the selection), or to skip the catalog lookup.
   * @default {}
   * @example
   * { columns: { score: 'number' } }
   */
  columns?: Readonly<Record<string, ColumnKind | ColumnInfo>>;
  /**
   * A select of the same database whose `count(*)` replaces the page query's: the query without
   * the joins that do not change its rows, or a counter table's select. Its ORDER BY, LIMIT and
   * OFFSET are dropped; the page query's own LIMIT/OFFSET still bounds the total. Safe only when
   * it selects exactly as many rows as the page query: a join that filters (an inner join to a
   * table that may lack a match) or one that multiplies rows makes the total wrong.
   * @default undefined (the page query's own count)
   * @example
   * fromDrizzle(db.select({ id: posts.id, author: users.name }).from(posts).leftJoin(users, eq(users.id, posts.authorId)),
   *   { db, countQuery: db.select().from(posts) })
   * // select count(*) as "count" from (select 1 as "one" from "posts") as "pagewise_count"
   */
  countQuery?: DrizzleSelect | undefined;
  /**
   * Offset pages (page numbers, limit/offset) select the page's keys first, by LIMIT/OFFSET over
   * the select's FROM, JOINs and WHERE with nothing else selected (an index-only scan where an
   * index holds the ordering and the key), then the rows of those keys, as `fromKysely` does.
   * The rows are those of plain OFFSET ordered by the ordering, then by `uniqueKey` in its last
   * direction. Refused with a `ConfigurationError` by `fromDrizzle` for GROUP BY, DISTINCT,
   * HAVING, UNION, an aggregate or a window function in the selection, or `uniqueKey: null`; at
   * the first page for a key no primary key or unique index of the select's one table covers.
   * @default false
   * @example
   * fromDrizzle(db.select().from(posts), { db, deferredJoin: true })
   * // select ... from "posts" inner join (select "id" as "pagewisek0" from "posts" order by ...
   * //   limit $1 offset $2) as "pagewisekeys" on "posts"."id" = "pagewisekeys"."pagewisek0" order by ...
   */
  deferredJoin?: boolean;
}
