import {
  AliasNode,
  type OperationNode,
  type RawNode,
  ReferenceNode,
  type SelectQueryNode,
  sql,
  TableNode,
} from 'kysely';
import type { ColumnInfo } from './column-info.js';
import { checkColumnLookup } from './config-checks.js';
import { type CatalogRow, catalogNullable, type IndexColumnRow } from './dialect-capabilities.js';
import { asSelect, columnName, identifierName } from './query-nodes.js';
import type { SharedState } from './shared-state.js';

// What the adapter reads from the database about itself, once per database (in the statement
// cache): the column types and nullability of the tables a query reads, their primary keys and
// unique indexes, and whether the driver returns integers past 2^53 exactly.

/** A table the query reads from, as named in its FROM or JOIN. */
export interface SourceTable {
  readonly name: string;
  readonly schema: string | undefined;
  readonly alias: string;
}

/** The tables a query reads from and whether they are all (no derived table, no CTE). */
export interface QueryTables {
  readonly tables: readonly SourceTable[];
  readonly complete: boolean;
}

/** A FROM or JOIN item as a `SourceTable`, `undefined` for a derived table or an expression. */
export function sourceTable(node: OperationNode): SourceTable | undefined {
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

/** The FROM items and JOIN tables of `node`, in order. */
function sourcesOf(node: SelectQueryNode): OperationNode[] {
  const sources: OperationNode[] = [...(node.from?.froms ?? [])];
  for (const join of node.joins ?? []) sources.push(join.table);
  return sources;
}

/** The tables `node` reads from; `complete` when every source is one (no derived table, no CTE). */
export function queryTables(node: SelectQueryNode): QueryTables {
  const sources = sourcesOf(node);
  const tables: SourceTable[] = [];
  for (const source of sources) {
    const table = sourceTable(source);
    if (table !== undefined) tables.push(table);
  }
  return { tables, complete: tables.length === sources.length && node.with === undefined };
}

/** The name of the first table `node` reads from, as `queryTables` would list it. */
export function firstTableName(node: SelectQueryNode): string | undefined {
  for (const source of sourcesOf(node)) {
    if (TableNode.is(source)) return source.table.identifier.name;
    if (AliasNode.is(source) && TableNode.is(source.node)) return source.node.table.identifier.name;
  }
  return undefined;
}

/** The key of `table` in the catalogs: `schema.table`. */
export function catalogKey(table: SourceTable): string {
  return `${table.schema ?? ''}.${table.name}`;
}

/** The columns of `table` by name, read once per database (per statement cache). */
export function readCatalog(
  shared: SharedState,
  table: SourceTable,
): Promise<ReadonlyMap<string, CatalogRow>> {
  const query = shared.capabilities.catalogQuery;
  if (query === null) return Promise.resolve(new Map());
  const perDb = shared.cache.catalogs;
  const key = catalogKey(table);
  let pending = perDb.get(key);
  if (!pending) {
    const node = asSelect(query(table.name, table.schema).toOperationNode());
    pending = shared
      .run(shared.compile(node), [], [], true)
      .then((rows) => new Map(rows.map((r) => [String(r.name), r as unknown as CatalogRow])));
    pending.catch(() => perDb.delete(key));
    perDb.set(key, pending);
  }
  return pending;
}

/**
 * Whether every table `source` reads is an ordinary table as the catalog says (Postgres
 * `relkind` `r`): no derived table or CTE, no partitioned or foreign table, no view. `false`
 * where the catalog does not say.
 */
export async function plainTables(shared: SharedState, source: QueryTables): Promise<boolean> {
  if (!source.complete || source.tables.length === 0) return false;
  const catalogs = await Promise.all(source.tables.map((table) => readCatalog(shared, table)));
  return catalogs.every((rows) => rows.size > 0 && [...rows.values()].every((row) => row.relkind === 'r'));
}

/** A primary key or unique index of a table: its name and key columns. */
export interface UniqueIndex {
  readonly name: string;
  readonly columns: readonly string[];
  /** Whether it is the primary key. */
  readonly primary: boolean;
  /**
   * Set when its NULLs are not distinct (Postgres 15's `UNIQUE NULLS NOT DISTINCT`): it holds one
   * row per key even where a key column is NULL.
   */
  readonly nullsNotDistinct?: true;
}

/**
 * The primary key and unique indexes of a table, from its catalog rows (`CatalogRow.uniques`),
 * without those that hold an expression. `undefined` where the catalog cannot say (a view, a
 * foreign table, a catalog query that does not list them).
 *
 * @example
 * uniqueIndexes(await readCatalog(shared, table))
 * // [{ name: 'items_pkey', columns: ['id'], primary: true },
 * //  { name: 'items_category_seq', columns: ['category', 'seq'], primary: false }]
 * // (`nullsNotDistinct: true` on an index created `UNIQUE NULLS NOT DISTINCT`)
 */
export function uniqueIndexes(columns: ReadonlyMap<string, CatalogRow>): readonly UniqueIndex[] | undefined {
  const listed = columns.values().next().value?.uniques;
  if (listed === undefined || listed === null) return undefined;
  // Postgres and SQLite answer JSON text; mysql2 parses MySQL's JSON type itself.
  const pairs: unknown = typeof listed === 'string' ? JSON.parse(listed) : listed;
  if (!Array.isArray(pairs)) return undefined;
  const byName = new Map<string, { parts: Array<string | null>; primary: boolean; notDistinct: boolean }>();
  for (const part of pairs) {
    if (!Array.isArray(part) || typeof part[0] !== 'string') continue;
    const index = byName.get(part[0]) ?? { parts: [], primary: false, notDistinct: false };
    index.parts.push(typeof part[1] === 'string' ? part[1] : null);
    // MySQL answers the comparison as 1 or 0.
    index.primary ||= part[2] === true || part[2] === 1;
    // Postgres alone says it (from 15 on; false before).
    index.notDistinct ||= part[3] === true;
    byName.set(part[0], index);
  }
  const indexes: UniqueIndex[] = [];
  for (const [name, { parts, primary, notDistinct }] of byName) {
    if (!parts.every((part) => part !== null)) continue;
    const columns = [...new Set(parts)];
    indexes.push(
      notDistinct ? { name, columns, primary, nullsNotDistinct: true } : { name, columns, primary },
    );
  }
  return indexes;
}

/**
 * The index whose leading columns are `fixed` (columns a WHERE fixes by equality, in any order)
 * then `columns`, each of those sorted as `descending` says or each the other way (the engine
 * reads an index backwards), preferring the first: the index a keyset statement over those
 * columns ranges on. Indexes the server ignores (MariaDB `IGNORED`, MySQL invisible), prefix
 * parts and unsorted ones never serve. `undefined` when none is there.
 *
 * @example
 * orderingIndex(rows, ['score', 'id'], [true, true]) // 'items_score_id_desc'
 * orderingIndex(rows, ['score', 'id'], [true, true], ['tenant']) // 'items_tenant_score_id'
 */
export function orderingIndex(
  rows: readonly IndexColumnRow[],
  columns: readonly string[],
  descending: readonly boolean[],
  fixed: readonly string[] = [],
): string | undefined {
  const lower = (column: string | null) => column?.toLowerCase();
  const leading = new Set(fixed.map(lower));
  const byIndex = new Map<string, IndexColumnRow[]>();
  for (const row of rows) {
    const list = byIndex.get(row.INDEX_NAME) ?? [];
    list.push(row);
    byIndex.set(row.INDEX_NAME, list);
  }
  let reversed: string | undefined;
  for (const [name, list] of byIndex) {
    if (list.some((r) => r.IGNORED === 'YES' || r.IS_VISIBLE === 'NO')) continue;
    const parts = list.sort((a, b) => Number(a.SEQ_IN_INDEX) - Number(b.SEQ_IN_INDEX));
    const skip = leading.size;
    if (parts.length < skip + columns.length) continue;
    const head = parts.slice(0, skip);
    const first = new Set(head.map((part) => lower(part.COLUMN_NAME)));
    if (first.size !== skip || [...leading].some((column) => !first.has(column))) continue;
    if (head.some((part) => part.SUB_PART !== null)) continue;
    let same = true;
    let opposite = true;
    for (let k = 0; k < columns.length && (same || opposite); k += 1) {
      const part = parts[skip + k]!;
      const served =
        Number(part.SEQ_IN_INDEX) === skip + k + 1 &&
        lower(part.COLUMN_NAME) === lower(columns[k]!) &&
        part.SUB_PART === null &&
        (part.COLLATION === 'A' || part.COLLATION === 'D');
      const down = part.COLLATION === 'D';
      same &&= served && down === descending[k];
      opposite &&= served && down !== descending[k];
    }
    if (same) return name;
    if (opposite) reversed ??= name;
  }
  return reversed;
}

/**
 * The index columns of `table` (`indexQuery`), read once per database (per statement cache).
 * A failed read answers none, so the page goes on without a hint, and is tried again next time.
 */
export function readIndexes(shared: SharedState, table: SourceTable): Promise<readonly IndexColumnRow[]> {
  const query = shared.capabilities.indexQuery;
  if (query === null) return Promise.resolve([]);
  const perDb = shared.cache.indexes;
  const key = catalogKey(table);
  let pending = perDb.get(key);
  if (!pending) {
    const node = asSelect(query(table.name, table.schema).toOperationNode());
    pending = shared.run(shared.compile(node), [], [], true).then(
      // Renamed by a plugin (no `db` to read past it): no index is named then.
      (rows) => (rows.every((row) => 'INDEX_NAME' in row) ? (rows as unknown as IndexColumnRow[]) : []),
      () => {
        perDb.delete(key);
        return [];
      },
    );
    perDb.set(key, pending);
  }
  return pending;
}

/** Drops the cached columns of `table`, so the next `readCatalog` reads them again. */
export function forgetCatalog(shared: SharedState, table: SourceTable): void {
  shared.cache.catalogs.delete(catalogKey(table));
}

/**
 * Whether integers past 2^53 come back exact. Only asked where the dialect can read them
 * exactly otherwise (better-sqlite3 rounds them unless `defaultSafeIntegers(true)`, mysql2
 * unless `supportBigNumbers`).
 */
export function integersExact(shared: SharedState): Promise<boolean> {
  if (shared.capabilities.exactIntegerText === null) return Promise.resolve(true);
  const cache = shared.cache;
  let pending = cache.integersExact;
  if (pending === undefined) {
    const probe = sql`select 9007199254740993 as ${sql.ref('v')}`.toOperationNode() as RawNode;
    // better-sqlite3's safe integers answer bigints, mysql2's `supportBigNumbers` exact text.
    pending = shared.run(shared.compile(asSelect(probe)), [], [], true).then((rows) => {
      const v = rows[0]?.v;
      return typeof v === 'bigint' || v === '9007199254740993';
    });
    pending.catch(() => {
      cache.integersExact = undefined;
    });
    cache.integersExact = pending;
  }
  return pending;
}

/**
 * Whether the driver records the exact text of the values `recordedText` reads (`nameStatements`
 * over `pg`), probed once per database. Only with `db`: without one, the cache lives as long as
 * the query, and a probe per query would cost more than the column it saves.
 */
export function textRecorded(shared: SharedState): Promise<boolean> {
  const recorded = shared.capabilities.recordedText;
  if (recorded === null || shared.db === undefined) return Promise.resolve(false);
  const cache = shared.cache;
  let pending = cache.textRecorded;
  if (pending === undefined) {
    const probe = recorded.probe().toOperationNode() as RawNode;
    pending = shared
      .run(shared.compile(asSelect(probe)), [], [], true)
      .then((rows) => rows[0] !== undefined && recorded.answered(rows[0]));
    pending.catch(() => {
      cache.textRecorded = undefined;
    });
    cache.textRecorded = pending;
  }
  return pending;
}

/**
 * The kind and nullability of `field` (whose expression is `expr`), from `columns` or the
 * catalogs of the query's tables. A field that is ambiguous or names no column is a
 * `ConfigurationError` (`tiebreaker` says whether it is the `uniqueKey` appended by cursor
 * pagination, for the message).
 */
export async function columnInfo(
  shared: SharedState,
  source: QueryTables,
  field: string,
  expr: OperationNode,
  unique: boolean,
  tiebreaker: boolean,
): Promise<ColumnInfo> {
  const declared = shared.columns[field];
  if (declared !== undefined) {
    const info = typeof declared === 'string' ? { kind: declared, nullable: true } : declared;
    return unique ? { ...info, nullable: false } : info;
  }
  const column = columnName(expr);
  const qualifier = ReferenceNode.is(expr) ? expr.table?.table.identifier.name : undefined;
  const candidates = source.tables.filter(
    (t) => qualifier === undefined || t.alias === qualifier || t.name === qualifier,
  );
  if (column !== undefined) {
    const catalog = (table: SourceTable, fresh: boolean) => {
      if (fresh) forgetCatalog(shared, table);
      return readCatalog(shared, table);
    };
    await checkColumnLookup({
      field,
      column,
      qualifier,
      tiebreaker,
      tables: candidates,
      complete: source.complete,
      catalog,
      spell: (name) => shared.rowField(name),
    });
    for (const table of candidates) {
      const rows = await readCatalog(shared, table);
      const row = rows.get(column);
      if (row !== undefined) {
        const type = String(row.type).toLowerCase();
        const labels = typeof row.labels === 'string' ? (JSON.parse(row.labels) as string[]) : undefined;
        const kind = labels ? 'enum' : shared.capabilities.columnKind(type);
        // The unique key is taken to hold no NULL, except where a unique index whose NULLs are not
        // distinct covers it (Postgres 15+): one row may hold NULL there, and pages must reach it.
        const nullable =
          catalogNullable(row) &&
          (!unique ||
            (uniqueIndexes(rows)?.some(
              (index) => index.nullsNotDistinct === true && index.columns.includes(column),
            ) ??
              false));
        return labels ? { kind, nullable, type, labels } : { kind, nullable, type };
      }
    }
  }
  return { kind: 'unknown', nullable: !unique };
}
