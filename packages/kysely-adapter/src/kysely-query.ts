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
  type FieldSource,
  insertKeyOf,
  type KeysetHost,
  type KeysetRows,
  type KeysetStatement,
  lookupAccepts,
  lookupParameter,
  node,
  orderByItems,
  type QueryClauses,
  type QueryTables,
  type Row,
  readKeysetWindow,
  refuseKeysetOnSlice,
  Slot,
  serverStatementTimeout,
  sliceCount,
  sliceOf,
  windowRows,
} from '@pagewise/sql';
import { type OperationNode, type OrderByItemNode, ReferenceNode, SelectQueryNode, ValueNode } from 'kysely';
import { countNode, decidesRows, estimateNode } from './count-statement.js';
import { lookupNode } from './lookup-statement.js';
import { lowerOrderItems } from './lower.js';
import { offsetRows } from './offset-window.js';
import { ADAPTER, KYSELY } from './options.js';
import {
  columnName,
  directionOf,
  replaceableColumn,
  rowKeyOf,
  selectionOf,
  shapeKey,
} from './query-nodes.js';
import { queryClauses, queryDescription, queryTables } from './query-tables.js';
import { deleteRows, insertRow, updateRows, type WriteTarget } from './row-writes.js';
import type { SharedState } from './shared-state.js';
import type { CompiledTemplate, ShapeCache } from './statement-cache.js';
import { keysetNode } from './statement-nodes.js';

/**
 * One Kysely query as `@pagewise/sql` reads and runs it: its tree read for the planner
 * (`PlanSource`: tables, clauses, fields) and its keyset statements compiled and run
 * (`KeysetHost`), each part of the tree read once, when first needed (a cached plan reads none).
 * Beside `KyselyQuery` in its file: a warm page calls into neither from the other's file.
 */
class KyselySource implements KeysetHost<CompiledTemplate> {
  readonly session: SharedState;
  /** The statements run through the shared state, with the query's own values in their base slots. */
  readonly runner: SharedState;
  /** The builder's statement, its values replaced by base slots. */
  readonly node: SelectQueryNode;
  /** Values of the query's own clauses, in the order of their base slots. */
  readonly base: readonly unknown[];
  readonly description: string;
  /** Whether the builder's plugins rename its columns (`SharedState.renamed`). */
  readonly renamed: boolean;
  #shape: ShapeCache | undefined;
  #core: SelectQueryNode | undefined;
  #tables: QueryTables | undefined;
  #clauses: QueryClauses | undefined;

  constructor(
    session: SharedState,
    query: SelectQueryNode,
    base: readonly unknown[],
    shape: ShapeCache | undefined,
  ) {
    this.session = session;
    this.runner = session;
    this.renamed = session.renamed;
    this.node = query;
    this.base = base;
    this.#shape = shape;
    this.description = queryDescription(query);
  }

  /** The caches of this statement's shape (the statement without its values). */
  get shape(): ShapeCache {
    this.#shape ??= this.session.cache.remember(this.node, shapeKey(this.node));
    return this.#shape;
  }

  /** The query without ORDER BY, LIMIT and OFFSET: what windows and counts start from. */
  get core(): SelectQueryNode {
    this.#core ??= SelectQueryNode.cloneWithoutOffset(
      SelectQueryNode.cloneWithoutLimit(SelectQueryNode.cloneWithoutOrderBy(this.node)),
    );
    return this.#core;
  }

  tables(): QueryTables {
    this.#tables ??= queryTables(this.node);
    return this.#tables;
  }

  clauses(): QueryClauses {
    this.#clauses ??= queryClauses(this.core);
    return this.#clauses;
  }

  field(field: string): FieldSource {
    const { expr, selected } = selectionOf(this.node, this.session.treeField(field));
    // Pages run through `db`'s executor: a plugin of its would see the text in place of a value.
    const plain = !this.renamed && this.session.db?.getExecutor().plugins.length === 0;
    const replaceable = selected && plain ? replaceableColumn(this.node, field) : undefined;
    return {
      expr: node(expr),
      selected,
      column: columnName(expr),
      qualifier: ReferenceNode.is(expr) ? expr.table?.table.identifier.name : undefined,
      replaceable: replaceable === undefined ? undefined : node(replaceable),
    };
  }

  rowKey(field: string): string {
    return rowKeyOf(field);
  }

  treeField(field: string): string {
    return this.session.treeField(field);
  }

  compile(statement: KeysetStatement): CompiledTemplate {
    return this.session.compile(keysetNode(this.core, statement));
  }
}

