import {
  type AdapterName,
  boundedStatement,
  type ColumnInfo,
  type ColumnKind,
  capabilitiesFromProbe,
  countKey,
  DeferredKeyCheck,
  DIALECT_PROBE,
  type DialectCapabilities,
  type DialectName,
  dialectCapabilities,
  PrivateColumnStripper,
  type Row,
  Slot,
  type SqlFragment,
  type SqlSession,
  type StatementTimeout,
  uniqueKeyColumns,
} from '@pagewise/sql';
import {
  type CompiledQuery,
  createQueryId,
  type OperationNode,
  RawNode,
  ReferenceNode,
  SelectQueryNode,
  sql,
} from 'kysely';
import { countNode } from './count-statement.js';
import { lower } from './lower.js';
import { type AnyBuilder, type AnyKysely, KYSELY, type KyselyQueryOptions } from './options.js';
import { asSelect, SlotFiller, swapPlugin } from './query-nodes.js';
import type { CompiledTemplate, StatementCache } from './statement-cache.js';

/** What `countQuery` counts: see `SharedState.countSource`. */
export interface CountSource {
  readonly core: SelectQueryNode;
  readonly templates: Map<string, CompiledTemplate>;
  readonly key: string;
}

/**
 * What every copy made by `orderBy` shares: the options, the executor side (compiling and running
 * statements, with `db` or through the builder) and the statement cache: `@pagewise/sql`'s
 * session of the query's database.
 */
export class SharedState implements SqlSession {
  readonly adapter: AdapterName = KYSELY;
  readonly builder: AnyBuilder;
  readonly db: AnyKysely | undefined;
  readonly uniqueKey: string | null;
  readonly uniqueKeys: readonly string[] | undefined;
  /** Whether offset windows read the page's keys first (`KyselyQueryOptions.deferredJoin`). */
  readonly deferredJoin: boolean;
  readonly columns: Readonly<Record<string, ColumnKind | ColumnInfo>>;
  readonly cache: StatementCache;
  /** The options that change plans, as part of their cache key. */
  readonly planKey: string;
  /**
   * Whether the builder's plugins rewrite its tree (`CamelCasePlugin` renames every identifier):
   * fields are then named as the rows name them (`createdAt`) and the tree otherwise (`created_at`).
   */
  readonly renamed: boolean;
  /** Strips the derived table's key columns from deferred-join rows, which a `select *` reads too. */
  readonly stripper = new PrivateColumnStripper();
  /** The check of the key's uniqueness deferred joins make at the first page. */
  readonly deferredKey = new DeferredKeyCheck();
  readonly #dialect: DialectName | DialectCapabilities | undefined;

  readonly #countQuery: AnyBuilder | undefined;
  #countSource: CountSource | undefined;
  #capabilities: DialectCapabilities | undefined;
  /** `treeField`'s answers, where no statement cache keeps them (a query without `db`). */
  #treeFields: Map<string, string> | undefined;

  /**
   * `cache`: the statement cache of `options` (`StatementCache.recognised` chose it); `renamed`:
   * whether the builder's plugins rewrote its tree.
   */
  constructor(builder: AnyBuilder, options: KyselyQueryOptions, cache: StatementCache, renamed = false) {
    this.builder = builder;
    this.renamed = renamed;
    this.db = options.db;
    const key = uniqueKeyColumns(KYSELY, options.uniqueKey === undefined ? 'id' : options.uniqueKey);
    this.uniqueKey = key.uniqueKey;
    this.uniqueKeys = key.uniqueKeys;
    // A one-column key keys plans by its name, as it always has; a composite one by its list.
    const planned = key.uniqueKeys === undefined ? key.uniqueKey : key.uniqueKeys;
    this.deferredJoin = options.deferredJoin === true;
    this.columns = options.columns ?? {};
    this.#dialect = options.dialect;
    this.#countQuery = options.countQuery;
    this.cache = cache;
    if (options.columns === undefined && options.dialect === undefined) {
      // The common options: one text per unique key, kept by the cache rather than written per query.
      const keys = this.cache.defaultPlanKeys;
      const named = typeof planned === 'object' && planned !== null ? JSON.stringify(planned) : planned;
      let planKey = keys.get(named);
      if (planKey === undefined) {
        planKey = JSON.stringify([planned, this.columns, '']);
        keys.set(named, planKey);
      }
      this.planKey = planKey;
    } else {
      const dialect = typeof options.dialect === 'object' ? options.dialect.name : (options.dialect ?? '');
      this.planKey = JSON.stringify([planned, this.columns, dialect]);
    }
  }

