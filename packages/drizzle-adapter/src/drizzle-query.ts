import {
  ConfigurationError,
  type CountOptions,
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
  type DeferredJoinStatement,
  DeferredKeyCheck,
  deferredJoinStatement,
  type FieldSource,
  insertKeyOf,
  type KeysetHost,
  type KeysetRows,
  type KeysetStatement,
  keyColumnsOf,
  lookupAccepts,
  lookupParameter,
  node,
  type OrderItem,
  type OrderPlan,
  offsetOrderItems,
  planByText,
  type QueryClauses,
  type QueryTables,
  type Row,
  readKeysetWindow,
  refuseKeysetOnSlice,
  type ShapePlans,
  type StatementRunner,
  serverStatementTimeout,
  shapePlans,
  sliceCount,
  sliceOf,
  sliceWindow,
  windowRows,
} from '@pagewise/sql';
import { Column, getTableName, is, Placeholder, SQL } from 'drizzle-orm';
import {
  type BuilderParts,
  type DialectLike,
  queryClauses,
  queryTables,
  type SelectConfig,
  selectionAt,
  tableColumns,
} from './builder-config.js';
import { type DrizzleSession, type DrizzleTemplate, timedOut } from './drizzle-session.js';
import { lowerOrderItems } from './lower.js';
import { DRIZZLE } from './options.js';
import { deleteRows, insertRow, updateRows, type WriteTarget } from './row-writes.js';
import {
  coreOf,
  countSql,
  decides,
  deferredSql,
  estimateSql,
  keysetSql,
  lookupSql,
  offsetSql,
} from './statements.js';

/** What every copy of one `fromDrizzle` value made by `orderBy` shares: its builder's parts, session and caches. */
export interface DrizzleShared {
  readonly session: DrizzleSession;
  readonly parts: BuilderParts;
  readonly description: string;
  /** Plans of the builder's statement by ordering, and its own statements (offset windows, counts, finds). */
  readonly plans: ShapePlans<DrizzleTemplate>;
  readonly templates: Map<string, DrizzleTemplate>;
  /** What `countQuery` counts (its config without ORDER BY, LIMIT and OFFSET), `null` without one. */
  readonly counted: CountedSelect | null;
  /** Whether offset windows read the page's keys first (`DrizzleQueryOptions.deferredJoin`). */
  readonly deferredJoin: boolean;
  /** The check of the key's uniqueness deferred joins make at the first page. */
  readonly deferredKey: DeferredKeyCheck;
  /** The config without ORDER BY, LIMIT and OFFSET (`coreOf`). */
  readonly core: SelectConfig;
}

