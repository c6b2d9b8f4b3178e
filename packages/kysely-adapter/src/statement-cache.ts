import type { KeyTerm } from '@pagewise/core';
import type { CompiledQuery, KyselyPlugin, OperationNode } from 'kysely';
import type { PositionReader } from './column-codec.js';
import type { ColumnInfo } from './column-info.js';
import type { CatalogRow, DialectCapabilities, IndexColumnRow } from './dialect-capabilities.js';
import { matchesShape, parameterize } from './query-nodes.js';
import type { PrivateColumnStripper } from './row-picker.js';
import type { Segment } from './window-compiler.js';

/** A statement compiled once, whose `Slot` parameters are filled per run. */
export interface CompiledTemplate {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly query: CompiledQuery['query'];
}

/** How the adapter reads and compares one ordering field. */
export interface FieldPlan {
  /** The ordering term's field, as messages name it. */
  readonly field: string;
  readonly expr: OperationNode;
  /** Row property holding the raw value (the field, or a private alias the adapter selected). */
  readonly readKey: string;
  /** What the adapter selects as `readKey`, when rows do not carry the position as it is. */
  readonly select: OperationNode | null;
  /**
   * A private column with the exact text of integers the driver rounds (`exactIntegerText`),
   * selected only by a page that holds a rounded one.
   */
  readonly exact: { readonly key: string; readonly expr: OperationNode } | null;
  /** The position is read from the text the driver recorded on the value (`recordedText`). */
  readonly recorded: boolean;
  readonly info: ColumnInfo;
}

/** The index a plan's keyset statements name (`FORCE INDEX`). */
export interface IndexHint {
  readonly index: string;
  /** The table, as the index catalog keys it (`schema.table`). */
  readonly table: string;
  /** `schema.table index`, as `StatementCache.goneIndexes` holds it once the index is gone. */
  readonly key: string;
}

/** How one ordering is read and split into segments on one query shape. */
export interface OrderPlan {
  readonly fields: readonly FieldPlan[];
  /** The first field whose type no cursor can bound exactly (`unsupported`), or -1. */
  readonly refused: number;
  /**
   * Why the unique key cannot tell every two rows apart in this ordering (`uniqueKeyRefusal`: no
   * primary key or unique index covers it), the message keyset windows are refused with; `null`
   * when one does or the catalog cannot know.
   */
  readonly notUnique: string | null;
  readonly nullable: readonly boolean[];
  readonly exprs: readonly OperationNode[];
  /** The index keyset statements name (`indexQuery`); `null` to leave them to the optimizer. */
  readonly indexHint: IndexHint | null;
  /**
   * The dialect's capabilities as this plan's statements use them: `rowValueLeadingBound` off
   * where every table of the query is an ordinary one (`plainTables`).
   */
  readonly capabilities: DialectCapabilities;
  /** Whether a position is read from recorded text (`FieldPlan.recorded`). */
  readonly recorded: boolean;
  /** Whether rows carry private columns to strip (besides the exact text of rounded integers). */
  readonly added: boolean;
  /**
   * Whether positions can tie (no term is unique: DRF's offset scheme), so rows carry the tie
   * groups the database ranks them in (`withTieGroups`).
   */
  readonly ties: boolean;
  /** Row keys of the integer fields whose values the driver may round (see `FieldPlan.exact`). */
  readonly exactFields: readonly string[];
  /**
   * Whether segments are split at ties and read as arms of one statement (`mergedSegments`,
   * and a query without set operations of its own).
   */
  readonly merged: boolean;
  /** The terms as a compound's ORDER BY names them: the selected expression, or the private alias. */
  readonly keys: readonly OperationNode[];
  /** The statements of a window per pattern of NULL bound values: each a run of segments. */
  readonly segments: Map<string, Segment[][]>;
  /** The window statements of this plan: keyset ones by NULL pattern, offset, exact text, written LIMIT and segment; offset ones by `o|`. */
  readonly windows: Map<string, CompiledTemplate>;
  /** The LIMITs keyset statements write as numbers (`literalLimit`), at most `MAX_WRITTEN_LIMITS`. */
  readonly writtenLimits: Set<number>;
  /** Copies rows without the private columns (`added`, or integers' exact text). */
  readonly stripper: PrivateColumnStripper;
  /** Reads a row's position, all its fields in one call (`positionReader` of `fields`). */
  readonly readPosition: PositionReader;
}

