import { CatalogCache, type DialectCapabilities, type ShapePlans, shapePlans } from '@pagewise/sql';
import type { CompiledQuery, KyselyPlugin } from 'kysely';
import { matchesShape, parameterize } from './query-nodes.js';

/** A statement compiled once, whose `Slot` parameters are filled per run. */
export interface CompiledTemplate {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly query: CompiledQuery['query'];
}

/** Compiled statements and ordering plans (`@pagewise/sql`'s `ShapePlans`) of one query shape. */
export interface ShapeCache extends ShapePlans<CompiledTemplate> {
  /** The shape's text: the parameterized statement as JSON, which is also its key here. */
  readonly key: string;
  readonly templates: Map<string, CompiledTemplate>;
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
 * (a second round trip per page otherwise; `@pagewise/sql`'s `CatalogCache`) and compiled
 * statements per query shape (the statement without its values). A table altered while the process runs keeps its old column
 * kinds; `columns` overrides them, and a new `StatementCache` forgets them.
 *
 * `fromKysely(builder, { db })` uses the cache of `db` (one per Kysely instance, shared by its
 * `withPlugin`/`withSchema` copies); pass `statementCache` to choose another.
 *
 * @example
 * const statementCache = new StatementCache();
 * fromKysely(db.selectFrom('articles').selectAll(), { db, statementCache });
 */
export class StatementCache extends CatalogCache {
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
      cache = { key, templates: new Map(), ...shapePlans<CompiledTemplate>(), reordered: new Map() };
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
