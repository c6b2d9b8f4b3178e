import {
  ConfigurationError,
  type CountResult,
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
  ColumnNode,
  type CompiledQuery,
  createQueryId,
  ExplainNode,
  IdentifierNode,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  OperationNodeTransformer,
  type OrderByItemNode,
  PrimitiveValueListNode,
  RawNode,
  ReferenceNode,
  SelectAllNode,
  SelectionNode,
  type SelectQueryBuilder,
  SelectQueryNode,
  type Simplify,
  sql,
  TableNode,
  ValueListNode,
  ValueNode,
} from 'kysely';
import {
  type BuilderSlice,
  readSlice,
  refuseKeysetOnSlice,
  sliceCount,
  sliceWindow,
} from './builder-slice.js';
import { toParameter, toPosition } from './column-codec.js';
import { checkColumnLookup } from './config-checks.js';
import { countKey } from './count-key.js';
import {
  type CatalogRow,
  type ColumnInfo,
  type ColumnKind,
  capabilitiesFromProbe,
  type DialectCapabilities,
  type DialectName,
  dialectCapabilities,
} from './dialect-capabilities.js';
import { lookupParameter, lookupQuery } from './lookup-value.js';
import { deleteRows, insertRow, updateRows, type WriteTarget } from './row-writes.js';
import {
  compileSegment,
  orderByItems,
  planSegments,
  privateAlias,
  type Segment,
  Slot,
  withLimit,
} from './window-compiler.js';

const ADAPTER = 'kysely';

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
   * @default 'id'
   */
  uniqueKey?: string | null;
  /**
   * Column kinds (and nullability) of ordering fields, for expressions the catalog cannot
   * describe or to skip the catalog lookup.
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
}

interface SourceTable {
  readonly name: string;
  readonly schema: string | undefined;
  readonly alias: string;
}

/** How the adapter reads and compares one ordering field. */
interface FieldPlan {
  readonly expr: OperationNode;
  /** Row property holding the raw value (the field, or a private alias the adapter selected). */
  readonly readKey: string;
  /** What the adapter selects as `readKey`, when rows do not carry the position as it is. */
  readonly select: OperationNode | null;
  /** A private column with the exact text of integers the driver rounds (`exactIntegerText`). */
  readonly exact: { readonly key: string; readonly expr: OperationNode } | null;
  readonly info: ColumnInfo;
}

interface CompiledTemplate {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly query: CompiledQuery['query'];
}

type Row = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: the adapter accepts a Kysely instance of any schema.
type AnyKysely = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: internally the builder is only compiled and executed.
type AnyBuilder = SelectQueryBuilder<any, any, any>;

/**
 * What is worth keeping between requests, per database (keyed by the Kysely instance's dialect
 * adapter, which `withPlugin` copies share): the recognised dialect, catalog reads (a second
 * round trip per page otherwise) and compiled statements per query shape. A table altered while
 * the process runs keeps its old column kinds; `columns` overrides them.
 */
class DatabaseCache {
  capabilities: DialectCapabilities | undefined;
  /** Whether the driver returns integers beyond 2^53 exactly (as bigints), probed once. */
  integersExact: Promise<boolean> | undefined;
  readonly catalogs = new Map<string, Promise<ReadonlyMap<string, CatalogRow>>>();
  readonly shapes = new Map<string, ShapeCache>();

  shape(key: string): ShapeCache {
    let cache = this.shapes.get(key);
    if (cache === undefined) {
      // Shapes come from code, so they are few; the cap only guards against generated SQL.
      if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
      cache = { templates: new Map(), plans: new Map() };
      this.shapes.set(key, cache);
    }
    return cache;
  }
}

/** Compiled statements and ordering plans of one query shape. */
interface ShapeCache {
  readonly templates: Map<string, CompiledTemplate>;
  readonly plans: Map<string, Promise<OrderPlan>>;
}

/** How one ordering is read and split into segments on one query shape. */
interface OrderPlan {
  readonly fields: readonly FieldPlan[];
  readonly nullable: readonly boolean[];
  readonly exprs: readonly OperationNode[];
  /** Whether rows carry private columns to strip. */
  readonly added: boolean;
  /** Segments per pattern of NULL bound values. */
  readonly segments: Map<string, Segment[]>;
}