  get capabilities(): DialectCapabilities {
    if (this.#capabilities === undefined) {
      const named = this.#dialect;
      if (typeof named === 'object') this.#capabilities = named;
      else if (named !== undefined) this.#capabilities = dialectCapabilities[named];
      else {
        // The probe is built only the first time: every later query of this database reads the cache.
        this.cache.capabilities ??= capabilitiesFromProbe(
          this.compile(asSelect(lower(DIALECT_PROBE) as RawNode)).sql,
        );
        this.#capabilities = this.cache.capabilities;
      }
    }
    return this.#capabilities;
  }

  /**
   * What `countQuery` counts (its statement without ORDER BY, LIMIT and OFFSET, values in place),
   * its compiled statements and the key a count cache keeps its count under; `null` without one.
   */
  get countSource(): CountSource | null {
    if (this.#countQuery === undefined) return null;
    if (this.#countSource === undefined) {
      const node = this.#countQuery.toOperationNode() as SelectQueryNode;
      const core = SelectQueryNode.cloneWithoutOffset(
        SelectQueryNode.cloneWithoutLimit(SelectQueryNode.cloneWithoutOrderBy(node)),
      );
      const templates = new Map<string, CompiledTemplate>();
      const counted = this.template(templates, 'count', () => countNode(core));
      this.#countSource = {
        core,
        templates,
        key: countKey(this.planKey, `countQuery\u0000${counted.sql}`, counted.parameters),
      };
    }
    return this.#countSource;
  }

  /** Whether the cache lives as long as `db` (without one, as long as the query). */
  get lasting(): boolean {
    return this.db !== undefined;
  }

  /** Runs a statement of `@pagewise/sql`'s own (a catalog read, a probe), as a derived table. */
  read(statement: SqlFragment): Promise<Row[]> {
    return this.run(this.compile(asSelect(lower(statement) as RawNode)), [], [], true);
  }

  /**
   * Runs one of the adapter's own reads (raw, as `run` with `raw`) with its time bounded on the
   * server by `timeout`: after `timeout.setting` in a transaction of its own, or behind
   * `timeout.prefix` or with `timeout.hint` (`boundedStatement`). Throws what the driver throws when the server cancels it (`timeout.timedOut`).
   * Needs `db`; without it the statement runs unbounded.
   */
  async runBounded(
    template: CompiledTemplate,
    base: readonly unknown[],
    timeout: StatementTimeout,
    ms: number,
  ): Promise<Row[]> {
    const db = this.db;
    if (db === undefined) return this.run(template, [], base, true);
    const parameters = template.parameters.map((p) =>
      p instanceof Slot ? (p.base ? base[p.index] : undefined) : p,
    );
    const compiled: CompiledQuery<Row> = {
      query: template.query,
      queryId: createQueryId(),
      sql: boundedStatement(timeout, ms, template.sql),
      parameters,
    };
    if (timeout.setting === undefined) {
      return (await db.getExecutor().withoutPlugins().executeQuery(compiled)).rows;
    }
    const setting = this.compile(asSelect(lower(timeout.setting(ms)) as RawNode));
    return db.transaction().execute(async (trx) => {
      const executor = trx.getExecutor().withoutPlugins();
      await executor.executeQuery({ ...setting, queryId: createQueryId() } as CompiledQuery);
      return (await executor.executeQuery(compiled)).rows;
    });
  }

  /** A catalog column as a field names it (`rowField`), for messages. */
  spell(column: string): string {
    return this.rowField(column);
  }

  /**
   * `field` as the query's tree names it: as written (`'created_at'`, `'articles.id'`), or renamed
   * by the builder's plugins as they rename the builder's own references (`CamelCasePlugin`:
   * `'createdAt'` is `'created_at'`, `'blogPosts.createdAt'` is `'blog_posts.created_at'`).
   *
   * @example
   * new SharedState(db.withPlugin(new CamelCasePlugin()).selectFrom('posts').selectAll(), {}, cache, true)
   *   .treeField('createdAt') // 'created_at'
   */
  treeField(field: string): string {
    if (!this.renamed) return field;
    const known = this.#fieldNames();
    let name = known.get(field);
    if (name === undefined) {
      name = renamedField(this.builder, field);
      // Fields come from code (orderings, lookup fields); the cap only guards against generated ones.
      if (known.size >= MAX_TREE_FIELDS) known.clear();
      known.set(field, name);
    }
    return name;
  }