/** A select whose rows a count counts, by its own dialect. */
export interface CountedSelect {
  readonly dialect: DialectLike;
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
  readonly uniqueKeys: readonly string[] | undefined;
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
    this.uniqueKeys = shared.session.uniqueKeys;
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
   * Counts the rows (`countQuery`'s where the options give one); with `estimate` on Postgres,
   * reads the planner's estimate instead. With `timeoutMs` where the dialect bounds a statement's
   * time (`statementTimeout`: Postgres, MariaDB), the server cancels an exact count still running
   * at the limit and the estimate is answered (`exact: false`).
   * @example
   * await query.count() // select count(*) as "count" from (select 1 as "one" from "posts" ...) as "pagewise_count"
   * await query.count({ timeoutMs: 250 }) // Postgres:
   * // begin; select set_config('statement_timeout', $1, true) as "set"; select count(*) ...; commit
   */
  async count(options: CountOptions = {}): Promise<CountResult> {
    const session = this.#source.session;
    const { dialect, core, where } = this.#counted();
    if (options.estimate) {
      const estimate = await this.#estimate();
      if (estimate !== null) return estimate;
    }
    const statement = countSql(dialect, core);
    // MySQL and MariaDB bound a statement differently: the server's version, read once per db, says how.
    const timeout =
      !options.estimate && options.timeoutMs !== undefined && session.capabilities.statementTimeout !== null
        ? await serverStatementTimeout(session)
        : null;
    if (options.timeoutMs !== undefined && timeout !== null) {
      try {
        return this.#exact(await session.readBounded(statement, timeout, options.timeoutMs, where));
      } catch (error) {
        if (!timedOut(timeout, error)) throw error;
        // The server cancelled the count at the limit: the planner's estimate instead.
        const estimate = await this.#estimate(timeout.readEstimate);
        if (estimate !== null) return estimate;
        throw error;
      }
    }
    return this.#exact(await session.readSql(statement, where));
  }

  #exact(rows: readonly Row[]): CountResult {
    return { value: sliceCount(this.#slice, Number(rows[0]?.count ?? 0)), exact: true };
  }

  /** What counts count: `countQuery`'s select where the options give one, else the query's own. */
  #counted(): CountedSelect & { readonly where: readonly unknown[] } {
    const source = this.#source;
    const counted = this.#shared.counted;
    // `countQuery`'s select is its own builder's, values and all; the query's holds a shape's placeholders.
    return counted === null
      ? { dialect: source.session.dialect, core: source.core, where: source.where }
      : { ...counted, where: [] };
  }

  /**
   * The planner's estimate of the rows (the dialect's JSON `EXPLAIN`), `null` where it has none:
   * read by `readRows` (a statement timeout's own reader) when given, else from the first row by
   * the dialect's `readEstimate` where it estimates counts.
   */
  async #estimate(readRows?: (rows: readonly Row[]) => number | null): Promise<CountResult | null> {
    const session = this.#source.session;
    const { estimateCount, estimateGroups, readEstimate, explainJson } = session.capabilities;
    if (explainJson === null || (readRows === undefined && !estimateCount)) return null;
    const { dialect, core, where } = this.#counted();
    // MySQL's EXPLAIN has the rows before grouping, not the groups: such a query is counted, and
    // past countTimeout (`readRows`) that row figure is answered as an upper bound.
    if (readRows === undefined && !estimateGroups && decides(core)) return null;
    const rows = await session.readSql(estimateSql(dialect, core, explainJson), where);
    const estimate = readRows !== undefined ? readRows(rows) : rows[0] ? readEstimate(rows[0]) : null;
    return estimate === null ? null : { value: sliceCount(this.#slice, estimate), exact: false };
  }

  /**
   * What a count cache keys this query's count on: its count statement's text and values, the
   * builder's own LIMIT/OFFSET (which bounds the total) and, with `countQuery`, that statement's.
   */
  countKey(): string {
    const source = this.#source;
    const session = source.session;
    const own = countKey(
      session.planKey,
      // A shape's statement holds placeholders where the builder has values: they are part of the key.
      statementText(session.dialect, countSql(session.dialect, source.core), source.where),
      [this.#slice],
    );
    const counted = this.#shared.counted;
    if (counted === null) return own;
    const other = statementText(counted.dialect, countSql(counted.dialect, counted.core));
    return countKey(countKey(session.planKey, `countQuery\u0000${other}`, []), own, []);
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
    const deferred = shared.deferredJoin;
    if (deferred) await shared.deferredKey.check(session, source);
    const key = `${deferred ? 'd' : 'o'}|${window.offset > 0}|${unlimited}`;
    const templates = ordered === null ? shared.templates : ordered.plan.windows;
    let template = templates.get(key);
    if (template === undefined) {
      let items: OrderItem[] | null = null;
      if (ordered !== null) {
        const { order, plan } = ordered;
        items = offsetOrderItems(order, plan, session.capabilities);
      }
      const limited = { limit: !unlimited, offset: !unlimited && window.offset > 0 };
      const statement = deferred
        ? deferredSql(
            session.dialect,
            source.core,
            this.#deferredStatement(ordered?.order ?? null, items, limited),
          )
        : offsetSql(session.dialect, source.config, items === null ? null : lowerOrderItems(items), limited);
      template = session.prepare(statement, shared.parts.joinsNotNullableMap);
      templates.set(key, template);
    }
    const limit = window.limit ?? Number.MAX_SAFE_INTEGER;
    const rows = await session.run(template, unlimited ? [] : [limit, window.offset], source.where);
    return rows.map((row) => ({ row: row as O, position: [] }));
  }

  /** The deferred-join window of this query under `order` (its `items`), then by its key. */
  #deferredStatement(
    order: readonly KeyTerm[] | null,
    items: readonly OrderItem[] | null,
    window: { readonly limit: boolean; readonly offset: boolean },
  ): DeferredJoinStatement {
    const source = this.#source;
    const key = keyColumnsOf(this).map((field) => ({ field, expr: source.field(field).expr }));
    // Without a plan the builder has no ORDER BY (its own is always read as terms): the key alone orders.
    const ordering = {
      items: items ?? [],
      fields: order?.map((t) => t.field) ?? [],
      direction: order?.at(-1)?.direction ?? 'asc',
    };
    return deferredJoinStatement(key, ordering, window);
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

  /**
   * Inserts into the select's one table through the database's own builder (`db.insert`), values
   * by result keys, and answers the row as the query reads it.
   * @example
   * await query.insert({ name: 'Ada' })
   * // insert into "people" ("id", "name") values (default, $1) returning "id"; then find('id', <new id>)
   */
  async insert(values: Readonly<Record<string, unknown>>): Promise<O> {
    const key = insertKeyOf(DRIZZLE, this);
    const id = await insertRow(this.#writeTarget, key, values);
    return (await this.find(key, String(id))) ?? ({ ...values, [key]: id } as O);
  }

  /**
   * Updates the select's table where `field` equals `value` (checked against the column's type
   * first); answers the row re-read, or `null`.
   * @example
   * await query.update('id', '7', { name: 'Ada' }) // update "people" set "name" = $1 where "people"."id" = $2
   */
  async update(field: string, value: string, values: Readonly<Record<string, unknown>>): Promise<O | null> {
    const parameter = await this.#lookupParameter(field, value);
    if (parameter === undefined) return null;
    await updateRows(this.#writeTarget, field, parameter, values);
    const changed = values[field];
    return this.find(field, changed === undefined || changed === null ? value : String(changed));
  }

  /**
   * Deletes from the select's table where `field` equals `value`; answers how many rows went.
   * @example
   * await query.delete('id', '7') // delete from "people" where "people"."id" = $1
   */
  async delete(field: string, value: string): Promise<number> {
    const parameter = await this.#lookupParameter(field, value);
    return parameter === undefined ? 0 : deleteRows(this.#writeTarget, field, parameter);
  }

  get #writeTarget(): WriteTarget {
    const session = this.#source.session;
    return {
      db: session.db,
      config: this.#source.config,
      description: this.description,
      returning: session.capabilities.insertReturning,
    };
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

/** A statement's text and values (and a shape's WHERE values) as one string (bigints marked), for cache keys. */
function statementText(dialect: DialectLike, statement: SQL, where: readonly unknown[] = []): string {
  const query = dialect.sqlToQuery(statement);
  return JSON.stringify([query.sql, query.params, where], (_key, value) =>
    typeof value === 'bigint' ? `${value}n` : value,
  );
}

/** A new `DrizzleShared`'s caches and the config's core (`coreOf`). */
export function sharedCaches(
  config: SelectConfig,
): Pick<DrizzleShared, 'plans' | 'templates' | 'deferredKey' | 'core'> {
  return {
    plans: shapePlans<DrizzleTemplate>(),
    templates: new Map(),
    deferredKey: new DeferredKeyCheck(),
    core: coreOf(config),
  };
}