const MAX_SHAPES = 500;
const caches = new WeakMap<object, DatabaseCache>();

function cacheFor(db: AnyKysely | undefined): DatabaseCache {
  if (db === undefined) return new DatabaseCache();
  const owner = db.getExecutor().adapter;
  let cache = caches.get(owner);
  if (!cache) {
    cache = new DatabaseCache();
    caches.set(owner, cache);
  }
  return cache;
}

/**
 * Replaces the values of the query's own clauses with base `Slot`s (collected into `values`), so
 * the statement's shape can key the caches. A plain walk that copies only the nodes on the way
 * to a value: an `OperationNodeTransformer` costs more to construct than this whole pass.
 */
function parameterize(node: unknown, values: unknown[]): unknown {
  if (Array.isArray(node)) {
    let copy: unknown[] | undefined;
    node.forEach((item, i) => {
      const replaced = parameterize(item, values);
      if (replaced === item) return;
      copy ??= [...node];
      copy[i] = replaced;
    });
    return copy ?? node;
  }
  if (node === null || typeof node !== 'object') return node;
  const kind = (node as { kind?: unknown }).kind;
  if (typeof kind !== 'string') return node;
  if (ValueNode.is(node as OperationNode)) {
    const value = node as ValueNode;
    if (value.immediate || value.value instanceof Slot) return node;
    values.push(value.value);
    return ValueNode.create(new Slot(values.length - 1, true));
  }
  if (PrimitiveValueListNode.is(node as OperationNode)) {
    const list = node as PrimitiveValueListNode;
    return ValueListNode.create(
      list.values.map((v) => parameterize(ValueNode.create(v), values) as OperationNode),
    );
  }
  let copy: Record<string, unknown> | undefined;
  const record = node as Record<string, unknown>;
  for (const key in record) {
    const child = record[key];
    if (child === null || typeof child !== 'object') continue;
    const replaced = parameterize(child, values);
    if (replaced === child) continue;
    copy ??= { ...record };
    copy[key] = replaced;
  }
  return copy ?? node;
}