  /**
   * How a field would name `column` (a name of the tree), for messages: itself, or under a renaming
   * plugin its camelCase when the plugin renames that back to `column` (`created_at` is
   * `createdAt`; the plugin's own casing may differ, as `authorID`, and pages alike).
   */
  rowField(column: string): string {
    if (!this.renamed) return column;
    const lower = /[a-z]/.test(column) ? column : column.toLowerCase();
    const camel = lower.replace(/_+([^_])/g, (_, next: string) => next.toUpperCase());
    return this.treeField(camel) === column ? camel : column;
  }

  /** Where `treeField` keeps its answers: per set of plugins of `db` (they rename alike), else per query. */
  #fieldNames(): Map<string, string> {
    if (this.db) return this.cache.treeFields(this.db.getExecutor().plugins);
    this.#treeFields ??= new Map();
    return this.#treeFields;
  }

  compile(node: OperationNode): CompiledTemplate {
    if (this.db) return this.db.getExecutor().compileQuery(node as CompiledQuery['query'], createQueryId());
    return this.builder.withPlugin(swapPlugin(node)).compile() as CompiledTemplate;
  }

  /** Compiles `build()` once per `key` in `templates` (a shape's or a plan's), then only swaps parameters. */
  template(
    templates: Map<string, CompiledTemplate>,
    key: string,
    build: () => OperationNode,
  ): CompiledTemplate {
    let template = templates.get(key);
    if (template === undefined) {
      template = this.compile(build());
      templates.set(key, template);
    }
    return template;
  }

  /**
   * Runs a statement. Its rows come through the plugins' `transformResult` as the builder's own
   * rows do (`CamelCasePlugin` renames their columns), except with `raw` and `db`: the adapter's
   * own reads (catalogs, estimates) are then read as the database answers them. Counts are not
   * raw: a plugin of `db` (a row counter, a tracer) sees them as the app's statements.
   */
  async run(
    template: CompiledTemplate,
    values: readonly unknown[],
    base: readonly unknown[] = [],
    raw = false,
  ): Promise<Row[]> {
    if (this.db) {
      const parameters = template.parameters.map((p) =>
        p instanceof Slot ? (p.base ? base[p.index] : values[p.index]) : p,
      );
      const compiled: CompiledQuery<Row> = {
        query: template.query,
        queryId: createQueryId(),
        sql: template.sql,
        parameters,
      };
      const executor = this.db.getExecutor();
      const result =
        raw && executor.plugins.length > 0
          ? await executor.withoutPlugins().executeQuery(compiled)
          : await this.db.executeQuery(compiled);
      return result.rows;
    }
    // A builder keeps its plugins: the adapter's own reads name their columns so that a renaming
    // plugin keeps them (`count`, `name`), but for MySQL's index list (`readIndexes`).
    const node = new SlotFiller(values, base).transformNode(template.query);
    return (await this.builder.withPlugin(swapPlugin(node)).execute()) as Row[];
  }
}

/** How many renamed fields `treeField` keeps per set of plugins. */
const MAX_TREE_FIELDS = 256;

/**
 * `field` renamed by `builder`'s plugins: the last ORDER BY item of the builder ordered by it once
 * more, read back from the tree the plugins wrote. As many parts as `field` has (a schema the
 * plugins add to a table stays out).
 */
function renamedField(builder: AnyBuilder, field: string): string {
  const tree = builder.orderBy(sql.ref(field)).toOperationNode() as SelectQueryNode;
  const item = tree.orderBy?.items.at(-1)?.orderBy;
  const ref = item && RawNode.is(item) ? item.parameters[0] : item;
  if (ref === undefined || !ReferenceNode.is(ref) || ref.column.kind !== 'ColumnNode') return field;
  const table = ref.table?.table;
  const parts = [table?.schema?.name, table?.identifier.name, ref.column.column.name].filter(
    (part): part is string => part !== undefined,
  );
  return parts.slice(-field.split('.').length).join('.');
}
