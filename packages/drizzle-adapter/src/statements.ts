import {
  AHEAD_COLUMN,
  type DeferredJoinStatement,
  KEYS_TABLE,
  type KeysetStatement,
  LOOKUP_SLICE,
  lookupPredicate,
  node,
  type OrderItem,
  Slot,
  type SqlFragment,
  type SqlPart,
  TIE_COLUMN,
  TIE_TABLE,
} from '@pagewise/sql';
import { Column, is, type SQL, SQL as SqlClass, sql } from 'drizzle-orm';
import { type DialectLike, orderedFields, type SelectConfig } from './builder-config.js';
import { lower, lowerOrderItems } from './lower.js';

// `@pagewise/sql`'s statements as Drizzle SQL, built by the builder's own dialect from the
// builder's config: its WHERE extended, its ORDER BY, LIMIT and OFFSET replaced, private columns
// selected beside its fields, its one table read through a named index, arms joined by `union all`,
// a derived table ranked. The config is copied, never changed.

/** The placeholders of a builder's WHERE values in the statements its shape shares (`shape-cache.ts`): `w0`, `w1`, ... */
export const WHERE_VALUE = 'w';

/** A statement and the fields its rows are read back by (Drizzle maps array rows by them). */
export interface BuiltStatement {
  readonly sql: SQL;
  /** `undefined`: rows as the database names their columns (the adapter's own reads). */
  readonly fields: Readonly<Record<string, unknown>> | undefined;
  /** Fields of the result after the selection's own (the tie group). */
  readonly extra: readonly string[];
  /** How many of the fields, the last ones, are the adapter's private columns (`extra` among them): read as the driver gives them. */
  readonly own: number;
  /**
   * Private columns not selected because the selection holds the very column at the top level:
   * each row gets the driver's value of that field under the alias (`flatRows`). @default []
   */
  readonly copies?: readonly PrivateCopy[];
}

/** What Drizzle decodes a selected field's driver value with: a column, or the SQL behind an expression. */
export interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/**
 * The decoder of a top-level field of a selection (a column, a `sql` expression, an aliased one);
 * `undefined` for anything else (a nested object), whose rows Drizzle maps itself.
 */
export function fieldDecoder(field: unknown): Decoder | undefined {
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SqlClass)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, SqlClass.Aliased)) return (field as unknown as { sql: { decoder: Decoder } }).sql.decoder;
  return undefined;
}

/** A private column read from a field of the selection: `alias` gets the driver's value of `key`. */
export interface PrivateCopy {
  readonly alias: string;
  readonly key: string;
}

/** The fields Drizzle maps a statement's array rows by: the selection's, then `extra` (raw values). */
export function orderedFieldsWith(statement: BuiltStatement): Array<{ path: string[]; field: unknown }> {
  const fields = orderedFields(statement.fields ?? {});
  for (const name of statement.extra) fields.push({ path: [name], field: sql.raw(name).as(name) });
  return fields;
}

/** The config without ORDER BY, LIMIT and OFFSET: what windows and counts start from. */
export function coreOf(config: SelectConfig): SelectConfig {
  const { orderBy: _orderBy, limit: _limit, offset: _offset, ...core } = config;
  return core;
}

function build(dialect: DialectLike, config: SelectConfig, overrides: Record<string, unknown> = {}): SQL {
  return dialect.buildSelectQuery({ ...config, setOperators: [], ...overrides });
}

/** ANDs `predicates` onto a WHERE, the WHERE parenthesised so an OR in either cannot leak. */
export function withWhere(where: SQL | undefined, predicates: readonly SQL[]): SQL | undefined {
  const parts = [...(where === undefined ? [] : [sql`(${where})`]), ...predicates];
  return parts.length === 0 ? undefined : sql.join(parts, sql.raw(' and '));
}

