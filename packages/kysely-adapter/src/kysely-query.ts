import {
  ConfigurationError,
  type CountResult,
  type FetchedRows,
  fetchedRowsOf,
  InvalidBoundError,
  type KeyTerm,
  type OrderedQuery,
  type OrderTerm,
  type PositionValue,
  settleNulls,
  type WindowRow,
  type WindowSpec,
} from '@pagewise/core';
import {
  AliasNode,
  ExplainNode,
  IdentifierNode,
  type OrderByItemNode,
  RawNode,
  SelectionNode,
  SelectQueryNode,
} from 'kysely';
import {
  type BuilderSlice,
  readSlice,
  refuseKeysetOnSlice,
  sliceCount,
  sliceWindow,
} from './builder-slice.js';
import {
  catalogKey,
  columnInfo,
  firstTableName,
  integersExact,
  orderingIndex,
  plainTables,
  type QueryTables,
  queryTables,
  readCatalog,
  readIndexes,
  textRecorded,
  uniqueIndexes,
} from './catalog.js';
import { type PositionReader, positionReader, refuseUnrecorded, toParameters } from './column-codec.js';
import type { ColumnInfo } from './column-info.js';
import { uniqueKeyRefusal } from './config-checks.js';
import { countKey } from './count-key.js';
import type { DialectCapabilities } from './dialect-capabilities.js';
import { lookupAccepts, lookupParameter, lookupQuery } from './lookup-value.js';
import { ADAPTER } from './options.js';
import { exactKey, positionKey, privateAlias, TIE_COLUMN } from './private-columns.js';
import {
  columnName,
  directionOf,
  equalityColumns,
  fixedColumns,
  rowKeyOf,
  selectionOf,
  shapeKey,
} from './query-nodes.js';
import type { Row } from './row.js';
import { PrivateColumnStripper } from './row-picker.js';
import { deleteRows, insertRow, updateRows, type WriteTarget } from './row-writes.js';
import type { SharedState } from './shared-state.js';
import type { CompiledTemplate, FieldPlan, IndexHint, OrderPlan, ShapeCache } from './statement-cache.js';
import {
  type BoundParameter,
  compileMerged,
  compileSegment,
  groupSegments,
  orderByItems,
  planSegments,
  type Segment,
  stopPredicate,
  withIndexHint,
  withLimit,
  withTieGroups,
  withWhere,
} from './window-compiler.js';

/**
 * A keyset window's rows (stripped of private columns where the plan added some) with each
 * position read from its raw row only when asked for: a page's links need those of its first and
 * last rows only, and reading one (a `Date` parsed from SQLite's text) costs about as much as the
 * rest of the row's handling.
 */
class KeysetRows<O> implements FetchedRows<O> {
  readonly rows: readonly O[];
  readonly #raw: readonly Row[];
  /** The plan's reader, which reads every field of a row in one call. */
  readonly #read: PositionReader;
  /** Whether the rows carry integers' exact text (a page that held a rounded one). */
  readonly #exact: boolean;
  readonly #capabilities: DialectCapabilities;
  /** Where the rows carry their tie groups (`withTieGroups`): whether positions can tie at all. */
  readonly tied: ((a: number, b: number) => boolean) | undefined;

  constructor(
    rows: readonly O[],
    raw: readonly Row[],
    read: PositionReader,
    exact: boolean,
    capabilities: DialectCapabilities,
    ties: boolean,
  ) {
    this.rows = rows;
    this.#raw = raw;
    this.#read = read;
    this.#exact = exact;
    this.#capabilities = capabilities;
    this.tied = ties ? (a, b) => tieGroup(raw, a) === tieGroup(raw, b) : undefined;
  }

  position(index: number): readonly PositionValue[] {
    return this.positionsAt([index])[0]!;
  }

  positionsAt(indexes: readonly number[]): ReadonlyArray<readonly PositionValue[]> {
    const raw = this.#raw;
    const rows = indexes.map((index) => {
      const row = raw[index];
      if (row === undefined) throw new RangeError(`no row ${index} in a window of ${raw.length}`);
      return row;
    });
    return this.#read(rows, this.#exact, this.#capabilities);
  }
}

/**
 * A row of `fetch`'s answer, its position read from the window when first asked for. A class, not
 * an object literal with a getter, which V8 makes ten times slower to build; `position` is on the
 * prototype, so a spread or `JSON.stringify` of the row object leaves it out.
 */
