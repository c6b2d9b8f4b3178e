import {
  ConfigurationError,
  type CountResult,
  type FetchedRows,
  fetchedRowsOf,
  type KeyTerm,
  type OrderedQuery,
  type OrderTerm,
  settleNulls,
  type WindowRow,
  type WindowSpec,
} from '@pagewise/core';
import {
  type BuilderSlice,
  type ColumnInfo,
  columnInfo,
  countKey,
  type FieldSource,
  type KeysetHost,
  type KeysetRows,
  type KeysetStatement,
  lookupAccepts,
  lookupParameter,
  node,
  type OrderPlan,
  orderByItems,
  planByText,
  type QueryClauses,
  type QueryTables,
  readKeysetWindow,
  refuseKeysetOnSlice,
  type ShapePlans,
  type StatementRunner,
  shapePlans,
  sliceCount,
  sliceOf,
  sliceWindow,
  windowRows,
} from '@pagewise/sql';
import { Column, getTableName, is, Placeholder, SQL } from 'drizzle-orm';
import {
  type BuilderParts,
  queryClauses,
  queryTables,
  type SelectConfig,
  selectionAt,
  tableColumns,
} from './builder-config.js';
import type { DrizzleSession, DrizzleTemplate } from './drizzle-session.js';
import { lowerOrderItems } from './lower.js';
import { DRIZZLE } from './options.js';
import { coreOf, countSql, estimateSql, keysetSql, lookupSql, offsetSql } from './statements.js';

/** What every copy of one `fromDrizzle` value made by `orderBy` shares: its builder's parts, session and caches. */
export interface DrizzleShared {
  readonly session: DrizzleSession;
  readonly parts: BuilderParts;
  readonly description: string;
  /** Plans of the builder's statement by ordering, and its own statements (offset windows, counts, finds). */
  readonly plans: ShapePlans<DrizzleTemplate>;
  readonly templates: Map<string, DrizzleTemplate>;
  /** The config without ORDER BY, LIMIT and OFFSET (`coreOf`). */
  readonly core: SelectConfig;
}

/**
 * One Drizzle select as `@pagewise/sql` reads and runs it: its config read for the planner
 * (`PlanSource`: tables, clauses, fields) and its keyset statements built by the builder's
 * dialect and prepared through the database's session (`KeysetHost`). Positions are always read
 * from private columns (`renamed`): the selection's own values have gone through Drizzle's column
 * modes (`Date`, `number` of a bigint), the private ones are the driver's, typed by the column.
 */
class DrizzleSource implements KeysetHost<DrizzleTemplate> {
  readonly session: DrizzleSession;
  readonly runner: StatementRunner<DrizzleTemplate>;
  readonly base: readonly unknown[] = [];
  readonly description: string;
  readonly renamed = true;
  readonly config: SelectConfig;
  readonly core: SelectConfig;
  readonly #shared: DrizzleShared;
  #tables: QueryTables | undefined;
  #clauses: QueryClauses | undefined;

  /** The builder's WHERE values, in the placeholders of a shape's statements. */
  readonly where: readonly unknown[];

  constructor(shared: DrizzleShared, where: readonly unknown[]) {
    this.#shared = shared;
    this.session = shared.session;
    this.where = where;
    const session = shared.session;
    this.runner = { run: (template, values) => session.run(template, values, where) };
    this.description = shared.description;
    this.config = shared.parts.config;
    this.core = shared.core;
  }

  tables(): QueryTables {
    this.#tables ??= queryTables(this.config);
    return this.#tables;
  }

  clauses(): QueryClauses {
    this.#clauses ??= queryClauses(this.core, this.session.dialect);
    return this.#clauses;
  }

  /**
   * The selection entry of a result key: a column (its SQL name as the db's `casing` writes it),
   * an expression; or a column of the FROM table the selection lacks, by its TypeScript key
   * (fetched beside the selection and stripped).
   */
  field(field: string): FieldSource {
    const casing = this.session.dialect.casing;
    const entry = selectionAt(this.config.fields, field);
    if (is(entry, Column)) {
      return {
        expr: node(entry),
        selected: true,
        column: casing.getColumnCasing(entry),
        qualifier: getTableName(entry.table),
      };
    }
    if (is(entry, SQL.Aliased))
      return { expr: node(entry.getSQL()), selected: true, column: undefined, qualifier: undefined };
    if (is(entry, SQL)) return { expr: node(entry), selected: true, column: undefined, qualifier: undefined };
    const column = tableColumns(this.config.table)?.[field];
    if (column !== undefined) {
      return {
        expr: node(column),
        selected: false,
        column: casing.getColumnCasing(column),
        qualifier: getTableName(column.table),
      };
    }
    throw new ConfigurationError(
      `drizzle adapter: ${this.description} has no result key "${field}" (its keys: ${resultKeys(this.config).join(', ')}); ` +
        'order by a key of the selection',
    );
  }

  rowKey(field: string): string {
    return field;
  }

  treeField(field: string): string {
    return field;
  }

  compile(statement: KeysetStatement): DrizzleTemplate {
    const parts = this.#shared.parts;
    return this.session.prepare(keysetSql(parts.dialect, this.core, statement), parts.joinsNotNullableMap);
  }
}