/** The index hint of MySQL's `FORCE INDEX`, as Drizzle's MySQL dialect writes it (its names as given). */
function forceIndex(index: string): string[] {
  return [`\`${index.replaceAll('`', '``')}\``];
}

/**
 * A keyset statement (`KeysetStatement`, in the order its fields say) over the builder's core.
 *
 * @example
 * keysetSql(dialect, core, statement)
 * // select "id", "created_at", ... from "posts" where ("posts"."created_at", "posts"."id") < ($1, $2)
 * //   order by "posts"."created_at" desc, "posts"."id" desc limit 21
 */
export function keysetSql(
  dialect: DialectLike,
  core: SelectConfig,
  statement: KeysetStatement,
): BuiltStatement {
  // Drizzle's source offers no column to replace (`FieldSource.replaceable`): its driver hands over text.
  if ((statement.replaced?.length ?? 0) > 0)
    throw new Error('drizzle adapter: no selection is replaced in place');
  const ties = statement.tieGroups;
  const withList = core.withList ?? [];
  // Ranked, the statement is a derived table: its WITH moves to the head of the outer one.
  const hoisted = ties !== null && withList.length > 0;
  const base: SelectConfig = hoisted ? { ...core, withList: undefined } : core;
  const fields: Record<string, unknown> = { ...core.fields };
  const copies = ties === null && statement.arms.length <= 1 ? selectedCopies(core.fields, statement) : [];
  for (const selection of statement.selections) {
    if (copies.some((copy) => copy.alias === selection.alias)) continue;
    fields[selection.alias] = sql`${lower(selection.expr)}`.as(selection.alias);
  }
  const hint = statement.indexHint === null ? {} : { forceIndex: forceIndex(statement.indexHint) };
  const where = statement.stop === null ? core.where : withWhere(core.where, [lower(statement.stop)]);
  const items = lowerOrderItems(statement.orderBy);
  const arms = statement.arms.map((arm) => withWhere(where, arm.map(lower)));
  const limited = (limit: SQL, offset: SQL | undefined): SQL => {
    if (arms.length === 1)
      return build(dialect, base, { ...hint, fields, where: arms[0], orderBy: items, limit, offset });
    const selects = arms.map((armWhere, i) =>
      build(dialect, base, { ...hint, fields, where: armWhere, ...(i > 0 ? { withList: undefined } : {}) }),
    );
    const skip = offset === undefined ? sql`` : sql` offset ${offset}`;
    return sql`${sql.join(selects, sql.raw(' union all '))} order by ${sql.join(items, sql.raw(', '))} limit ${limit}${skip}`;
  };
  const offset = statement.offset === null ? undefined : lower(statement.offset);
  const ahead = ties?.lookAhead ?? null;
  let text: SQL;
  if (ahead === null) text = limited(lower(statement.limit), offset);
  else {
    // The look-ahead row read apart (`TieGroups.lookAhead`): a sort of the ranked rows cannot move it into the page.
    const arm = (inner: SQL, alias: string, flag: number) =>
      sql`select ${sql.identifier(alias)}.*, ${sql.raw(String(flag))} as ${sql.identifier(AHEAD_COLUMN)} from (${inner}) as ${sql.identifier(alias)}`;
    const page = arm(limited(lower(ahead.limit), offset), 'a', 0);
    const next = arm(limited(lower(ahead.aheadLimit), lower(ahead.aheadOffset)), 'b', 1);
    text = sql`${page} union all ${next}`;
  }
  const own = statement.selections.length - copies.length;
  if (ties === null) return { sql: text, fields, extra: [], own, copies };
  const head = hoisted ? (dialect.buildWithCTE?.(withList) ?? sql``) : sql``;
  const extra = ahead === null ? [TIE_COLUMN] : [AHEAD_COLUMN, TIE_COLUMN];
  return { sql: tieGroups(head, text, ties.keys, ties.orderBy), fields, extra, own: own + extra.length };
}

/**
 * The private selections of `statement` that are a column the (flat) selection `fields` holds at
 * its top level, as it is: rows carry the driver's value of that column already, so the statement
 * need not select it again (a column fewer to send and read). Only where nothing else names the
 * alias: one arm, no tie groups, an ORDER BY of expressions.
 *
 * @example
 * // select "id", "created", ... order by "posts"."created" desc, "posts"."id" desc
 * // instead of select "id", "created", ..., "posts"."created" as "pagewise0", "posts"."id" as "pagewise1"
 */
function selectedCopies(
  fields: Readonly<Record<string, unknown>>,
  statement: KeysetStatement,
): PrivateCopy[] {
  const entries = Object.entries(fields);
  // The rows `flatRows` maps: only there can a row be given the copy.
  if (!entries.every(([, field]) => fieldDecoder(field) !== undefined)) return [];
  const copies: PrivateCopy[] = [];
  for (const selection of statement.selections) {
    const { expr, alias } = selection;
    if (expr instanceof Slot || expr.kind !== 'node' || !is(expr.node, Column)) continue;
    if (statement.orderBy.some((item) => names(item.expr, alias))) continue;
    const found = entries.find(([, field]) => field === expr.node);
    if (found !== undefined) copies.push({ alias, key: found[0] });
  }
  return copies;
}

/** Whether `part` names the identifier `alias` anywhere. */
function names(part: SqlPart, alias: string): boolean {
  if (part instanceof Slot) return false;
  if (part.kind === 'identifier') return part.names.at(-1) === alias;
  if (part.kind === 'fragment') return part.parts.some((inner) => names(inner, alias));
  return false;
}

/**
 * `statement` read with each row's tie group: `dense_rank()` over the ordering's columns of its
 * result, as a derived table, after `head` (the query's WITH).
 *
 * @example
 * // select "w".*, dense_rank() over (order by "pagewise0") as "pagewisetie"
 * //   from (select ... order by "title" limit $2) as "w" order by "pagewise0"
 */
function tieGroups(head: SQL, statement: SQL, keys: readonly SqlPart[], items: readonly OrderItem[]): SQL {
  const rank = sql`dense_rank() over (order by ${sql.join(keys.map(lower), sql.raw(', '))})`;
  const table = sql.identifier(TIE_TABLE);
  return sql`${head}select ${table}.*, ${rank} as ${sql.identifier(TIE_COLUMN)} from (${statement}) as ${table} order by ${sql.join(lowerOrderItems(items), sql.raw(', '))}`;
}

/**
 * An offset window: the builder's select with `orderBy` (or its own ORDER BY), LIMIT slot 0 and
 * OFFSET slot 1 as `limited` says.
 * @example
 * // select ... from "posts" order by "posts"."created_at" desc limit $1 offset $2
 */
export function offsetSql(
  dialect: DialectLike,
  config: SelectConfig,
  orderBy: readonly SQL[] | null,
  limited: { readonly limit: boolean; readonly offset: boolean },
): BuiltStatement {
  const text = build(dialect, config, {
    orderBy: orderBy ?? config.orderBy,
    limit: limited.limit ? lower(new Slot(0)) : undefined,
    offset: limited.offset ? lower(new Slot(1)) : undefined,
  });
  return { sql: text, fields: config.fields, extra: [], own: 0 };
}

/**
 * A deferred-join offset window (`DeferredJoinStatement`) over the builder's core: the keys'
 * select a derived table without the WITH, which stays at the head of the outer select.
 * @example
 * // select ... from "posts" inner join (select "id" as "pagewisek0" from "posts" order by "posts"."created_at" desc,
 * //   "posts"."id" desc limit $1 offset $2) as "pagewisekeys" on "posts"."id" = "pagewisekeys"."pagewisek0"
 * //   order by "posts"."created_at" desc, "posts"."id" desc
 */
export function deferredSql(
  dialect: DialectLike,
  core: SelectConfig,
  statement: DeferredJoinStatement,
): BuiltStatement {
  const items = [...lowerOrderItems(statement.orderBy ?? []), ...lowerOrderItems(statement.tiebreak)];
  const keys: Record<string, unknown> = {};
  for (const key of statement.keys) keys[key.alias] = sql`${lower(key.expr)}`.as(key.alias);
  const inner = build(dialect, core, {
    withList: undefined,
    fields: keys,
    orderBy: items,
    limit: statement.limit === null ? undefined : lower(statement.limit),
    offset: statement.offset === null ? undefined : lower(statement.offset),
  });
  const keysTable = {
    table: sql`(${inner}) as ${sql.identifier(KEYS_TABLE)}`,
    joinType: 'inner',
    on: lower(statement.on),
  };
  const text = build(dialect, core, { joins: [...(core.joins ?? []), keysTable], orderBy: items });
  return { sql: text, fields: core.fields, extra: [], own: 0 };
}

/** Whether the selection decides the rows (DISTINCT, GROUP BY, set operations): then it is counted as it is. */
export function decides(core: SelectConfig): boolean {
  return (
    (core.distinct !== undefined && core.distinct !== false) ||
    (core.groupBy?.length ?? 0) > 0 ||
    core.having !== undefined ||
    (core.setOperators?.length ?? 0) > 0
  );
}

/**
 * `select count(*) as "count" from (<core>) as "pagewise_count"`, the core selecting a constant
 * unless its selection decides the rows.
 */
export function countSql(dialect: DialectLike, core: SelectConfig): SQL {
  const counted = decides(core)
    ? build(dialect, core)
    : build(dialect, core, { fields: { one: sql`1`.as('one') } });
  return sql`select count(*) as ${sql.identifier('count')} from (${counted}) as ${sql.identifier('pagewise_count')}`;
}

/**
 * The JSON `EXPLAIN` of `<core>` as the dialect writes it (`DialectCapabilities.explainJson`),
 * whose rows hold the planner's row estimate.
 * @example
 * estimateSql(dialect, core, postgresCapabilities.explainJson!) // explain (format json) select ... from "posts" ...
 */
export function estimateSql(
  dialect: DialectLike,
  core: SelectConfig,
  explain: (query: SqlPart) => SqlFragment,
): SQL {
  return lower(explain(node(build(dialect, core))));
}

/**
 * An equality lookup (`lookupPredicate`): the value in slot 0, LIMIT slot 1. Over a sliced
 * builder it runs on the slice, a derived table, so rows outside it are not found.
 * @example
 * // select ... from "posts" where ("posts"."published" = $1) and "posts"."id" = $2 limit $3
 */
export function lookupSql(
  dialect: DialectLike,
  config: SelectConfig,
  expr: SqlPart,
  column: string,
  sliced: boolean,
): BuiltStatement {
  const limit = lower(new Slot(1));
  if (!sliced) {
    const core = coreOf(config);
    const where = withWhere(core.where, [lower(lookupPredicate(expr))]);
    return { sql: build(dialect, core, { where, limit }), fields: config.fields, extra: [], own: 0 };
  }
  const slice = sql.identifier(LOOKUP_SLICE);
  const equals = lower(lookupPredicate(node(sql`${slice}.${sql.identifier(column)}`)));
  const text = sql`select * from (${build(dialect, config)}) as ${slice} where ${equals} limit ${limit}`;
  return { sql: text, fields: config.fields, extra: [], own: 0 };
}
