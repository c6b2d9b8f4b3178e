import type { AdapterName } from '../adapter-name.js';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import type { CatalogRow, IndexColumnRow } from '../dialect/catalog-rows.js';
import type { ColumnInfo, ColumnKind } from '../dialect/column-info.js';
import type { Row } from '../dialect/row.js';
import type { StatementTimeout } from '../dialect/statement-timeout.js';
import type { SqlFragment } from '../fragment/fragment.js';

/**
 * What is worth keeping between requests per database, whatever the ORM: the recognised dialect,
 * catalog reads (a second round trip per page otherwise), the driver probes, and the indexes a
 * statement named that a migration dropped. A table altered while the process runs keeps its old
 * column kinds until a new cache. Kysely's `StatementCache` is one, with its compiled statements.
 *
 * @example
 * const cache = new CatalogCache();
 * await readCatalog(session, { name: 'items', schema: undefined, alias: 'items' }); // kept in session.cache
 */
export class CatalogCache {
  /** @internal the dialect recognised from a compiled probe */
  capabilities: DialectCapabilities | undefined;
  /** @internal whether the driver returns integers beyond 2^53 exactly (as bigints), probed once */
  integersExact: Promise<boolean> | undefined;
  /** @internal whether the driver records the exact text of values (`recordedText`), probed once */
  textRecorded: Promise<boolean> | undefined;
  /** @internal whether the database's text of values is exact (`castText`), probed once */
  textCast: Promise<boolean> | undefined;
  /** @internal the types whose text can be selected in place of their column (`castText.inPlace`), probed once */
  textInPlace: Promise<readonly string[]> | undefined;
  /** @internal the statement timeout the server's version asks for (`serverStatementTimeout`), read once */
  statementTimeout: Promise<StatementTimeout | null> | undefined;
  /** @internal the plan key of queries without `columns` and `dialect`, per unique key */
  readonly defaultPlanKeys = new Map<string | null, string>();
  /** @internal catalog reads per `schema.table` */
  readonly catalogs = new Map<string, Promise<ReadonlyMap<string, CatalogRow>>>();
  /** @internal index columns per `schema.table` (`indexQuery`) */
  readonly indexes = new Map<string, Promise<readonly IndexColumnRow[]>>();
  /** @internal `schema.table index` of the indexes a statement named and the table no longer had */
  readonly goneIndexes = new Set<string>();
}

/**
 * What ORM-free code needs of the adapter's side of one database: the dialect, the cache, the
 * adapter's options, and a way to run a statement of its own (a catalog read, a probe). One per
 * query factory call; an adapter implements it over its executor (Kysely: `SharedState`).
 *
 * @example
 * const session: SqlSession = { adapter: KYSELY, capabilities, cache, uniqueKey: 'id', columns: {},
 *   planKey, lasting: true, read: (statement) => runThroughMyOrm(statement) };
 */
export interface SqlSession {
  readonly adapter: AdapterName;
  readonly capabilities: DialectCapabilities;
  readonly cache: CatalogCache;
  /** The unique key cursor pagination appends (`null`: position + offset cursors, or a composite key). */
  readonly uniqueKey: string | null;
  /**
   * The columns of a composite unique key, in key order (`uniqueKeyColumns`); absent for a
   * one-column key. @default undefined
   */
  readonly uniqueKeys?: readonly string[] | undefined;
  /** Column kinds declared by the user, by field. */
  readonly columns: Readonly<Record<string, ColumnKind | ColumnInfo>>;
  /** The options that change plans, as part of their cache key. */
  readonly planKey: string;
  /**
   * Whether the cache lives as long as the database handle (a `db` was given), so that probing
   * the driver once per database pays; without it, the cache lives as long as the query.
   */
  readonly lasting: boolean;
  /**
   * Runs a statement of its own (no slots) and answers its rows as the database names their
   * columns (past any renaming the ORM applies to the user's rows, where it can).
   */
  read(statement: SqlFragment): Promise<Row[]>;
  /**
   * How a field names `column` (a column of the catalog), for messages: the ORM's renaming of
   * result columns applied (Kysely's CamelCasePlugin: `created_at` is `createdAt`).
   * @default the column's own name
   */
  spell?(column: string): string;
}