/**
 * An `OrderedQuery` over a Kysely select. It never changes the builder: each window is a new
 * operation node tree derived from the builder's. Compiled statements are cached per query shape
 * (the statement without its values) and per database, so a query built afresh for every request
 * compiles nothing after its first page. What the SQL says is `@pagewise/sql`'s: this class reads
 * Kysely's tree for it (`KyselySource`), lowers its statements into Kysely nodes and runs them.
 *
 * Positions are exact on every column type: a value read from a row, put in a cursor and bound
 * again compares equal to that row in SQL. Microsecond timestamps are exact text (`to_char` in
 * UTC on Postgres, so `DateStyle` does not matter; BC years, years past 9999 and `infinity`
 * included), decimals are decimal text, bigints bigints, and integers past 2^53 are read exactly
 * even where the driver rounds them (better-sqlite3 without safe integers). Bound values are
 * checked against their column's type and range first (`InvalidBoundError`, a 404 for clients);
 * ordering by a type with no exact bound (json, arrays, bytea, interval...) is a
 * `ConfigurationError` before any page query. The package README lists the type of each position.
 *
 * @example
 * const query = fromKysely(db.selectFrom('articles').selectAll(), { db });
 * await query.fetch({ order: [{ field: 'id', direction: 'asc', nulls: 'last' }], after: [10], offset: 0, limit: 21 });
 * // select * from "articles" where "id" > $1 order by "id" asc limit $2
 */
export class KyselyQuery<O> implements OrderedQuery<O> {
  readonly adapter = ADAPTER;
  readonly ordering: readonly OrderTerm[];
  readonly ordered: boolean;
  readonly uniqueKey: string | null;
  readonly uniqueKeys: readonly string[] | undefined;
  readonly description: string;
  readonly #source: KyselySource;
  /**
   * The ordering offset windows compile with core's NULL placement: `orderBy`'s terms, or the
   * builder's ORDER BY when every item is a plain column (expressions are kept as written).
   */
  readonly #terms: readonly OrderTerm[] | null;
  /** The builder's own LIMIT/OFFSET, which pages stay inside. */
  readonly #slice: BuilderSlice | null;

  /** @internal use `fromKysely` */
  constructor(
    shared: SharedState,
    query: SelectQueryNode,
    terms: readonly OrderTerm[] | null,
    base: readonly unknown[],
    shape: ShapeCache | undefined,
  ) {
    const source = new KyselySource(shared, query, base, shape);
    this.#source = source;
    this.#slice = readSlice(query, base);
    this.uniqueKey = shared.uniqueKey;
    this.uniqueKeys = shared.uniqueKeys;
    const items = query.orderBy?.items ?? [];
    this.ordered = items.length > 0;
    this.ordering = terms ?? orderTermsOf(items);
    this.#terms = terms ?? (items.length > 0 && this.ordering.length === items.length ? this.ordering : null);
    this.description = source.description;
  }

  /**
   * A copy ordered by `terms` (NULL placement settled as core does: above every value unless
   * `nulls` says otherwise).
   *
   * @example
   * query.orderBy([{ field: 'created', direction: 'desc' }])
   * // select ... order by "created" desc
   */
  orderBy(terms: readonly OrderTerm[]): KyselyQuery<O> {
    if (this.#slice !== null) {
      throw new ConfigurationError(
        `kysely adapter: cannot reorder ${this.description} once a slice has been taken (its own ` +
          'LIMIT/OFFSET); order the builder before .limit()/.offset(), or drop the slice',
      );
    }
    const source = this.#source;
    const shared = source.session;
    // The same shape reordered by the same terms is one statement: built and written out once.
    const capabilities = shared.capabilities;
    const reordered = source.shape.reordered;
    // Keyed by the tree's names: a renaming plugin's `createdAt` is the plain query's `created_at`.
    const key = termsKey(terms, (field) => shared.treeField(field));
    let known = reordered.get(key);
    if (known === undefined || known.capabilities !== capabilities) {
      const settled = terms.map(settleNulls);
      const exprs = settled.map((t) => node(selectionOf(source.node, shared.treeField(t.field)).expr));
      const items = orderByItems(settled, exprs, () => false, capabilities);
      const reorderedNode = SelectQueryNode.cloneWithOrderByItems(
        SelectQueryNode.cloneWithoutOrderBy(source.node),
        lowerOrderItems(items),
      );
      known = {
        capabilities,
        node: reorderedNode,
        cache: shared.cache.remember(reorderedNode, shapeKey(reorderedNode)),
      };
      // Orderings come from a few declared fields; the cap only guards against generated ones.
      if (reordered.size >= MAX_REORDERED) reordered.clear();
      reordered.set(key, known);
    }
    return new KyselyQuery<O>(shared, known.node as SelectQueryNode, [...terms], source.base, known.cache);
  }