class LazyWindowRow<O> implements WindowRow<O> {
  readonly row: O;
  readonly #window: FetchedRows<O>;
  readonly #index: number;
  #position: readonly PositionValue[] | undefined;

  constructor(window: FetchedRows<O>, index: number) {
    this.row = window.rows[index]!;
    this.#window = window;
    this.#index = index;
  }

  get position(): readonly PositionValue[] {
    this.#position ??= this.#window.position(this.#index);
    return this.#position;
  }
}

/**
 * An `OrderedQuery` over a Kysely select. It never changes the builder: each window is a new
 * operation node tree derived from the builder's. Compiled statements are cached per query shape
 * (the statement without its values) and per database, so a query built afresh for every request
 * compiles nothing after its first page.
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
  readonly description: string;
  readonly #shared: SharedState;
  readonly #node: SelectQueryNode;
  /** The query without ORDER BY, LIMIT and OFFSET: what windows and counts start from. */
  #core: SelectQueryNode | undefined;
  /**
   * The ordering offset windows compile with core's NULL placement: `orderBy`'s terms, or the
   * builder's ORDER BY when every item is a plain column (expressions are kept as written).
   */
  readonly #terms: readonly OrderTerm[] | null;
  /** The tables the query reads from, whose catalogs describe its columns (`#source`). */
  #tables: QueryTables | undefined;
  /** Values of the query's own clauses, in the order of their base `Slot`s. */
  readonly #base: readonly unknown[];
  /** The builder's own LIMIT/OFFSET, which pages stay inside. */
  readonly #slice: BuilderSlice | null;
  #shape: ShapeCache | undefined;

  /** @internal use `fromKysely` */
  constructor(
    shared: SharedState,
    query: SelectQueryNode,
    terms: readonly OrderTerm[] | null,
    base: readonly unknown[],
    shape: ShapeCache | undefined,
  ) {
    const node = query;
    this.#shape = shape;
    this.#shared = shared;
    this.#node = node;
    this.#base = base;
    this.#slice = readSlice(node, base);
    this.uniqueKey = shared.uniqueKey;
    const items = node.orderBy?.items ?? [];
    this.ordered = items.length > 0;
    this.ordering = terms ?? orderTermsOf(items);
    this.#terms = terms ?? (items.length > 0 && this.ordering.length === items.length ? this.ordering : null);
    const first = firstTableName(node);
    this.description = first === undefined ? 'kysely query' : `kysely query on "${first}"`;
  }

  /** The tables the query reads from, read from its tree when first needed (a cached plan does not). */
  get #source(): QueryTables {
    this.#tables ??= queryTables(this.#node);
    return this.#tables;
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
    // The same shape reordered by the same terms is one statement: built and written out once.
    const shared = this.#shared;
    const capabilities = shared.capabilities;
    const reordered = this.#cache.reordered;
    // Keyed by the tree's names: a renaming plugin's `createdAt` is the plain query's `created_at`.
    const key = termsKey(terms, (field) => shared.treeField(field));
    let known = reordered.get(key);
    if (known === undefined || known.capabilities !== capabilities) {
      const settled = terms.map(settleNulls);
      const exprs = settled.map((t) => selectionOf(this.#node, shared.treeField(t.field)).expr);
      const items = orderByItems(settled, exprs, () => false, capabilities);
      const node = SelectQueryNode.cloneWithOrderByItems(
        SelectQueryNode.cloneWithoutOrderBy(this.#node),
        items,
      );
      known = { capabilities, node, cache: shared.cache.remember(node, shapeKey(node)) };
      // Orderings come from a few declared fields; the cap only guards against generated ones.
      if (reordered.size >= MAX_REORDERED) reordered.clear();
      reordered.set(key, known);
    }
    return new KyselyQuery<O>(shared, known.node as SelectQueryNode, [...terms], this.#base, known.cache);
  }

  /** The caches of this statement's shape (the statement without its values). */
  get #cache(): ShapeCache {
    this.#shape ??= this.#shared.cache.remember(this.#node, shapeKey(this.#node));
    return this.#shape;
  }

  /**
   * What `count` counts: the core query, selecting a constant unless the selection decides the
   * rows (DISTINCT, GROUP BY, set operations). The constant spares the database the columns and
   * MySQL its "Duplicate column name" error for `select a.*, b.*` in a derived table.
   */
  get #countedNode(): SelectQueryNode {
    const core = this.#coreNode;
    const distinct = core.frontModifiers?.some((m) => m.modifier === 'Distinct') ?? false;
    if (distinct || core.distinctOn || core.groupBy || core.having || core.setOperations) return core;
    return {
      ...core,
      selections: [
        SelectionNode.create(AliasNode.create(RawNode.createWithSql('1'), IdentifierNode.create('one'))),
      ],
    };
  }

  /** The query without ORDER BY, LIMIT and OFFSET: what windows and counts start from. */
  get #coreNode(): SelectQueryNode {
    this.#core ??= SelectQueryNode.cloneWithoutOffset(
      SelectQueryNode.cloneWithoutLimit(SelectQueryNode.cloneWithoutOrderBy(this.#node)),
    );
    return this.#core;
  }

  /**
   * Counts the rows; with `estimate` on Postgres, reads the planner's estimate instead.
   *
   * @example
   * await query.count()
   * // select count(*) as "count" from (select ... without order by/limit) as "pagewise_count"
   * await query.count({ estimate: true }) // Postgres:
   * // explain (format json) select ... ; { value: <Plan Rows>, exact: false }
   */
  async count(options: { estimate?: boolean } = {}): Promise<CountResult> {
    const shared = this.#shared;
    if (options.estimate && shared.capabilities.estimateCount) {
      const explain = shared.template(this.#cache.templates, 'estimate', () => ({
        ...this.#coreNode,
        explain: ExplainNode.create('json'),
      }));
      const rows = await shared.run(explain, [], this.#base, true);
      const estimate = rows[0] ? shared.capabilities.readEstimate(rows[0]) : null;
      if (estimate !== null) return { value: sliceCount(this.#slice, estimate), exact: false };
    }
    const counted = shared.template(this.#cache.templates, 'count', () =>
      SelectQueryNode.cloneWithSelections(
        SelectQueryNode.createFrom([
          AliasNode.create(this.#countedNode, IdentifierNode.create('pagewise_count')),
        ]),
        [
          SelectionNode.create(
            AliasNode.create(RawNode.createWithSql('count(*)'), IdentifierNode.create('count')),
          ),
        ],
      ),
    );
    const rows = await shared.run(counted, [], this.#base, true);
    return { value: sliceCount(this.#slice, Number(rows[0]?.count ?? 0)), exact: true };
  }

  /** What a count cache keys this query's count on: its statement's shape and values (`count-key.ts`). */
  countKey(): string {
    return countKey(this.#shared.planKey, this.#cache.key, this.#base);
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
    const fetched = await this.#fetchKeyset(window, window.order);
    const page = new Array<LazyWindowRow<O>>(fetched.rows.length);
    for (let i = 0; i < page.length; i += 1) page[i] = new LazyWindowRow(fetched, i);
    return page;
  }

  /** `fetch`'s window without a `WindowRow` per row: a keyset window as read, offsets through `fetch`. */
  fetchRows(window: WindowSpec): Promise<FetchedRows<O>> {
    const order = window.order;
    return order === null ? this.#offsetRows(window) : this.#fetchKeyset(window, order);
  }

  async #offsetRows(window: WindowSpec): Promise<FetchedRows<O>> {
    return fetchedRowsOf(await this.#fetchOffset(window));
  }

  async #fetchKeyset(window: WindowSpec, order: readonly KeyTerm[]): Promise<KeysetRows<O>> {
    if (this.#slice !== null) refuseKeysetOnSlice(this.description);
    const bound = window.after;
    const stop = window.before ?? null;
    const wrong = bound !== null && bound.length !== order.length ? bound : stop;
    if (wrong !== null && wrong.length !== order.length) {
      throw new InvalidBoundError(ADAPTER, `expected ${order.length} bound values, got ${wrong.length}`);
    }
    const found = this.#planOf(order);
    const plan = found instanceof Promise ? await found : found;
    const { fields, nullable, refused } = plan;
    if (plan.notUnique !== null) throw new ConfigurationError(plan.notUnique);
    if (refused >= 0) {
      const type = fields[refused]!.info.type ?? 'unknown';
      throw new ConfigurationError(
        `${ADAPTER} adapter: cannot page by "${order[refused]!.field}": its type ${type} has no order a cursor can bound exactly. Order by another column, or by an expression the adapter can page (e.g. a cast to text) declared in \`columns\`.`,
      );
    }
    // The plan's dialect, the one its statements compile for: every step of the page uses it.
    const capabilities = plan.capabilities;
    let mask = '';
    let values: unknown[];
    if (bound === null) {
      values = new Array(order.length).fill(null);
      mask = 's'.repeat(order.length);
    } else {
      values = toParameters(fields, bound, capabilities);
      for (let i = 0; i < order.length; i += 1) mask += (bound[i] ?? null) === null ? '0' : '1';
    }
    // The far bound's values follow the limit and offset slots; its NULLs shape the statement.
    let stopMask = '';
    if (stop !== null) {
      const far = toParameters(fields, stop, capabilities);
      for (let i = 0; i < order.length; i += 1) {
        stopMask += (stop[i] ?? null) === null ? '0' : '1';
        values[order.length + 2 + i] = far[i];
      }
    }
    let segments = plan.segments.get(mask);
    if (segments === undefined) {
      const planned = planSegments(order, nullable, bound, capabilities, plan.merged);
      segments = groupSegments(planned, order, nullable, capabilities, plan.merged);
      plan.segments.set(mask, segments);
    }
    const ties = plan.ties;
    const shape: WindowShape = { mask, stopMask, ties, exact: false };
    let rows = this.#checked(
      plan,
      await this.#readSegments(plan, order, shape, segments, values, window, capabilities),
    );
    // The driver rounds integers past 2^53 (better-sqlite3 without safe integers): a page holding
    // one is read again with their exact text, never paged by a rounded position.
    const exact = plan.exactFields.length > 0 && holdsRounded(rows, plan.exactFields);
    if (exact) {
      rows = this.#checked(
        plan,
        await this.#readSegments(plan, order, { ...shape, exact }, segments, values, window, capabilities),
      );
    }
    const visible = plan.added || exact || ties ? plan.stripper.strip(rows) : rows;
    return new KeysetRows(visible as readonly O[], rows, plan.readPosition, exact, capabilities, ties);
  }

  /**
   * The rows of a keyset window, statement after statement (each a run of segments); with
   * `exact`, with integers' exact text. Not `async`: a single statement (the common page) is the
   * statement's own promise, one await less. The rows come unchecked: `fetch` checks the ones it
   * keeps (`#checked`).
   */
  #readSegments(
    plan: OrderPlan,
    order: readonly KeyTerm[],
    shape: WindowShape,
    segments: readonly (readonly Segment[])[],
    values: unknown[],
    window: WindowSpec,
    capabilities: DialectCapabilities,
  ): Promise<Row[]> {
    const { mask, stopMask, ties, exact } = shape;
    const shared = this.#shared;
    const fields = plan.fields;
    const single = segments.length === 1;
    const withOffset = single && window.offset > 0;
    // A keyset window without a limit reads to the end; SQL needs a number either way.
    const limit = window.limit ?? Number.MAX_SAFE_INTEGER;
    values[order.length] = single ? limit : window.offset + limit;
    values[order.length + 1] = window.offset;
    const hint = plan.indexHint;
    const gone = shared.cache.goneIndexes;
    const named = hint !== null && !gone.has(hint.key);
    // The first statement reads `limit` rows when no row is skipped (a single statement, or the
    // first of several, which read what the ones before left): its LIMIT may be written.
    const written =
      window.offset === 0 && this.#base.length === 0 && capabilities.literalLimit
        ? writtenLimit(plan.writtenLimits, limit)
        : undefined;
    const key = `${mask}|${stopMask}|${ties}|${withOffset}|${exact}|${named}|`;
    const templateOf = (s: number) => {
      const templateKey = s === 0 && written !== undefined ? `${key}${written}|0` : key + s;
      // A warm page finds its statement here; only a new one is compiled, by the shared state.
      return (
        plan.windows.get(templateKey) ??
        shared.template(plan.windows, templateKey, () => {
          const bound: BoundParameter = (i, parameter) =>
            capabilities.boundParameter?.(parameter, fields[i]!.info) ?? parameter;
          const run = segments[s]!;
          const unhinted = this.#windowBase(fields, exact);
          const hinted = named ? withIndexHint(unhinted, hint.index) : unhinted;
          const { exprs, nullable } = plan;
          const stopNulls = [...stopMask].map((m) => m === '0');
          const base =
            stopMask === ''
              ? hinted
              : withWhere(hinted, [
                  stopPredicate(order, exprs, nullable, stopNulls, plan.capabilities, bound),
                ]);
          const statement =
            run.length === 1
              ? compileSegment(
                  base,
                  order,
                  exprs,
                  nullable,
                  run[0]!,
                  withOffset,
                  plan.capabilities,
                  bound,
                  s === 0 ? written : undefined,
                )
              : compileMerged(base, order, exprs, plan.keys, run, withOffset, plan.capabilities, bound);
          if (!ties) return statement;
          // The statement's result columns, as a derived table names them.
          const keys = fields.map((f) => IdentifierNode.create(f.readKey));
          const items = orderByItems(order, keys, (i) => (nullable[i] ? false : 'column'), plan.capabilities);
          return withTieGroups(statement, keys, items);
        })
      );
    };
    const read = single
      ? shared.run(templateOf(0), values, this.#base)
      : this.#readEach(segments.length, templateOf, values, order.length, window, limit, ties);
    if (!named) return read;
    // The index named is gone (a migration dropped or renamed it): never named again, the page read without it.
    return read.catch((error: unknown) => {
      if (!capabilities.indexGone(error)) throw error;
      gone.add(hint.key);
      shared.cache.indexes.delete(hint.table);
      return this.#readSegments(plan, order, shape, segments, values, window, capabilities);
    });
  }

  /** Several segments cannot share one SQL OFFSET: the first rows are skipped as they arrive. */
  async #readEach(
    count: number,
    templateOf: (s: number) => CompiledTemplate,
    values: unknown[],
    limitSlot: number,
    window: WindowSpec,
    limit: number,
    ties: boolean,
  ): Promise<Row[]> {
    const rows: Row[] = [];
    let toSkip = window.offset;
    // Each statement ranks its own rows from 1; no row of one ties with a row of another (their
    // segments exclude each other), so the groups of each are moved past the ones before.
    let groups = 0;
    for (let s = 0; s < count; s += 1) {
      const template = templateOf(s);
      values[limitSlot] = toSkip + limit - rows.length;
      const result = await this.#shared.run(template, values, this.#base);
      let most = groups;
      // A result is never spread into push, which overflows the stack when large.
      for (const row of result) {
        if (ties) {
          row[TIE_COLUMN] = groups + Number(row[TIE_COLUMN]);
          most = Math.max(most, row[TIE_COLUMN] as number);
        }
        if (toSkip > 0) toSkip -= 1;
        else rows.push(row);
      }
      groups = most;
      if (rows.length >= limit) break;
    }
    return rows;
  }

  /** `rows`, once every recorded position is known to be there (`refuseUnrecorded`). */
  #checked(plan: OrderPlan, rows: Row[]): Row[] {
    if (plan.recorded) refuseUnrecorded(rows, this.description);
    return rows;
  }

  async #fetchOffset(spec: WindowSpec): Promise<ReadonlyArray<WindowRow<O>>> {
    const inSlice = sliceWindow(this.#slice, spec.offset, spec.limit);
    if (inSlice === null) return [];
    const window = { ...spec, ...inSlice };
    const shared = this.#shared;
    let terms: { order: KeyTerm[]; plan: OrderPlan } | null = null;
    if (this.#terms !== null) {
      const order = this.#terms.map(settleNulls);
      terms = { order, plan: await this.#plan(order, this.#planText(order)) };
    }
    // No limit and no offset: every row, without a LIMIT clause. MySQL wants a LIMIT before any
    // OFFSET, so an offset without a limit gets the largest safe one.
    const unlimited = window.limit === null && window.offset === 0;
    // An ordered statement is its plan's (the plan stands for the ordering and `planKey`), as keyset
    // windows are; built only the first time its key is seen, not per page.
    const key = `o|${window.offset > 0}|${unlimited}`;
    const templates = terms === null ? this.#cache.templates : terms.plan.windows;
    const template = shared.template(templates, terms === null ? key + shared.planKey : key, () => {
      // Pagination owns LIMIT and OFFSET: the builder's own would shift or cut every page.
      let node = SelectQueryNode.cloneWithoutOffset(SelectQueryNode.cloneWithoutLimit(this.#node));
      if (terms !== null) {
        // Columns the catalog knows to be NOT NULL need no NULL placement, which keeps the index order usable.
        const { order, plan } = terms;
        const items = orderByItems(
          order,
          plan.exprs,
          (i) => (plan.nullable[i] ? false : 'column'),
          shared.capabilities,
        );
        node = SelectQueryNode.cloneWithOrderByItems(this.#coreNode, items);
      }
      return unlimited ? node : withLimit(node, 0, window.offset > 0 ? 1 : null);
    });
    const limit = window.limit ?? Number.MAX_SAFE_INTEGER;
    const rows = await shared.run(template, unlimited ? [] : [limit, window.offset], this.#base);
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
    const shared = this.#shared;
    const column = shared.treeField(field);
    const template = shared.template(this.#cache.templates, `find|${column}|${shared.planKey}`, () =>
      lookupQuery(
        this.#coreNode,
        this.#slice === null ? null : this.#node,
        selectionOf(this.#node, column).expr,
        rowKeyOf(column),
      ),
    );
    const rows = await shared.run(template, [parameter, 1], this.#base);
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
    return lookupAccepts(await this.#lookupColumn(field), value, this.#shared.capabilities);
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
    const key = this.uniqueKey ?? 'id';
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
    return { db: this.#shared.db, tables: this.#source.tables, description: this.description };
  }

  /** `value` as a parameter of `field`'s column, `undefined` when it cannot be of its type. */
  async #lookupParameter(field: string, value: string): Promise<unknown | undefined> {
    return lookupParameter(await this.#lookupColumn(field), value, this.#shared.capabilities);
  }

  /** The column a lookup by `field` compares with, as the catalog describes it. */
  #lookupColumn(field: string): Promise<ColumnInfo> {
    const { expr } = selectionOf(this.#node, this.#shared.treeField(field));
    return columnInfo(this.#shared, this.#source, field, expr, false, false);
  }

  /**
   * The plan of `order`: found by the array itself when it is frozen (a paginator passes the same
   * frozen ordering on every page), or by its terms when they are those of the last frozen
   * ordering resolved (a paginator per request freezes equal terms anew), else by its text.
   * Either way per shape and `planKey`. A plan found without its text, once resolved, is answered
   * as it is, without a promise to await.
   */
  #planOf(order: readonly KeyTerm[]): OrderPlan | Promise<OrderPlan> {
    const planKey = this.#shared.planKey;
    // A renaming plugin's plans are keyed by the tree's names too (`#planText`), never by the array.
    if (this.#shared.renamed || !isFrozenOrder(order)) return this.#plan(order, this.#planText(order));
    const cache = this.#cache;
    const frozenPlans = cache.frozenPlans;
    let byOptions = frozenPlans.get(order);
    const known = byOptions?.get(planKey);
    if (known !== undefined) return known;
    const recent = cache.recentFrozen;
    if (recent !== null && recent.planKey === planKey && sameKeyTerms(recent.order, order))
      return recent.plan;
    const plan = this.#plan(order, this.#planText(order));
    if (byOptions === undefined) {
      byOptions = new Map();
      frozenPlans.set(order, byOptions);
    }
    const plans = byOptions;
    plans.set(planKey, plan);
    plan.then(
      (resolved) => {
        if (plans.get(planKey) === plan) plans.set(planKey, resolved);
        cache.recentFrozen = { order, planKey, plan: resolved };
      },
      () => plans.delete(planKey),
    );
    return plan;
  }

  /**
   * What a plan of `order` is cached under: the ordering and `planKey`; under a renaming plugin,
   * also the tree's names of its fields (the shape's caches serve every plugin of one database).
   */
  #planText(order: readonly KeyTerm[]): string {
    const shared = this.#shared;
    const text = JSON.stringify(order);
    if (!shared.renamed) return text + shared.planKey;
    return `${text}n${JSON.stringify(order.map((term) => shared.treeField(term.field)))}${shared.planKey}`;
  }

  /** Field plans of an ordering, resolved once per query shape, ordering and `planKey`. */
  #plan(order: readonly KeyTerm[], key: string): Promise<OrderPlan> {
    const cache = this.#cache.plans;
    let plan = cache.get(key);
    if (!plan) {
      const capabilities = this.#shared.capabilities;
      plan = Promise.all(
        order.map(async (term, i): Promise<FieldPlan> => {
          const { expr, selected } = selectionOf(this.#node, this.#shared.treeField(term.field));
          const unique = term.unique === true || term.field === this.uniqueKey;
          const info = await columnInfo(
            this.#shared,
            this.#source,
            term.field,
            expr,
            unique,
            term.unique === true,
          );
          // Positions the driver's recorded text gives need no column of their own.
          const recorded =
            capabilities.recordedText?.reads(info) === true && (await textRecorded(this.#shared));
          const position = recorded
            ? null
            : (capabilities.positionExpression(expr, info) ??
              (info.kind === 'timestamp-text' && capabilities.exactTimestampText
                ? capabilities.exactTimestampText(expr, info.type ?? '')
                : null));
          const integer = info.kind === 'integer' || info.kind === 'bigint' || info.kind === 'number';
          const exactText = capabilities.exactIntegerText;
          const exact =
            integer && exactText !== null && !(await integersExact(this.#shared))
              ? { key: exactKey(i), expr: exactText(expr) }
              : null;
          // Rows a renaming plugin read name their columns as it chose: positions come from
          // columns of the adapter's own, which no plugin renames.
          const own = selected && position === null && !this.#shared.renamed;
          return {
            field: term.field,
            expr,
            readKey: own ? rowKeyOf(term.field) : positionKey(i),
            select: own ? null : (position ?? expr),
            exact,
            recorded,
            info,
          };
        }),
      ).then(async (fields) => ({
        fields,
        indexHint: await this.#indexHint(order, fields),
        capabilities:
          capabilities.rowValueLeadingBound && (await plainTables(this.#shared, this.#source))
            ? { ...capabilities, rowValueLeadingBound: false }
            : capabilities,
        // A compound orders by its result's columns: a private column holding another expression
        // than the term's (an exact text) would order differently.
        merged:
          capabilities.mergedSegments &&
          this.#coreNode.setOperations === undefined &&
          fields.every((f) => f.select === null || f.select === f.expr),
        keys: fields.map((f) => (f.select === null ? f.expr : IdentifierNode.create(f.readKey))),
        refused: fields.findIndex((f) => f.info.kind === 'unsupported'),
        notUnique: await this.#notUnique(order, fields),
        nullable: fields.map((f) => f.info.nullable),
        exprs: fields.map((f) => f.expr),
        added: fields.some((f) => f.select !== null),
        // Without a unique term positions can tie, and only the database knows which do.
        ties: !order.some((term) => term.unique === true || term.field === this.uniqueKey),
        recorded: fields.some((f) => f.recorded),
        exactFields: fields.flatMap((f) => (f.exact === null ? [] : [f.readKey])),
        segments: new Map(),
        windows: new Map(),
        writtenLimits: new Set(),
        stripper: new PrivateColumnStripper(),
        readPosition: positionReader(fields),
      }));
      plan.catch(() => cache.delete(key));
      cache.set(key, plan);
    }
    return plan;
  }

  /**
   * Why the unique key does not make `order` unique per row (`uniqueKeyRefusal`), from the
   * catalog its fields were looked up in: for a query of one table, without DISTINCT, GROUP BY or
   * set operations, ordered by columns of that table none of which `columns` declares. `null`
   * when a primary key or unique index covers it, when the order has no unique term (DRF's
   * position cursors), and whenever the catalog cannot know: a view, a foreign table, a join (any
   * key may repeat in one), an expression, a column declared in `columns` (taken as given).
   */
  async #notUnique(order: readonly KeyTerm[], fields: readonly FieldPlan[]): Promise<string | null> {
    const shared = this.#shared;
    const key = shared.uniqueKey;
    if (key === null || !order.some((term) => term.unique === true || term.field === key)) return null;
    const core = this.#coreNode;
    const distinct = core.frontModifiers?.some((m) => m.modifier === 'Distinct') ?? false;
    const grouped = core.joins ?? core.groupBy ?? core.having ?? core.setOperations ?? core.distinctOn;
    const { tables, complete } = this.#source;
    if (distinct || grouped !== undefined || !complete || tables.length !== 1) return null;
    const columns: string[] = [];
    for (const field of fields) {
      const column = columnName(field.expr);
      if (column === undefined || Object.hasOwn(shared.columns, field.field)) return null;
      columns.push(column);
    }
    // Read already: each field's kind came from it.
    const catalog = await readCatalog(shared, tables[0]!);
    const indexes = uniqueIndexes(catalog);
    if (indexes === undefined) return null;
    const fixed = core.where === undefined ? [] : fixedColumns(core.where.where);
    const table = tables[0]!.name;
    return uniqueKeyRefusal({ uniqueKey: key, table, columns, fixed, catalog, indexes }) ?? null;
  }

  /**
   * The index keyset statements name (`indexQuery`), for an ordering over plain columns of the
   * query's one table, without JOIN, GROUP BY or set operation: with no WHERE, the index whose
   * columns are the ordering's (the bound and the ORDER BY are the whole statement: MariaDB
   * would find it too, after weighing every index the bound could use, several times the time
   * it then takes to plan the named one); with a WHERE of equalities only (`tenant = ?`), the
   * index that begins with those columns and goes on with the ordering's. Any other WHERE may
   * be served better by another index: `null` leaves the statements to the optimizer.
   */
  async #indexHint(order: readonly KeyTerm[], fields: readonly FieldPlan[]): Promise<IndexHint | null> {
    const shared = this.#shared;
    if (shared.capabilities.indexQuery === null) return null;
    const core = this.#coreNode;
    const { tables, complete } = this.#source;
    const grouped = core.joins ?? core.groupBy ?? core.having ?? core.setOperations;
    if (!complete || tables.length !== 1 || grouped !== undefined) return null;
    const fixed = core.where === undefined ? [] : equalityColumns(core.where.where);
    if (fixed === undefined) return null;
    const columns: string[] = [];
    for (const field of fields) {
      const column = columnName(field.expr);
      if (column === undefined) return null;
      columns.push(column);
    }
    const descending = order.map((term) => term.direction === 'desc');
    const index = orderingIndex(await readIndexes(shared, tables[0]!), columns, descending, fixed);
    if (index === undefined) return null;
    const table = catalogKey(tables[0]!);
    return { index, table, key: `${table} ${index}` };
  }

  /**
   * The core query plus the columns the window needs that the query does not select; with
   * `exact`, the exact text of integers the driver rounds.
   */
  #windowBase(plans: readonly FieldPlan[], exact: boolean): SelectQueryNode {
    const extra = plans.flatMap((plan, i) => [
      ...(plan.select === null ? [] : [SelectionNode.create(AliasNode.create(plan.select, privateAlias(i)))]),
      ...(plan.exact === null || !exact
        ? []
        : [SelectionNode.create(AliasNode.create(plan.exact.expr, IdentifierNode.create(plan.exact.key)))]),
    ]);
    return extra.length > 0 ? SelectQueryNode.cloneWithSelections(this.#coreNode, extra) : this.#coreNode;
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

/** Whether two orderings have the same terms (field, direction, NULL placement, unique mark). */
function sameKeyTerms(a: readonly KeyTerm[], b: readonly KeyTerm[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.field !== y.field || x.direction !== y.direction || x.nulls !== y.nulls || x.unique !== y.unique) {
      return false;
    }
  }
  return true;
}

/**
 * Whether `order` and its terms are frozen, so that the array stands for the same ordering as
 * long as it lives (its terms are plain values: core makes them).
 */
function isFrozenOrder(order: readonly KeyTerm[]): boolean {
  if (!Object.isFrozen(order)) return false;
  for (let i = 0; i < order.length; i += 1) if (!Object.isFrozen(order[i])) return false;
  return true;
}

/**
 * Whether a row holds, at one of `keys`, a number the driver may have rounded from a 64-bit
 * integer: an integral one past 2^53 (every double that large is integral; none is safe).
 */
function holdsRounded(rows: readonly Row[], keys: readonly string[]): boolean {
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r]!;
    for (let k = 0; k < keys.length; k += 1) {
      const value = row[keys[k]!];
      if (typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value)) return true;
    }
  }
  return false;
}

/** The LIMITs a plan writes as numbers: the page sizes in use, not every size a client asks for. */
const MAX_WRITTEN_LIMITS = 8;
/** Above it a LIMIT stays a parameter (a window read to the end is `Number.MAX_SAFE_INTEGER`). */
const MAX_WRITTEN_LIMIT = 10_000;

/**
 * `limit` when a plan's keyset statements may write it as a number (`literalLimit`): one of the
 * first `MAX_WRITTEN_LIMITS` limits the plan saw, each at most `MAX_WRITTEN_LIMIT`, so the
 * statements (and the names `nameStatements` gives them) stay few. `undefined`: a parameter.
 */
function writtenLimit(seen: Set<number>, limit: number): number | undefined {
  if (seen.has(limit)) return limit;
  // Only a whole number is ever written into SQL text: anything else stays a bound parameter.
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_WRITTEN_LIMIT) return undefined;
  if (seen.size >= MAX_WRITTEN_LIMITS) return undefined;
  seen.add(limit);
  return limit;
}

/** How one keyset window's statements are shaped, beyond its plan: the parts of their cache key. */
interface WindowShape {
  /** The near bound's NULLs (`s`: no bound). */
  readonly mask: string;
  /** The far bound's NULLs (`''`: no far bound). */
  readonly stopMask: string;
  /** Whether rows carry their tie groups (an ordering without a unique term). */
  readonly ties: boolean;
  /** Whether integers the driver rounds are read as exact text too. */
  readonly exact: boolean;
}

/** The tie group of the row at `index`, as text: drivers answer the rank as a number, bigint or string. */
function tieGroup(rows: readonly Row[], index: number): string {
  return String(rows[index]![TIE_COLUMN]);
}
