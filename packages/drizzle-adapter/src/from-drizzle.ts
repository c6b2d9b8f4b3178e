import { ConfigurationError } from '@pagewise/core';
import { refuseDeferredJoin } from '@pagewise/sql';
import { type Column, entityKind, is, Table } from 'drizzle-orm';
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
import { deferredClauses } from './deferred-clauses.js';
import { DrizzleQuery, sharedCaches } from './drizzle-query.js';
import { DrizzleSession } from './drizzle-session.js';
import { DRIZZLE, type DrizzleQueryOptions, type DrizzleSelect, type RowOf } from './options.js';
import { shapesOf } from './shape-cache.js';
import { coreOf } from './statements.js';

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
  const deferredJoin = options.deferredJoin === true;
  if (deferredJoin)
    refuseDeferredJoin(DRIZZLE, description, deferredClauses(config, parts.dialect), uniqueKey);
  const session = new DrizzleSession(options.db, parts.dialect, uniqueKey, options.columns ?? {});
  const countParts = options.countQuery === undefined ? null : builderParts(options.countQuery);
  const counted =
    countParts === null ? null : { dialect: countParts.dialect, core: coreOf(countParts.config) };
  // The statements of the builder's shape, its WHERE values as placeholders, kept for the next
  // builder of that shape (`shape-cache.ts`); a `countQuery` is a builder of its own, so such a
  // query keeps its own statements.
  const template = shapes === undefined || counted !== null ? undefined : shapes.template(config);
  if (template === undefined) {
    return new DrizzleQuery<RowOf<S>>(
      { session, parts, description, counted, deferredJoin, ...sharedCaches(config) },
      own,
      null,
    );
  }
  const shared = {
    session,
    parts: { ...parts, config: template.config },
    description,
    counted,
    deferredJoin,
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
 * lacks it: fetched and stripped), or those of its composite `primaryKey({ columns })`, else `'id'`.
 */
function primaryKeyField(config: SelectConfig): string | readonly string[] {
  if (!is(config.table, Table)) return 'id';
  const columns = tableColumns(config.table) ?? {};
  const keyOf = (column: Column, key: string) => resultKeyOf(config.fields, column) ?? key;
  for (const [key, column] of Object.entries(columns)) {
    if (column.primary) return keyOf(column, key);
  }
  const composite = compositePrimaryKey(config.table);
  if (composite !== undefined) {
    const byName = new Map(Object.entries(columns).map(([key, column]) => [column.name, { key, column }]));
    const keys = composite.map((name) => byName.get(name));
    if (keys.every((found) => found !== undefined)) return keys.map(({ key, column }) => keyOf(column, key));
  }
  return 'id';
}

const EXTRA_CONFIG_BUILDER = Symbol.for('drizzle:ExtraConfigBuilder');
const EXTRA_CONFIG_COLUMNS = Symbol.for('drizzle:ExtraConfigColumns');
/** Drizzle's entity kind of a primary key builder, per dialect: `PgPrimaryKeyBuilder`, ... */
const PRIMARY_KEY_BUILDER = /PrimaryKeyBuilder$/;

/**
 * The SQL names of the columns of a table's composite primary key, declared in its extra config
 * (`(t) => [primaryKey({ columns: [t.tenantId, t.id] })]`, or the object form of older schemas);
 * `undefined` when it declares none.
 */
function compositePrimaryKey(table: unknown): readonly string[] | undefined {
  const record = table as Record<symbol, unknown>;
  const build = record[EXTRA_CONFIG_BUILDER];
  if (typeof build !== 'function') return undefined;
  const config: unknown = build(record[EXTRA_CONFIG_COLUMNS]);
  if (config === null || typeof config !== 'object') return undefined;
  const items = Array.isArray(config) ? config.flat(1) : Object.values(config);
  for (const item of items) {
    const kind = (item?.constructor as Record<symbol, unknown> | undefined)?.[entityKind];
    if (typeof kind !== 'string' || !PRIMARY_KEY_BUILDER.test(kind)) continue;
    const keyed = (item as { columns?: ReadonlyArray<{ name?: unknown }> }).columns;
    if (!Array.isArray(keyed) || !keyed.every((column) => typeof column?.name === 'string')) return undefined;
    return keyed.map((column) => column.name as string);
  }
  return undefined;
}
