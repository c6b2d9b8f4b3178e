import { type CatalogRow, catalogNullable, type IndexColumnRow } from '../dialect/catalog-rows.js';
import type { ColumnInfo } from '../dialect/column-info.js';
import type { Row } from '../dialect/row.js';
import { identifier, type SqlFragment, sql } from '../fragment/fragment.js';
import { checkColumnLookup } from './column-lookup.js';
import type { SqlSession } from './session.js';
import { catalogKey, type QueryTables, type SourceTable } from './source-tables.js';
import { uniqueIndexes } from './unique-indexes.js';

// What the adapter reads from the database about itself, once per database (in the session's
// cache): the column types and nullability of the tables a query reads, their primary keys and
// unique indexes, and whether the driver returns integers past 2^53 exactly or records text.

/**
 * The columns of `table` by name (`catalogQuery`), read once per database (per cache).
 * @example
 * (await readCatalog(session, { name: 'items', schema: undefined, alias: 'items' })).get('id')
 * // { name: 'id', type: 'integer', nullable: false, relkind: 'r', uniques: '[...]' }
 */
export function readCatalog(
  session: SqlSession,
  table: SourceTable,
): Promise<ReadonlyMap<string, CatalogRow>> {
  const query = session.capabilities.catalogQuery;
  if (query === null) return Promise.resolve(new Map());
  const perDb = session.cache.catalogs;
  const key = catalogKey(table);
  let pending = perDb.get(key);
  if (!pending) {
    pending = session
      .read(query(table.name, table.schema))
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
export async function plainTables(session: SqlSession, source: QueryTables): Promise<boolean> {
  if (!source.complete || source.tables.length === 0) return false;
  const catalogs = await Promise.all(source.tables.map((table) => readCatalog(session, table)));
  return catalogs.every((rows) => rows.size > 0 && [...rows.values()].every((row) => row.relkind === 'r'));
}

/**
 * The index columns of `table` (`indexQuery`), read once per database (per cache). A failed read
 * answers none, so the page goes on without a hint, and is tried again next time.
 */
export function readIndexes(session: SqlSession, table: SourceTable): Promise<readonly IndexColumnRow[]> {
  const query = session.capabilities.indexQuery;
  if (query === null) return Promise.resolve([]);
  const perDb = session.cache.indexes;
  const key = catalogKey(table);
  let pending = perDb.get(key);
  if (!pending) {
    pending = session.read(query(table.name, table.schema)).then(
      // Columns renamed on the way (a renaming plugin the adapter cannot read past): no index is named then.
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
export function forgetCatalog(session: SqlSession, table: SourceTable): void {
  session.cache.catalogs.delete(catalogKey(table));
}

/**
 * Whether integers past 2^53 come back exact. Only asked where the dialect can read them
 * exactly otherwise (better-sqlite3 rounds them unless `defaultSafeIntegers(true)`, mysql2
 * unless `supportBigNumbers`).
 */
export function integersExact(session: SqlSession): Promise<boolean> {
  if (session.capabilities.exactIntegerText === null) return Promise.resolve(true);
  const cache = session.cache;
  let pending = cache.integersExact;
  if (pending === undefined) {
    // better-sqlite3's safe integers answer bigints, mysql2's `supportBigNumbers` exact text.
    pending = session.read(sql`select 9007199254740993 as ${identifier('v')}`).then((rows) => {
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
 * over `pg`), probed once per database. Only with a lasting cache: without one, the cache lives as
 * long as the query, and a probe per query would cost more than the column it saves.
 */
export function textRecorded(session: SqlSession): Promise<boolean> {
  const recorded = session.capabilities.recordedText;
  if (recorded === null || !session.lasting) return Promise.resolve(false);
  return probedOnce(session, 'textRecorded', recorded.probe(), (row) => recorded.answered(row), false);
}

/**
 * Whether the database's text of the values `castText` reads is exact (Postgres: `DateStyle`
 * ISO), probed once per database, with a lasting cache only (as `textRecorded`).
 */
export function textCast(session: SqlSession): Promise<boolean> {
  const cast = session.capabilities.castText;
  if (cast === null || !session.lasting) return Promise.resolve(false);
  return probedOnce(session, 'textCast', cast.probe(), (row) => cast.answered(row), false);
}

/**
 * The types (`TextInPlace.probedType`) whose values the driver answers as `castText.inPlace`
 * parses their text, so their text can be selected in place of the query's own column; probed
 * once per database, with a lasting cache only (as `textRecorded`).
 */
export function textInPlace(session: SqlSession): Promise<readonly string[]> {
  const inPlace = session.capabilities.castText?.inPlace;
  if (inPlace === undefined || !session.lasting) return Promise.resolve([]);
  return probedOnce(session, 'textInPlace', inPlace.probe(), (row) => inPlace.answered(row), []);
}

/** What each driver probe answers, by its slot in the `CatalogCache`. */
interface ProbeAnswers {
  textRecorded: boolean;
  textCast: boolean;
  textInPlace: readonly string[];
}

/**
 * The answer `answered` gives of `probe`'s row (`none` without a row), kept in `cache[slot]`;
 * forgotten when the probe fails.
 */
function probedOnce<S extends keyof ProbeAnswers>(
  session: SqlSession,
  slot: S,
  probe: SqlFragment,
  answered: (row: Row) => ProbeAnswers[S],
  none: ProbeAnswers[S],
): Promise<ProbeAnswers[S]> {
  const cache = session.cache as unknown as Record<S, Promise<ProbeAnswers[S]> | undefined>;
  let pending = cache[slot];
  if (pending === undefined) {
    pending = session.read(probe).then((rows) => (rows[0] === undefined ? none : answered(rows[0])));
    pending.catch(() => {
      cache[slot] = undefined;
    });
    cache[slot] = pending;
  }
  return pending;
}

/**
 * A field of the query as its ORM describes it: the column it names (`undefined` for an
 * expression) and the table it qualifies it with (`articles` in `articles.id`), if any.
 */
export interface FieldColumn {
  readonly column: string | undefined;
  readonly qualifier: string | undefined;
}

/**
 * The kind and nullability of `field`, from `columns` or the catalogs of the query's tables. A
 * field that is ambiguous or names no column is a `ConfigurationError` (`tiebreaker` says whether
 * it is the `uniqueKey` appended by cursor pagination, for the message).
 *
 * @example
 * await columnInfo(session, tables, 'created', { column: 'created', qualifier: undefined }, false, false)
 * // { kind: 'timestamp-text', nullable: false, type: 'timestamp with time zone' }
 */
export async function columnInfo(
  session: SqlSession,
  source: QueryTables,
  field: string,
  named: FieldColumn,
  unique: boolean,
  tiebreaker: boolean,
): Promise<ColumnInfo> {
  const declared = session.columns[field];
  if (declared !== undefined) {
    const info = typeof declared === 'string' ? { kind: declared, nullable: true } : declared;
    return unique ? { ...info, nullable: false } : info;
  }
  const { column, qualifier } = named;
  const candidates = source.tables.filter(
    (t) => qualifier === undefined || t.alias === qualifier || t.name === qualifier,
  );
  if (column !== undefined) {
    const catalog = (table: SourceTable, fresh: boolean) => {
      if (fresh) forgetCatalog(session, table);
      return readCatalog(session, table);
    };
    await checkColumnLookup({
      adapter: session.adapter,
      field,
      column,
      qualifier,
      tiebreaker,
      tables: candidates,
      complete: source.complete,
      catalog,
      ...(session.spell === undefined ? {} : { spell: (name: string) => session.spell!(name) }),
    });
    for (const table of candidates) {
      const rows = await readCatalog(session, table);
      const row = rows.get(column);
      if (row !== undefined) {
        const type = String(row.type).toLowerCase();
        const labels = typeof row.labels === 'string' ? (JSON.parse(row.labels) as string[]) : undefined;
        const kind = labels ? 'enum' : session.capabilities.columnKind(type);
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
