import { ConfigurationError } from '@pagewise/core';
import { type Column, is, Table } from 'drizzle-orm';
import {
  builderParts,
  columnLabel,
  describe,
  orderTermsOf,
  resultKeyOf,
  type SelectConfig,
  selectionAt,
  tableColumns,
} from './builder-config.js';
import { DrizzleQuery, sharedCaches } from './drizzle-query.js';
import { DrizzleSession } from './drizzle-session.js';
import type { DrizzleQueryOptions, DrizzleSelect, RowOf } from './options.js';
import { shapesOf } from './shape-cache.js';

/**
 * Pages a Drizzle select on Postgres (node-postgres, PGlite), SQLite (better-sqlite3) or
 * MySQL/MariaDB (mysql2). Its ORDER BY (`.orderBy(desc(posts.createdAt))`) is the query's
 * ordering, read as result keys (`createdAt`, whatever the SQL name or the db's `casing`); cursor
 * pagination replaces it and appends `uniqueKey`, by default the table's primary key. Rows come
 * back as Drizzle maps them (its column modes), and positions are exact to the database's precision.
 *
 * @example
 * const query = fromDrizzle(db.select().from(posts).where(eq(posts.published, true)), { db });
 * const page = await cursorPage(query, url, { pageSize: 20, ordering: '-createdAt' });
 * // select ... from "posts" where ("posts"."published" = $1) and ("posts"."created_at", "posts"."id") < ($2, $3)
 * //   order by "posts"."created_at" desc, "posts"."id" desc limit 21
 */
export function fromDrizzle<S extends DrizzleSelect>(
  select: S,
  options: DrizzleQueryOptions,
): DrizzleQuery<RowOf<S>> {
  const shapes = shapesOf(options.db);
  if (shapes !== undefined) {
    const known = shapes.find(select, options);
    if (known !== undefined)
      return new DrizzleQuery<RowOf<S>>(known.shape.shared, known.shape.own, null, known.where);
  }
  const parts = builderParts(select);
  const config = parts.config;
  const description = describe(config);
  const own = orderTermsOf(config, parts.dialect, description);
  for (const term of own) refuseUnorderable(config, term.field, description);
  const uniqueKey = options.uniqueKey === undefined ? primaryKeyField(config) : options.uniqueKey;
  const session = new DrizzleSession(options.db, parts.dialect, uniqueKey, options.columns ?? {});
  // The statements of the builder's shape, its WHERE values as placeholders, kept for the next builder of that shape.
  const template = shapes === undefined ? undefined : shapes.template(config);
  if (template === undefined) {
    return new DrizzleQuery<RowOf<S>>({ session, parts, description, ...sharedCaches(config) }, own, null);
  }
  const shared = {
    session,
    parts: { ...parts, config: template.config },
    description,
    ...sharedCaches(template.config),
  };
  shapes!.remember({
    config,
    dialect: parts.dialect,
    joins: parts.joinsNotNullableMap,
    options,
    shared,
    own,
  });
  return new DrizzleQuery<RowOf<S>>(shared, own, null, template.values);
}

/** Column types no cursor can bound exactly, refused before any statement: json(b), binary, blob. */
const UNORDERABLE = /json|bytea|binary|blob/i;

function refuseUnorderable(config: SelectConfig, field: string, description: string): void {
  const entry = selectionAt(config.fields, field) as Column | undefined;
  const type = (entry as { columnType?: string } | undefined)?.columnType ?? '';
  if (UNORDERABLE.test(type)) {
    throw new ConfigurationError(
      `drizzle adapter: ${description} cannot be paged by "${field}" (${columnLabel(entry!)}, a ${type} column): ` +
        'its type has no order a cursor can bound exactly; order by another column',
    );
  }
}

/**
 * The result key of the FROM table's primary key column (its TypeScript key when the selection
 * lacks it: fetched and stripped), else `'id'`.
 */
function primaryKeyField(config: SelectConfig): string {
  if (!is(config.table, Table)) return 'id';
  const columns = tableColumns(config.table) ?? {};
  for (const [key, column] of Object.entries(columns)) {
    if (column.primary) return resultKeyOf(config.fields, column) ?? key;
  }
  return 'id';
}
