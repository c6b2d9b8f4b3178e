import {
  type AdapterName,
  type ColumnInfo,
  type ColumnKind,
  capabilitiesFromProbe,
  DIALECT_PROBE,
  type DialectCapabilities,
  type DialectName,
  dialectCapabilities,
  type Row,
  Slot,
  type SqlFragment,
  type SqlSession,
} from '@pagewise/sql';
import { type CompiledQuery, createQueryId, type OperationNode, type RawNode } from 'kysely';
import { lower } from './lower.js';
import { type AnyBuilder, type AnyKysely, KYSELY, type KyselyQueryOptions } from './options.js';
import { asSelect, SlotFiller, swapPlugin } from './query-nodes.js';
import type { CompiledTemplate, StatementCache } from './statement-cache.js';

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
  readonly columns: Readonly<Record<string, ColumnKind | ColumnInfo>>;
  readonly cache: StatementCache;
  /** The options that change plans, as part of their cache key. */
  readonly planKey: string;
  readonly #dialect: DialectName | DialectCapabilities | undefined;
  #capabilities: DialectCapabilities | undefined;

  /** `cache`: the statement cache of `options` (`StatementCache.recognised` chose it). */
  constructor(builder: AnyBuilder, options: KyselyQueryOptions, cache: StatementCache) {
    this.builder = builder;
    this.db = options.db;
    this.uniqueKey = options.uniqueKey === undefined ? 'id' : options.uniqueKey;
    this.columns = options.columns ?? {};
    this.#dialect = options.dialect;
    this.cache = cache;
    if (options.columns === undefined && options.dialect === undefined) {
      // The common options: one text per unique key, kept by the cache rather than written per query.
      const keys = this.cache.defaultPlanKeys;
      let planKey = keys.get(this.uniqueKey);
      if (planKey === undefined) {
        planKey = JSON.stringify([this.uniqueKey, this.columns, '']);
        keys.set(this.uniqueKey, planKey);
      }
      this.planKey = planKey;
    } else {
      const dialect = typeof options.dialect === 'object' ? options.dialect.name : (options.dialect ?? '');
      this.planKey = JSON.stringify([this.uniqueKey, this.columns, dialect]);
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

  /** Whether the cache lives as long as `db` (without one, as long as the query). */
  get lasting(): boolean {
    return this.db !== undefined;
  }

  /** Runs a statement of `@pagewise/sql`'s own (a catalog read, a probe), as a derived table. */
  read(statement: SqlFragment): Promise<Row[]> {
    return this.run(this.compile(asSelect(lower(statement) as RawNode)), []);
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
}