/** Compiled statements and ordering plans of one query shape. */
export interface ShapeCache {
  /** The shape's text: the parameterized statement as JSON, which is also its key here. */
  readonly key: string;
  readonly templates: Map<string, CompiledTemplate>;
  /** Plans by the ordering's text and the plan options (`SharedState.planKey`). */
  readonly plans: Map<string, Promise<OrderPlan>>;
  /**
   * The same plans found by a frozen ordering array (the one a paginator keeps per ordering),
   * then by `planKey`: no ordering written out as text per page.
   */
  readonly frozenPlans: WeakMap<readonly KeyTerm[], Map<string, OrderPlan | Promise<OrderPlan>>>;
  /**
   * The last plan resolved for a frozen ordering, with its terms and `planKey`: a paginator made
   * per request (as views make them) keys a new frozen ordering with the same terms on every
   * page, which then finds this plan by its terms instead of writing them out and remembering
   * one more array. Replaced by any other ordering; it holds nothing of a request.
   */
  recentFrozen: {
    readonly order: readonly KeyTerm[];
    readonly planKey: string;
    readonly plan: OrderPlan;
  } | null;
  /**
   * This shape reordered by `orderBy`, by the terms' text: an ordering filter reorders the same
   * query on every request, and the copy's statement is then neither rebuilt nor written out.
   */
  readonly reordered: Map<string, ReorderedShape>;
}

/** A shape reordered by some terms: the parameterized statement, the shape's caches and the dialect it was built for. */
export interface ReorderedShape {
  readonly capabilities: DialectCapabilities;
  readonly node: object;
  readonly cache: ShapeCache;
}

/** Shapes come from code, so they are few; the cap only guards against generated SQL. */
const MAX_SHAPES = 500;
/** How many recently used shapes a new query is compared with before it is written out as text. */
const RECENT_SHAPES = 8;

/** A query shape seen recently: the parameterized statement and its caches. */
export interface KnownShape {
  readonly node: object;
  readonly cache: ShapeCache;
}

/** A query as `fromKysely` takes it in: the statement cache it uses, its statement and values. */
export interface RecognisedQuery {
  readonly cache: StatementCache;
  /** The statement with its values replaced by slots (a recent shape's own node when recognised). */
  readonly node: object;
  /** The values of the query's own clauses, in the order of their slots. */
  readonly values: unknown[];
  /** The caches of its shape when it is a recent one; `undefined` until first needed otherwise. */
  readonly shape: ShapeCache | undefined;
}

/** Where a Kysely instance's own cache is kept: on its dialect adapter, which `withPlugin` copies share. */
const OWN_CACHE = Symbol('pagewise statement cache');

/**
 * What is worth keeping between requests, per database: the recognised dialect, catalog reads
 * (a second round trip per page otherwise) and compiled statements per query shape (the
 * statement without its values). A table altered while the process runs keeps its old column
 * kinds; `columns` overrides them, and a new `StatementCache` forgets them.
 *
 * `fromKysely(builder, { db })` uses the cache of `db` (one per Kysely instance, shared by its
 * `withPlugin`/`withSchema` copies); pass `statementCache` to choose another.
 *
 * @example
 * const statementCache = new StatementCache();
 * fromKysely(db.selectFrom('articles').selectAll(), { db, statementCache });
 */