  /**
   * Counts the rows; with `estimate` on Postgres and MySQL/MariaDB, reads the planner's estimate
   * instead (MariaDB: `explain format=json select ...`, its rows times `filtered`).
   *
   * @example
   * await query.count()
   * // select count(*) as "count" from (select ... without order by/limit) as "pagewise_count"
   * await query.count({ estimate: true }) // Postgres:
   * // explain (format json) select ... ; { value: <Plan Rows>, exact: false }
   */
  async count(options: CountOptions = {}): Promise<CountResult> {
    const { shared, core, base, templates } = this.#counted();
    if (options.estimate) {
      const estimate = await this.#estimate();
      if (estimate !== null) return estimate;
    }
    const counted = shared.template(templates, 'count', () => countNode(core));
    // MySQL and MariaDB bound a statement differently: the server's version, read once per `db`, says how.
    const timeout =
      !options.estimate && options.timeoutMs !== undefined && shared.lasting
        ? await serverStatementTimeout(shared)
        : null;
    if (options.timeoutMs !== undefined && timeout !== null) {
      try {
        const rows = await shared.runBounded(counted, base, timeout, options.timeoutMs);
        return { value: sliceCount(this.#slice, countOf(rows)), exact: true };
      } catch (error) {
        if (!timeout.timedOut(error)) throw error;
        // The server cancelled the count at the limit: the planner's estimate instead.
        const estimate = await this.#estimate(timeout.readEstimate, true);
        if (estimate !== null) return estimate;
        throw error;
      }
    }
    // Through the plugins, as the app's own statements: a row counter or tracer of `db` sees counts.
    // The one column is read by position, whatever a plugin renamed it to.
    const rows = await shared.run(counted, [], base);
    return { value: sliceCount(this.#slice, countOf(rows)), exact: true };
  }

  /** What counts count: `countQuery`'s statement where the options give one, else the query's own. */
  #counted() {
    const source = this.#source;
    const shared = source.session;
    const other = shared.countSource;
    if (other !== null)
      return { shared, core: other.core, base: [] as readonly unknown[], templates: other.templates };
    return { shared, core: source.core, base: source.base, templates: source.shape.templates };
  }

  /**
   * The planner's estimate of the rows (`explain (format json)`), `null` where the dialect has
   * none: read by `readRows` (a statement timeout's own reader) when given, else from the first
   * row by the dialect's `readEstimate` where it estimates counts. For a query whose selection
   * decides its rows, only where the planner estimates groups (`estimateGroups`), or as an upper
   * bound (`bound`: past a timeout, where the alternative is no answer).
   */
  async #estimate(
    readRows?: (rows: readonly Row[]) => number | null,
    bound = false,
  ): Promise<CountResult | null> {
    const { shared, core, base, templates } = this.#counted();
    const { estimateCount, estimateGroups, readEstimate } = shared.capabilities;
    if (readRows === undefined && !estimateCount) return null;
    if (!estimateGroups && !bound && decidesRows(core)) return null;
    const explain = shared.template(templates, 'estimate', () => estimateNode(core));
    const rows = await shared.run(explain, [], base, true);
    const estimate = readRows !== undefined ? readRows(rows) : rows[0] ? readEstimate(rows[0]) : null;
    return estimate === null ? null : { value: sliceCount(this.#slice, estimate), exact: false };
  }

  /** What a count cache keys this query's count on: its statement's shape and values (`countKey`). */
  countKey(): string {
    const source = this.#source;
    const other = source.session.countSource;
    // The page query's shape and values too: its own LIMIT/OFFSET bounds the total.
    if (other !== null) return countKey(other.key, source.shape.key, source.base);
    return countKey(source.session.planKey, source.shape.key, source.base);
  }

  /**
   * Fetches one window. Offset windows keep the query's ordering:
   * `select ... order by ... limit $1 offset $2`. Keyset windows replace it with the window's
   * order and seek past the bound; on Postgres, for `[created desc, id desc]`:
   * `select ... where ("created", "id") < ($1, $2) order by "created" desc, "id" desc limit $3`;
   * on MariaDB (no index range for row values), and on every dialect for mixed directions, the
   * expanded form: `` where `created` <= ? and (`created` < ? or (`created` = ? and `id` < ?)) ``. A nullable term's
   * NULL block is fetched by its own query (`where "created" is null order by "id"`; Postgres
   * keeps `"created" desc nulls last` first, a range of the ordering's index) when the page reaches it.
   * On SQLite (`mergedSegments`) the parts are the arms of one `union all` statement, the rows
   * tied with the bound first: `where "created" = ? and "id" < ? union all ... where "created" < ?
   * order by "created" desc, "id" desc limit ?`. Bound values that do not fit their columns throw `InvalidBoundError`.
   *
   * @example
   * await query.fetch({ order: null, after: null, offset: 40, limit: 20 })
   * // select * from "articles" order by "created" desc limit $1 offset $2
   */
  async fetch(window: WindowSpec): Promise<ReadonlyArray<WindowRow<O>>> {
    if (window.order === null) return this.#fetchOffset(window);
    return windowRows(await this.#fetchKeyset(window, window.order));
  }

  /** `fetch`'s window without a `WindowRow` per row: a keyset window as read, offsets through `fetch`. */
  fetchRows(window: WindowSpec): Promise<FetchedRows<O>> {
    const order = window.order;
    return order === null ? this.#offsetRows(window) : this.#fetchKeyset(window, order);
  }

  async #offsetRows(window: WindowSpec): Promise<FetchedRows<O>> {
    return fetchedRowsOf(await this.#fetchOffset(window));
  }

  #fetchKeyset(window: WindowSpec, order: readonly KeyTerm[]): Promise<KeysetRows<O>> {
    if (this.#slice !== null) refuseKeysetOnSlice(this.description, KYSELY);
    const source = this.#source;
    return readKeysetWindow<O, CompiledTemplate>(source, source.shape, order, window);
  }

  async #fetchOffset(spec: WindowSpec): Promise<ReadonlyArray<WindowRow<O>>> {
    const rows = await offsetRows(this.#source, this.#terms, this.#slice, spec);
    return rows.map((row) => ({ row: row as O, position: [] }));
  }

  /**
   * A row of the query whose `field` equals `value` (a path value, checked against the column's
   * type first: `'abc'` for an integer column finds nothing and runs nothing).
   *
   * @example
   * await query.find('id', '7')
   * // select * from "articles" where "id" = $1 limit $2
   */
  async find(field: string, value: string): Promise<O | null> {
    const parameter = await this.#lookupParameter(field, value);
    if (parameter === undefined) return null;
    const source = this.#source;
    const shared = source.session;
    const column = shared.treeField(field);
    const template = shared.template(source.shape.templates, `find|${column}|${shared.planKey}`, () =>
      lookupNode(
        source.core,
        this.#slice === null ? null : source.node,
        selectionOf(source.node, column).expr,
        rowKeyOf(column),
      ),
    );
    const rows = await shared.run(template, [parameter, 1], source.base);
    return (rows[0] as O | undefined) ?? null;
  }

  /**
   * Whether `value` is written as a value of `field`'s column type (`lookupAccepts`), read from
   * the catalog; nothing else runs.
   *
   * @example
   * await query.accepts('id', 'abc') // false over an integer key; '999' and '-1' are true
   */
  async accepts(field: string, value: string): Promise<boolean> {
    return lookupAccepts(await this.#lookupColumn(field), value, this.#source.session.capabilities);
  }

  /**
   * Inserts into the builder's table (`fromKysely(builder, { db })` over one table) and answers
   * the row as the query reads it.
   *
   * @example
   * await query.insert({ name: 'Ada' })
   * // insert into "authors" ("name") values ($1) returning "id"; then find('id', <new id>)
   */
  async insert(values: Readonly<Record<string, unknown>>): Promise<O> {
    const key = insertKeyOf(KYSELY, this);
    const id = await insertRow(this.#writeTarget, rowKeyOf(key), values);
    return (await this.find(key, String(id))) ?? ({ ...values, [rowKeyOf(key)]: id } as O);
  }

  /**
   * Updates the builder's table where `field` equals `value`; answers the row re-read, or `null`.
   *
   * @example
   * await query.update('id', '7', { name: 'Ada' }) // update "authors" set "name" = $1 where "id" = $2
   */
  async update(field: string, value: string, values: Readonly<Record<string, unknown>>): Promise<O | null> {
    const parameter = await this.#lookupParameter(field, value);
    if (parameter === undefined) return null;
    await updateRows(this.#writeTarget, rowKeyOf(field), parameter, values);
    const changed = values[rowKeyOf(field)];
    return this.find(field, changed === undefined || changed === null ? value : String(changed));
  }

  /**
   * Deletes from the builder's table where `field` equals `value`; answers how many rows went.
   *
   * @example
   * await query.delete('id', '7') // delete from "authors" where "id" = $1
   */
  async delete(field: string, value: string): Promise<number> {
    const parameter = await this.#lookupParameter(field, value);
    return parameter === undefined ? 0 : deleteRows(this.#writeTarget, rowKeyOf(field), parameter);
  }

  get #writeTarget(): WriteTarget {
    const source = this.#source;
    return { db: source.session.db, tables: source.tables().tables, description: this.description };
  }

  /** `value` as a parameter of `field`'s column, `undefined` when it cannot be of its type. */
  async #lookupParameter(field: string, value: string): Promise<unknown | undefined> {
    return lookupParameter(await this.#lookupColumn(field), value, this.#source.session.capabilities);
  }

  /** The column a lookup by `field` compares with, as the catalog describes it. */
  #lookupColumn(field: string): Promise<ColumnInfo> {
    const source = this.#source;
    const { column, qualifier } = source.field(field);
    return columnInfo(source.session, source.tables(), field, { column, qualifier }, false, false);
  }
}

/** How many orderings of one shape `orderBy` keeps built. */
const MAX_REORDERED = 64;

/** `terms` as text, each term's field (as `name` gives it), direction and NULL placement as given. */
function termsKey(terms: readonly OrderTerm[], name: (field: string) => string): string {
  let key = '';
  for (let i = 0; i < terms.length; i += 1) {
    const term = terms[i]!;
    const field = name(term.field);
    const nulls = term.nulls ?? '';
    // Each part led by its length: no field name can spell another ordering.
    key += `${field.length}:${field}${term.direction.length}:${term.direction}${nulls.length}:${nulls}`;
  }
  return key;
}

/** The terms of the builder's ORDER BY items that name a plain column. */
function orderTermsOf(items: readonly OrderByItemNode[]): OrderTerm[] {
  const terms: OrderTerm[] = [];
  for (const item of items) {
    const field = columnName(item.orderBy);
    if (field === undefined) continue;
    const term: OrderTerm = { field, direction: directionOf(item) };
    terms.push(item.nulls ? { ...term, nulls: item.nulls } : term);
  }
  return terms;
}

/**
 * The builder's own LIMIT/OFFSET (`sliceOf`), read from its tree: a clause's value, a base slot's
 * value (`base` holds the values lifted out of the builder's clauses), or `undefined` for an
 * expression.
 */
function readSlice(query: SelectQueryNode, base: readonly unknown[]): BuilderSlice | null {
  if (query.limit === undefined && query.offset === undefined) return null;
  const clause = (node: OperationNode) => {
    if (!ValueNode.is(node)) return { value: undefined };
    const held = node.value;
    return { value: held instanceof Slot && held.base ? base[held.index] : held };
  };
  return sliceOf(
    query.limit === undefined ? null : clause(query.limit.limit),
    query.offset === undefined ? null : clause(query.offset.offset),
    KYSELY,
  );
}

/** The count a count statement answered: its one column, by position (a plugin may rename it). */
function countOf(rows: readonly Record<string, unknown>[]): number {
  return rows[0] === undefined ? 0 : Number(Object.values(rows[0])[0] ?? 0);
}