function shapeKey(node: OperationNode): string {
  try {
    return JSON.stringify(node);
  } catch {
    // Only inline (immediate) bigints get here.
    return JSON.stringify(node, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
  }
}

function identifierName(node: OperationNode | undefined): string | undefined {
  return node && IdentifierNode.is(node) ? node.name : undefined;
}

function columnName(node: OperationNode): string | undefined {
  if (ColumnNode.is(node)) return node.column.name;
  if (ReferenceNode.is(node) && ColumnNode.is(node.column)) return node.column.column.name;
  return undefined;
}

function sourceTable(node: OperationNode): SourceTable | undefined {
  if (TableNode.is(node)) {
    const name = node.table.identifier.name;
    return { name, schema: node.table.schema?.name, alias: name };
  }
  if (AliasNode.is(node) && TableNode.is(node.node)) {
    const alias = identifierName(node.alias);
    const name = node.node.table.identifier.name;
    return { name, schema: node.node.table.schema?.name, alias: alias ?? name };
  }
  return undefined;
}

function fieldReference(field: string): OperationNode {
  const dot = field.lastIndexOf('.');
  if (dot < 0) return ReferenceNode.create(ColumnNode.create(field));
  return ReferenceNode.create(ColumnNode.create(field.slice(dot + 1)), TableNode.create(field.slice(0, dot)));
}

function rowKeyOf(field: string): string {
  return field.slice(field.lastIndexOf('.') + 1);
}

function directionOf(item: OrderByItemNode): 'asc' | 'desc' {
  const direction = item.direction;
  if (direction && RawNode.is(direction) && direction.sqlFragments.join('').trim().toLowerCase() === 'desc') {
    return 'desc';
  }
  return 'asc';
}

/** Puts per-fetch values into a cached statement's `Slot` placeholders (the path without `db`). */
class SlotFiller extends OperationNodeTransformer {
  readonly #values: readonly unknown[];
  readonly #base: readonly unknown[];
  constructor(values: readonly unknown[], base: readonly unknown[]) {
    super();
    this.#values = values;
    this.#base = base;
  }
  protected override transformValue(node: ValueNode): ValueNode {
    const value = node.value;
    if (!(value instanceof Slot)) return node;
    return ValueNode.create(value.base ? this.#base[value.index] : this.#values[value.index]);
  }
}

/**
 * `select * from (<raw>) as "pagewise"`: a plugin may only swap a select for a select, so
 * statements run through the builder (no `db`) are wrapped as one.
 */
function asSelect(raw: RawNode): SelectQueryNode {
  const derived = AliasNode.create(RawNode.create(['(', ')'], [raw]), IdentifierNode.create('pagewise'));
  return SelectQueryNode.cloneWithSelections(SelectQueryNode.createFrom([derived]), [
    SelectionNode.createSelectAll(),
  ]);
}

function swapPlugin(node: OperationNode): KyselyPlugin {
  return {
    transformQuery: () => node as ReturnType<KyselyPlugin['transformQuery']>,
    transformResult: async (args) => args.result,
  };
}

/** What every copy made by `orderBy` shares: the executor side and the caches. */
class SharedState {
  readonly builder: AnyBuilder;
  readonly db: AnyKysely | undefined;
  readonly uniqueKey: string | null;
  readonly columns: Readonly<Record<string, ColumnKind | ColumnInfo>>;
  readonly cache: DatabaseCache;
  /** The options that change plans, as part of their cache key. */
  readonly planKey: string;
  readonly #dialect: DialectName | DialectCapabilities | undefined;
  #capabilities: DialectCapabilities | undefined;

  constructor(builder: AnyBuilder, options: KyselyQueryOptions) {
    this.builder = builder;
    this.db = options.db;
    this.uniqueKey = options.uniqueKey === undefined ? 'id' : options.uniqueKey;
    this.columns = options.columns ?? {};
    this.#dialect = options.dialect;
    this.cache = cacheFor(options.db);
    const dialect = typeof options.dialect === 'object' ? options.dialect.name : (options.dialect ?? '');
    this.planKey = JSON.stringify([this.uniqueKey, this.columns, dialect]);
  }

  get capabilities(): DialectCapabilities {
    if (this.#capabilities === undefined) {
      const named = this.#dialect;
      if (typeof named === 'object') this.#capabilities = named;
      else if (named !== undefined) this.#capabilities = dialectCapabilities[named];
      else {
        const probe = sql`${sql.ref('p')} = ${1}`.toOperationNode();
        this.cache.capabilities ??= capabilitiesFromProbe(this.compile(asSelect(probe)).sql);
        this.#capabilities = this.cache.capabilities;
      }
    }
    return this.#capabilities;
  }

  compile(node: OperationNode): CompiledTemplate {
    if (this.db) return this.db.getExecutor().compileQuery(node as CompiledQuery['query'], createQueryId());
    return this.builder.withPlugin(swapPlugin(node)).compile() as CompiledTemplate;
  }

  /** Compiles `build()` once per shape and `key`, then only swaps parameters. */
  template(shape: ShapeCache, key: string, build: () => OperationNode): CompiledTemplate {
    let template = shape.templates.get(key);
    if (template === undefined) {
      template = this.compile(build());
      shape.templates.set(key, template);
    }
    return template;
  }

  async run(
    template: CompiledTemplate,
    values: readonly unknown[],
    base: readonly unknown[] = [],
  ): Promise<Row[]> {
    if (this.db) {
      const parameters = template.parameters.map((p) =>
        p instanceof Slot ? (p.base ? base[p.index] : values[p.index]) : p,
      );
      const result = await this.db.executeQuery<Row>({
        query: template.query,
        queryId: createQueryId(),
        sql: template.sql,
        parameters,
      });
      return result.rows;
    }
    const node = new SlotFiller(values, base).transformNode(template.query);
    return (await this.builder.withPlugin(swapPlugin(node)).execute()) as Row[];
  }

  /**
   * Whether integers past 2^53 come back exact. Only asked where the dialect can read them
   * exactly otherwise (better-sqlite3 rounds them unless `defaultSafeIntegers(true)`).
   */
  integersExact(): Promise<boolean> {
    if (this.capabilities.exactIntegerText === null) return Promise.resolve(true);
    let pending = this.cache.integersExact;
    if (pending === undefined) {
      const probe = sql`select 9007199254740993 as ${sql.ref('v')}`.toOperationNode() as RawNode;
      pending = this.run(this.compile(asSelect(probe)), []).then((rows) => typeof rows[0]?.v === 'bigint');
      pending.catch(() => {
        this.cache.integersExact = undefined;
      });
      this.cache.integersExact = pending;
    }
    return pending;
  }

  catalog(table: SourceTable): Promise<ReadonlyMap<string, CatalogRow>> {
    const query = this.capabilities.catalogQuery;
    if (query === null) return Promise.resolve(new Map());
    const perDb = this.cache.catalogs;
    const key = `${table.schema ?? ''}.${table.name}`;
    let pending = perDb.get(key);
    if (!pending) {
      const node = asSelect(query(table.name, table.schema).toOperationNode());
      pending = this.run(this.compile(node), []).then(
        (rows) => new Map(rows.map((r) => [String(r.name), r as unknown as CatalogRow])),
      );
      pending.catch(() => perDb.delete(key));
      perDb.set(key, pending);
    }
    return pending;
  }

  /** Drops the cached columns of `table`, so the next `catalog` reads them again. */
  forgetCatalog(table: SourceTable): void {
    this.cache.catalogs.delete(`${table.schema ?? ''}.${table.name}`);
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
  readonly #tables: readonly SourceTable[];
  /** Whether `#tables` are all the query reads from (no derived table, no CTE the catalog would miss). */
  readonly #tablesComplete: boolean;
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
    base?: readonly unknown[],
  ) {
    let node = query;
    if (base === undefined) {
      const values: unknown[] = [];
      node = parameterize(query, values) as SelectQueryNode;
      base = values;
    }
    this.#shared = shared;
    this.#node = node;
    this.#base = base;
    this.#slice = readSlice(node, base);
    this.uniqueKey = shared.uniqueKey;
    const items = node.orderBy?.items ?? [];
    this.ordered = items.length > 0;
    this.ordering =
      terms ??
      items.flatMap((item) => {
        const field = columnName(item.orderBy);
        if (field === undefined) return [];
        const term: OrderTerm = { field, direction: directionOf(item) };
        return [item.nulls ? { ...term, nulls: item.nulls } : term];
      });
    this.#terms = terms ?? (items.length > 0 && this.ordering.length === items.length ? this.ordering : null);
    const sources = [...(node.from?.froms ?? []), ...(node.joins ?? []).map((j) => j.table)];
    this.#tables = sources.flatMap((t) => sourceTable(t) ?? []);
    this.#tablesComplete = this.#tables.length === sources.length && node.with === undefined;
    const first = this.#tables[0];
    this.description = first ? `kysely query on "${first.name}"` : 'kysely query';
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
    const settled = terms.map(settleNulls);
    const exprs = settled.map((t) => this.#selection(t.field).expr);
    const items = orderByItems(settled, exprs, () => false, this.#shared.capabilities);
    const node = SelectQueryNode.cloneWithOrderByItems(
      SelectQueryNode.cloneWithoutOrderBy(this.#node),
      items,
    );
    return new KyselyQuery<O>(this.#shared, node, [...terms], this.#base);
  }

  /** The caches of this statement's shape (the statement without its values). */
  get #cache(): ShapeCache {
    this.#shape ??= this.#shared.cache.shape(shapeKey(this.#node));
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
      const explain = shared.template(this.#cache, 'estimate', () => ({
        ...this.#coreNode,
        explain: ExplainNode.create('json'),
      }));
      const rows = await shared.run(explain, [], this.#base);
      const estimate = rows[0] ? shared.capabilities.readEstimate(rows[0]) : null;
      if (estimate !== null) return { value: sliceCount(this.#slice, estimate), exact: false };
    }
    const counted = shared.template(this.#cache, 'count', () =>
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
    const rows = await shared.run(counted, [], this.#base);
    return { value: sliceCount(this.#slice, Number(rows[0]?.count ?? 0)), exact: true };
  }

  /** What a count cache keys this query's count on: its statement and values (`count-key.ts`). */
  countKey(): string {
    return countKey(this.#shared.planKey, this.#node, this.#base);
  }

  /**
   * Fetches one window. Offset windows keep the query's ordering:
   * `select ... order by ... limit $1 offset $2`. Keyset windows replace it with the window's
   * order and seek past the bound; on Postgres, for `[created desc, id desc]`:
   * `select ... where ("created", "id") < ($1, $2) order by "created" desc, "id" desc limit $3`;
   * on MariaDB (no index range for row values), and on every dialect for mixed directions, the
   * expanded form: `` where `created` <= ? and (`created` < ? or (`created` = ? and `id` < ?)) ``. A nullable term's
   * NULL block is fetched by its own query (`where "created" is null order by "id"`) when the
   * page reaches it. Bound values that do not fit their columns throw `InvalidBoundError`.
   *
   * @example
   * await query.fetch({ order: null, after: null, offset: 40, limit: 20 })
   * // select * from "articles" order by "created" desc limit $1 offset $2
   */
  async fetch(window: WindowSpec): Promise<ReadonlyArray<WindowRow<O>>> {
    if (window.order === null) return this.#fetchOffset(window);
    if (this.#slice !== null) refuseKeysetOnSlice(this.description);
    const shared = this.#shared;
    const order = window.order;
    const bound = window.after;
    if (bound !== null && bound.length !== order.length) {
      throw new InvalidBoundError(ADAPTER, `expected ${order.length} bound values, got ${bound.length}`);
    }
    const orderKey = JSON.stringify(order) + shared.planKey;
    const plan = await this.#plan(order, orderKey);
    const { fields, nullable } = plan;
    const refused = fields.findIndex((f) => f.info.kind === 'unsupported');
    if (refused >= 0) {
      const type = fields[refused]!.info.type ?? 'unknown';
      throw new ConfigurationError(
        `${ADAPTER} adapter: cannot page by "${order[refused]!.field}": its type ${type} has no order a cursor can bound exactly. Order by another column, or by an expression the adapter can page (e.g. a cast to text) declared in \`columns\`.`,
      );
    }
    let mask = '';
    const values: unknown[] = order.map((term, i) => {
      const value = bound === null ? null : (bound[i] ?? null);
      mask += bound === null ? 's' : value === null ? '0' : '1';
      return value === null ? null : toParameter(fields[i]!.info, value, term.field, shared.capabilities);
    });
    let segments = plan.segments.get(mask);
    if (segments === undefined) {
      segments = planSegments(order, nullable, bound, shared.capabilities);
      plan.segments.set(mask, segments);
    }
    const single = segments.length === 1;
    const withOffset = single && window.offset > 0;
    // A keyset window without a limit reads to the end; SQL needs a number either way.
    const limit = window.limit ?? Number.MAX_SAFE_INTEGER;
    values.push(single ? limit : window.offset + limit, window.offset);
    const rows: Row[] = [];
    // Several segments cannot share one SQL OFFSET: skip the first rows as they arrive, keeping
    // only the page (a result is never spread into push, which overflows the stack when large).
    let toSkip = single ? 0 : window.offset;
    for (let s = 0; s < segments.length; s += 1) {
      const segment = segments[s]!;
      const template = shared.template(this.#cache, `w${orderKey}|${mask}|${s}|${withOffset}`, () =>
        compileSegment(
          this.#windowBase(fields),
          order,
          plan.exprs,
          nullable,
          segment,
          withOffset,
          shared.capabilities,
          (i, parameter) => shared.capabilities.boundParameter?.(parameter, fields[i]!.info) ?? parameter,
        ),
      );
      if (!single) values[order.length] = toSkip + limit - rows.length;
      for (const row of await shared.run(template, values, this.#base)) {
        if (toSkip > 0) toSkip -= 1;
        else rows.push(row);
      }
      if (single || rows.length >= limit) break;
    }
    return rows.map((row) => ({
      row: (plan.added ? this.#strip(row) : row) as O,
      position: fields.map(
        (p, i): PositionValue =>
          toPosition(
            p.info,
            row[p.readKey],
            order[i]!.field,
            shared.capabilities,
            p.exact === null ? undefined : row[p.exact.key],
          ),
      ),
    }));
  }

  async #fetchOffset(spec: WindowSpec): Promise<ReadonlyArray<WindowRow<O>>> {
    const inSlice = sliceWindow(this.#slice, spec.offset, spec.limit);
    if (inSlice === null) return [];
    const window = { ...spec, ...inSlice };
    const shared = this.#shared;
    // Pagination owns LIMIT and OFFSET: the builder's own would shift or cut every page.
    let node = SelectQueryNode.cloneWithoutOffset(SelectQueryNode.cloneWithoutLimit(this.#node));
    let nullable: boolean[] | null = null;
    if (this.#terms !== null) {
      // Columns the catalog knows to be NOT NULL need no NULL placement, which keeps the index order usable.
      const order = this.#terms.map(settleNulls);
      const plan = await this.#plan(order, JSON.stringify(order) + shared.planKey);
      nullable = [...plan.nullable];
      const items = orderByItems(
        order,
        plan.exprs,
        (i) => (plan.nullable[i] ? false : 'column'),
        shared.capabilities,
      );
      node = SelectQueryNode.cloneWithOrderByItems(this.#coreNode, items);
    }
    // No limit and no offset: every row, without a LIMIT clause. MySQL wants a LIMIT before any
    // OFFSET, so an offset without a limit gets the largest safe one.
    const unlimited = window.limit === null && window.offset === 0;
    const key = JSON.stringify(['o', this.#terms, nullable, window.offset > 0, unlimited, shared.planKey]);
    const ordered = node;
    const template = shared.template(this.#cache, key, () =>
      unlimited ? ordered : withLimit(ordered, 0, window.offset > 0 ? 1 : null),
    );
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
    const template = shared.template(this.#cache, `find|${field}|${shared.planKey}`, () =>
      lookupQuery(
        this.#coreNode,
        this.#slice === null ? null : this.#node,
        this.#selection(field).expr,
        rowKeyOf(field),
      ),
    );
    const rows = await shared.run(template, [parameter, 1], this.#base);
    return (rows[0] as O | undefined) ?? null;
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
    return { db: this.#shared.db, tables: this.#tables, description: this.description };
  }

  /** `value` as a parameter of `field`'s column, `undefined` when it cannot be of its type. */
  async #lookupParameter(field: string, value: string): Promise<unknown | undefined> {
    const { expr } = this.#selection(field);
    const info = await this.#columnInfo(field, expr, false, false);
    return lookupParameter(info, value, this.#shared.capabilities);
  }

  #strip(row: Row): Row {
    const copy: Row = {};
    for (const key of Object.keys(row)) if (!key.startsWith('__pagewise_')) copy[key] = row[key];
    return copy;
  }

  /** The expression behind `field` and whether rows already carry it. */
  #selection(field: string): { expr: OperationNode; selected: boolean } {
    const name = rowKeyOf(field);
    let selectsAll = false;
    for (const selection of this.#node.selections ?? []) {
      const s = selection.selection;
      if (SelectAllNode.is(s) || (ReferenceNode.is(s) && SelectAllNode.is(s.column))) {
        selectsAll = true;
      } else if (AliasNode.is(s)) {
        if (identifierName(s.alias) === name) return { expr: s.node, selected: true };
      } else if (columnName(s) === name && (name === field || (ReferenceNode.is(s) && s.table))) {
        return { expr: s, selected: true };
      }
    }
    return { expr: fieldReference(field), selected: selectsAll };
  }

  /**
   * The kind and nullability of `field`, from `columns` or the catalogs of the query's tables.
   * A field that is ambiguous or names no column is a `ConfigurationError` (`tiebreaker` says
   * whether it is the `uniqueKey` appended by cursor pagination, for the message).
   */
  async #columnInfo(
    field: string,
    expr: OperationNode,
    unique: boolean,
    tiebreaker: boolean,
  ): Promise<ColumnInfo> {
    const declared = this.#shared.columns[field];
    if (declared !== undefined) {
      const info = typeof declared === 'string' ? { kind: declared, nullable: true } : declared;
      return unique ? { ...info, nullable: false } : info;
    }
    const column = columnName(expr);
    const qualifier = ReferenceNode.is(expr) ? expr.table?.table.identifier.name : undefined;
    const candidates = this.#tables.filter(
      (t) => qualifier === undefined || t.alias === qualifier || t.name === qualifier,
    );
    if (column !== undefined) {
      const catalog = (table: SourceTable, fresh: boolean) => {
        if (fresh) this.#shared.forgetCatalog(table);
        return this.#shared.catalog(table);
      };
      const complete = this.#tablesComplete;
      await checkColumnLookup({
        field,
        column,
        qualifier,
        tiebreaker,
        tables: candidates,
        complete,
        catalog,
      });
      for (const table of candidates) {
        const row = (await this.#shared.catalog(table)).get(column);
        if (row !== undefined) {
          const type = String(row.type).toLowerCase();
          const labels = typeof row.labels === 'string' ? (JSON.parse(row.labels) as string[]) : undefined;
          const kind = labels ? 'enum' : this.#shared.capabilities.columnKind(type);
          // better-sqlite3 with safe integers answers the flag as a bigint.
          const flag = row.nullable;
          const nullable =
            !unique && (flag === true || flag === 1 || flag === 1n || flag === '1' || flag === 't');
          return labels ? { kind, nullable, type, labels } : { kind, nullable, type };
        }
      }
    }
    return { kind: 'unknown', nullable: !unique };
  }

  /** Field plans of an ordering, resolved once per query object and ordering. */
  #plan(order: readonly KeyTerm[], key: string): Promise<OrderPlan> {
    const cache = this.#cache.plans;
    let plan = cache.get(key);
    if (!plan) {
      const capabilities = this.#shared.capabilities;
      plan = Promise.all(
        order.map(async (term, i): Promise<FieldPlan> => {
          const { expr, selected } = this.#selection(term.field);
          const unique = term.unique === true || term.field === this.uniqueKey;
          const info = await this.#columnInfo(term.field, expr, unique, term.unique === true);
          const position =
            capabilities.positionExpression(expr, info) ??
            (info.kind === 'timestamp-text' && capabilities.exactTimestampText
              ? capabilities.exactTimestampText(expr, info.type ?? '')
              : null);
          const integer = info.kind === 'integer' || info.kind === 'bigint' || info.kind === 'number';
          const exactText = capabilities.exactIntegerText;
          const exact =
            integer && exactText !== null && !(await this.#shared.integersExact())
              ? { key: `__pagewise_x${i}`, expr: exactText(expr) }
              : null;
          const own = selected && position === null;
          return {
            expr,
            readKey: own ? rowKeyOf(term.field) : `__pagewise_${i}`,
            select: own ? null : (position ?? expr),
            exact,
            info,
          };
        }),
      ).then((fields) => ({
        fields,
        nullable: fields.map((f) => f.info.nullable),
        exprs: fields.map((f) => f.expr),
        added: fields.some((f) => f.select !== null || f.exact !== null),
        segments: new Map(),
      }));
      plan.catch(() => cache.delete(key));
      cache.set(key, plan);
    }
    return plan;
  }

  /** The core query plus the columns the window needs that the query does not select. */
  #windowBase(plans: readonly FieldPlan[]): SelectQueryNode {
    const extra = plans.flatMap((plan, i) => [
      ...(plan.select === null ? [] : [SelectionNode.create(AliasNode.create(plan.select, privateAlias(i)))]),
      ...(plan.exact === null
        ? []
        : [SelectionNode.create(AliasNode.create(plan.exact.expr, IdentifierNode.create(plan.exact.key)))]),
    ]);
    return extra.length > 0 ? SelectQueryNode.cloneWithSelections(this.#coreNode, extra) : this.#coreNode;
  }
}

/**
 * Pages a Kysely select query on Postgres (and PGlite), SQLite or MySQL/MariaDB. Its ORDER BY is
 * the query's ordering; cursor pagination replaces it and appends `uniqueKey` as the
 * tiebreaker, selecting it if the query does not (and stripping it from the rows again).
 * Rows keep the builder's row type.
 *
 * @example
 * const query = fromKysely(db.selectFrom('articles').selectAll().orderBy('created', 'desc'), { db });
 * const rows = await new CursorPagination({ pageSize: 20 }).paginateQueryset(query, request);
 * // select * from "articles" where ("created", "id") < ($1, $2) order by "created" desc, "id" desc limit $3
 */
export function fromKysely<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  options: KyselyQueryOptions = {},
): KyselyQuery<Simplify<O>> {
  const shared = new SharedState(query as AnyBuilder, options);
  return new KyselyQuery<Simplify<O>>(shared, query.toOperationNode(), null);
}