export class StatementCache {
  /** @internal the dialect recognised from a compiled probe */
  capabilities: DialectCapabilities | undefined;
  /** @internal whether the driver returns integers beyond 2^53 exactly (as bigints), probed once */
  integersExact: Promise<boolean> | undefined;
  /** @internal whether the driver records the exact text of values (`recordedText`), probed once */
  textRecorded: Promise<boolean> | undefined;
  /** @internal `SharedState.planKey` of queries without `columns` and `dialect`, per unique key */
  readonly defaultPlanKeys = new Map<string | null, string>();
  /** @internal catalog reads per `schema.table` */
  readonly catalogs = new Map<string, Promise<ReadonlyMap<string, CatalogRow>>>();
  /** @internal index columns per `schema.table` (`indexQuery`) */
  readonly indexes = new Map<string, Promise<readonly IndexColumnRow[]>>();
  /** @internal `schema.table index` of the indexes a statement named and the table no longer had */
  readonly goneIndexes = new Set<string>();
  /** Fields as a set of plugins renames them (`SharedState.treeField`), per set (a Kysely instance's). */
  readonly #treeFields = new WeakMap<readonly KyselyPlugin[], Map<string, string>>();
  readonly #shapes = new Map<string, ShapeCache>();
  /** Most recently used first. */
  readonly #recent: KnownShape[] = [];

  /** @internal fields as `plugins` rename them: row names (`createdAt`) to the tree's (`created_at`) */
  treeFields(plugins: readonly KyselyPlugin[]): Map<string, string> {
    let names = this.#treeFields.get(plugins);
    if (names === undefined) {
      names = new Map();
      this.#treeFields.set(plugins, names);
    }
    return names;
  }

  /** @internal the caches of one query shape */
  shape(key: string): ShapeCache {
    let cache = this.#shapes.get(key);
    if (cache === undefined) {
      if (this.#shapes.size >= MAX_SHAPES) this.#shapes.clear();
      cache = {
        key,
        templates: new Map(),
        plans: new Map(),
        frozenPlans: new WeakMap(),
        recentFrozen: null,
        reordered: new Map(),
      };
      this.#shapes.set(key, cache);
    }
    return cache;
  }

  /**
   * @internal the recently used shape `raw` has (its values collected into `values`), found by
   * one walk of its tree; `undefined` when it has none of them (`values` is then empty).
   */
  recognise(raw: object, values: unknown[]): KnownShape | undefined {
    const recent = this.#recent;
    for (let i = 0; i < recent.length; i += 1) {
      const known = recent[i]!;
      if (matchesShape(raw, known.node, values)) {
        if (i > 0) {
          recent.splice(i, 1);
          recent.unshift(known);
        }
        return known;
      }
      values.length = 0;
    }
    return undefined;
  }

  /** @internal the caches of the parameterized statement `node`, whose text is `key`, now a recent shape */
  remember(node: object, key: string): ShapeCache {
    const cache = this.shape(key);
    const recent = this.#recent;
    if (recent[0]?.node !== node) {
      recent.unshift({ node, cache });
      if (recent.length > RECENT_SHAPES) recent.pop();
    }
    return cache;
  }

  /**
   * @internal `raw` (a builder's statement) under `statementCache`, else `db`'s cache: its values
   * taken out in one walk of its tree when it has a recently used shape, else parameterized.
   */
  static recognised(
    raw: object,
    statementCache: StatementCache | undefined,
    db: Parameters<typeof StatementCache.of>[0],
  ): RecognisedQuery {
    const cache = statementCache ?? StatementCache.of(db);
    const values: unknown[] = [];
    const known = cache.recognise(raw, values);
    if (known === undefined)
      return { cache, node: parameterize(raw, values) as object, values, shape: undefined };
    return { cache, node: known.node, values, shape: known.cache };
  }

  /**
   * The cache owned by `db` (kept on its dialect adapter, so it lives and dies with the Kysely
   * instance and its copies), or a fresh one for a query without `db`.
   */
  static of(db: { getExecutor(): { readonly adapter: object } } | undefined): StatementCache {
    if (db === undefined) return new StatementCache();
    const owner = db.getExecutor().adapter as { [OWN_CACHE]?: StatementCache };
    const own = owner[OWN_CACHE];
    if (own !== undefined) return own;
    const cache = new StatementCache();
    // A frozen adapter cannot hold one: its queries then cache per query object, as without `db`.
    if (Object.isExtensible(owner)) {
      Object.defineProperty(owner, OWN_CACHE, { value: cache, enumerable: false });
    }
    return cache;
  }
}