/** The top-level result keys of a selection, for messages. */
function resultKeys(config: SelectConfig): string[] {
  return Object.keys(config.fields);
}

/**
 * An `OrderedQuery` over a Drizzle select. It never changes the builder (Drizzle builders change
 * in place: its config is copied once): each window is a new statement the builder's dialect
 * builds from that copy, prepared through the database's session, so the db's logger sees it.
 * What the SQL says is `@pagewise/sql`'s; this class reads Drizzle's builder for it and lowers
 * its statements into Drizzle's `sql`. Tokens are those `fromKysely` gives for the same table and
 * ordering: positions are typed by the database column, whatever Drizzle's column mode.
 *
 * @example
 * const query = fromDrizzle(db.select().from(posts), { db });
 * await query.fetch({ order: [{ field: 'id', direction: 'asc', nulls: 'last' }], after: [10], offset: 0, limit: 21 });
 * // select "id", ... from "posts" where "posts"."id" > $1 order by "posts"."id" asc limit 21
 */
export class DrizzleQuery<O> implements OrderedQuery<O> {
  readonly adapter = DRIZZLE.name;
  readonly ordering: readonly OrderTerm[];
  readonly ordered: boolean;
  readonly uniqueKey: string | null;
  readonly description: string;
  readonly #shared: DrizzleShared;
  readonly #source: DrizzleSource;
  /** The ordering offset windows compile with core's NULL placement: `orderBy`'s terms, or the builder's own. */
  readonly #terms: readonly OrderTerm[] | null;
  /** The builder's own LIMIT/OFFSET, which pages stay inside. */
  readonly #slice: BuilderSlice | null;

  /**
   * @internal use `fromDrizzle`; `where`: the builder's WHERE values when `shared` is a shape's
   * (its statements hold placeholders for them)
   */
  constructor(
    shared: DrizzleShared,
    own: readonly OrderTerm[],
    terms: readonly OrderTerm[] | null,
    where: readonly unknown[] = [],
  ) {
    this.#shared = shared;
    this.#source = new DrizzleSource(shared, where);
    const config = shared.parts.config;
    this.#slice = readSlice(config);
    this.uniqueKey = shared.session.uniqueKey;
    this.ordered = terms !== null || own.length > 0;
    this.ordering = terms ?? own;
    this.#terms = terms ?? (own.length > 0 ? own : null);
    this.description = shared.description;
  }

  /**
   * A copy ordered by `terms`, result keys (NULL placement settled as core does).
   * @example
   * query.orderBy([{ field: 'createdAt', direction: 'desc' }]) // ... order by "posts"."created_at" desc
   */
  orderBy(terms: readonly OrderTerm[]): DrizzleQuery<O> {
    if (this.#slice !== null) {
      throw new ConfigurationError(
        `drizzle adapter: cannot reorder ${this.description} once a slice has been taken (its own ` +
          'LIMIT/OFFSET); order the builder before .limit()/.offset(), or drop the slice',
      );
    }
    return new DrizzleQuery<O>(this.#shared, this.ordering, [...terms], this.#source.where);
  }

  /**
   * Counts the rows; with `estimate` on Postgres, reads the planner's estimate instead.
   * @example
   * await query.count() // select count(*) as "count" from (select 1 as "one" from "posts" ...) as "pagewise_count"
   */
  async count(options: { estimate?: boolean } = {}): Promise<CountResult> {
    const source = this.#source;
    const session = source.session;
    const dialect = session.dialect;
    if (options.estimate && session.capabilities.estimateCount) {
      const rows = await session.readSql(estimateSql(dialect, source.core), source.where);
      const estimate = rows[0] ? session.capabilities.readEstimate(rows[0]) : null;
      if (estimate !== null) return { value: sliceCount(this.#slice, estimate), exact: false };
    }
    const rows = await session.readSql(countSql(dialect, source.core), source.where);
    return { value: sliceCount(this.#slice, Number(rows[0]?.count ?? 0)), exact: true };
  }

  /** What a count cache keys this query's count on: its count statement's text and values. */
  countKey(): string {
    const source = this.#source;
    const session = source.session;
    const query = session.dialect.sqlToQuery(countSql(session.dialect, source.core));
    // A shape's statement holds placeholders where the builder has values: they are part of the key.
    const text = JSON.stringify([query.sql, query.params, source.where], (_key, value) =>
      typeof value === 'bigint' ? `${value}n` : value,
    );
    return countKey(session.planKey, text, []);
  }

  /**
   * Fetches one window: offset windows keep the query's ordering
   * (`select ... order by ... limit $1 offset $2`); keyset windows seek past the bound with
   * `@pagewise/sql`'s statements, as `fromKysely` does.
   */
  async fetch(window: WindowSpec): Promise<ReadonlyArray<WindowRow<O>>> {
    if (window.order === null) return this.#fetchOffset(window);
    return windowRows(await this.#fetchKeyset(window, window.order));
  }

  /** `fetch`'s window without a `WindowRow` per row. */
  fetchRows(window: WindowSpec): Promise<FetchedRows<O>> {
    const order = window.order;
    return order === null ? this.#offsetRows(window) : this.#fetchKeyset(window, order);
  }

  async #offsetRows(window: WindowSpec): Promise<FetchedRows<O>> {
    return fetchedRowsOf(await this.#fetchOffset(window));
  }

  #fetchKeyset(window: WindowSpec, order: readonly KeyTerm[]): Promise<KeysetRows<O>> {
    if (this.#slice !== null) refuseKeysetOnSlice(this.description, DRIZZLE);
    return readKeysetWindow<O, DrizzleTemplate>(this.#source, this.#shared.plans, order, window);
  }

  async #fetchOffset(spec: WindowSpec): Promise<ReadonlyArray<WindowRow<O>>> {
    const inSlice = sliceWindow(this.#slice, spec.offset, spec.limit);
    if (inSlice === null) return [];
    const window = { ...spec, ...inSlice };
    const source = this.#source;
    const session = source.session;
    const shared = this.#shared;
    let ordered: { order: KeyTerm[]; plan: OrderPlan<DrizzleTemplate> } | null = null;
    if (this.#terms !== null) {
      const order = this.#terms.map(settleNulls);
      ordered = { order, plan: await planByText(shared.plans, session, source, order) };
    }
    // No limit and no offset: every row, without a LIMIT clause. MySQL wants a LIMIT before any
    // OFFSET, so an offset without a limit gets the largest safe one.
    const unlimited = window.limit === null && window.offset === 0;
    const key = `o|${window.offset > 0}|${unlimited}`;
    const templates = ordered === null ? shared.templates : ordered.plan.windows;
    let template = templates.get(key);
    if (template === undefined) {
      let orderBy = null;
      if (ordered !== null) {
        // Columns the catalog knows to be NOT NULL need no NULL placement, which keeps the index order usable.
        const { order, plan } = ordered;
        const items = orderByItems(
          order,
          plan.exprs,
          (i) => (plan.nullable[i] ? false : 'column'),
          session.capabilities,
        );
        orderBy = lowerOrderItems(items);
      }
      const limited = { limit: !unlimited, offset: !unlimited && window.offset > 0 };
      template = session.prepare(
        offsetSql(session.dialect, source.config, orderBy, limited),
        shared.parts.joinsNotNullableMap,
      );
      templates.set(key, template);
    }
    const limit = window.limit ?? Number.MAX_SAFE_INTEGER;
    const rows = await session.run(template, unlimited ? [] : [limit, window.offset], source.where);
    return rows.map((row) => ({ row: row as O, position: [] }));
  }

  /**
   * A row of the query whose `field` (a result key) equals `value`, checked against the column's
   * type first: `'abc'` for an integer column finds nothing and runs nothing.
   * @example
   * await query.find('id', '7') // select ... from "posts" where "posts"."id" = $1 limit $2
   */
  async find(field: string, value: string): Promise<O | null> {
    const parameter = await this.#lookupParameter(field, value);
    if (parameter === undefined) return null;
    const source = this.#source;
    const session = source.session;
    const shared = this.#shared;
    const key = `find|${field}`;
    let template = shared.templates.get(key);
    if (template === undefined) {
      const found = source.field(field);
      const statement = lookupSql(
        session.dialect,
        source.config,
        found.expr,
        found.column ?? field,
        this.#slice !== null,
      );
      template = session.prepare(statement, shared.parts.joinsNotNullableMap);
      shared.templates.set(key, template);
    }
    const rows = await session.run(template, [parameter, 1], source.where);
    return (rows[0] as O | undefined) ?? null;
  }

  /**
   * Whether `value` is written as a value of `field`'s column type (`lookupAccepts`); nothing else runs.
   * @example
   * await query.accepts('id', 'abc') // false over an integer key
   */
  async accepts(field: string, value: string): Promise<boolean> {
    return lookupAccepts(await this.#lookupColumn(field), value, this.#source.session.capabilities);
  }

  async #lookupParameter(field: string, value: string): Promise<unknown | undefined> {
    return lookupParameter(await this.#lookupColumn(field), value, this.#source.session.capabilities);
  }

  #lookupColumn(field: string): Promise<ColumnInfo> {
    const source = this.#source;
    const { column, qualifier } = source.field(field);
    return columnInfo(source.session, source.tables(), field, { column, qualifier }, false, false);
  }
}

/** The builder's own LIMIT/OFFSET (`sliceOf`): a number, or `undefined` for a placeholder or an expression. */
function readSlice(config: SelectConfig): BuilderSlice | null {
  const clause = (value: unknown) => ({
    value: is(value, Placeholder) || is(value, SQL) ? undefined : value,
  });
  return sliceOf(
    config.limit === undefined ? null : clause(config.limit),
    config.offset === undefined ? null : clause(config.offset),
    DRIZZLE,
  );
}

/** A new `DrizzleShared`'s caches and the config's core (`coreOf`). */
export function sharedCaches(config: SelectConfig): Pick<DrizzleShared, 'plans' | 'templates' | 'core'> {
  return { plans: shapePlans<DrizzleTemplate>(), templates: new Map(), core: coreOf(config) };
}
