import { ConfigurationError, closestName } from '@pagewise/core';
import { type CatalogRow, catalogNullable } from './dialect-capabilities.js';
import { rowKeyOf } from './query-nodes.js';

const ADAPTER = 'kysely adapter';

/**
 * Columns every table has that catalogs do not list (SQLite's rowid, Postgres's system columns):
 * naming one is never reported as a missing column.
 */
const IMPLICIT_COLUMNS: ReadonlySet<string> = new Set([
  'rowid',
  'oid',
  '_rowid_',
  'ctid',
  'xmin',
  'xmax',
  'cmin',
  'cmax',
  'tableoid',
]);

/** What the adapter knows when it looks a field up in the catalogs of the query's tables. */
export interface ColumnLookup<Table extends { readonly alias: string }> {
  /** The field as configured (`'id'`, `'articles.id'`). */
  readonly field: string;
  /** The column the field reads. */
  readonly column: string;
  /** The table the field names (`articles` in `'articles.id'`), if any. */
  readonly qualifier: string | undefined;
  /** Whether the field is the `uniqueKey` cursor pagination appends (for the message). */
  readonly tiebreaker: boolean;
  /** The query's tables the field may come from (all of them when it names none). */
  readonly tables: readonly Table[];
  /**
   * Whether the query reads only from tables (no derived table, no CTE), so that a column no
   * catalog lists does not exist.
   */
  readonly complete: boolean;
  /**
   * The columns of a table, by name (an empty map when the catalog does not know the table);
   * `fresh` reads them again instead of from the cache (a column added since the last read).
   */
  readonly catalog: (table: Table, fresh: boolean) => Promise<ReadonlyMap<string, CatalogRow>>;
  /**
   * A column as a field names it, for the "did you mean" of a missing one (under CamelCasePlugin
   * `created_at` is `createdAt`). @default the column's own name
   */
  readonly spell?: (column: string) => string;
}

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(' and ');

/**
 * The tables whose catalog has the column, and whether the catalogs settle that none has it
 * (SQLite and MySQL match column names in any case, so a match in another case is not missing).
 */
async function findColumn<Table extends { readonly alias: string }>(
  lookup: ColumnLookup<Table>,
  fresh: boolean,
): Promise<{ hits: string[]; missing: boolean; names: string[] }> {
  const { column, tables } = lookup;
  const lower = column.toLowerCase();
  const hits: string[] = [];
  const names: string[] = [];
  let complete = lookup.complete && !IMPLICIT_COLUMNS.has(lower);
  // Concurrently: without `db`, each query object reads its tables' catalogs afresh.
  const catalogs = await Promise.all(tables.map((table) => lookup.catalog(table, fresh)));
  for (const [i, table] of tables.entries()) {
    const columns = catalogs[i]!;
    complete &&= columns.size > 0;
    names.push(...columns.keys());
    if (columns.has(column)) hits.push(table.alias);
    else if (complete) for (const name of columns.keys()) complete &&= name.toLowerCase() !== lower;
  }
  return { hits, missing: hits.length === 0 && complete, names };
}

/**
 * Throws `ConfigurationError` when a field names a column of two tables without saying which
 * (the database would answer "ambiguous" at request time, or SQLite pick one silently) or a
 * column no table of the query has. Lookups the catalogs cannot settle pass.
 *
 * @example
 * await checkColumnLookup({ field: 'id', column: 'id', qualifier: undefined, tiebreaker: true,
 *   tables, complete: true, catalog })
 * // ConfigurationError: kysely adapter: uniqueKey "id" is ambiguous: "articles" and "authors" both
 * // have a column "id"; pass a qualified key, e.g. fromKysely(query, { uniqueKey: 'articles.id' })
 */
export async function checkColumnLookup<Table extends { readonly alias: string }>(
  lookup: ColumnLookup<Table>,
): Promise<void> {
  const { field, column, qualifier, tiebreaker, tables } = lookup;
  let found = await findColumn(lookup, false);
  // Reported only after a second read: the cached columns may predate a migration.
  if (found.missing) found = await findColumn(lookup, true);
  const { hits, missing, names } = found;
  const role = tiebreaker ? 'uniqueKey' : 'ordering field';
  if (hits.length > 1 && qualifier === undefined) {
    const fix = tiebreaker
      ? `pass a qualified key, e.g. fromKysely(query, { uniqueKey: '${hits[0]}.${column}' })`
      : `qualify it in the ordering, e.g. '${hits[0]}.${column}', or select it under another name`;
    throw new ConfigurationError(
      `${ADAPTER}: ${role} "${field}" is ambiguous: ${quoted(hits)} both have a column "${column}"; ${fix}`,
    );
  }
  if (!missing) return;
  const where =
    tables.length > 0
      ? `a column of ${quoted(tables.map((t) => t.alias))}`
      : `a column of this query (it reads no table "${qualifier}")`;
  const fix = tiebreaker
    ? `pass the name of a column unique per row, e.g. fromKysely(query, { uniqueKey: 'pk_column' }), or uniqueKey: null for position + offset cursors`
    : 'order by a column of the query, or select the expression under that name';
  throw new ConfigurationError(
    `${ADAPTER}: ${role} "${field}" is not ${where}${guess(lookup, names)}; ${fix}`,
  );
}

/**
 * ` (did you mean "created_at"?)` for the column nearest the missing one, written as the field
 * would write it (qualified as it is, in the names a renaming plugin gives); `''` when none is near.
 */
function guess(lookup: Pick<ColumnLookup<never>, 'field' | 'spell'>, names: readonly string[]): string {
  const spell = lookup.spell ?? ((column: string) => column);
  const nearest = closestName(rowKeyOf(lookup.field), new Set(names.map(spell)));
  if (nearest === undefined) return '';
  const qualifier = lookup.field.slice(0, lookup.field.lastIndexOf('.') + 1);
  return ` (did you mean "${qualifier}${nearest}"?)`;
}

/** What the adapter knows when it checks that a cursor's key order is unique per row. */
export interface KeyCoverage {
  /** The `uniqueKey` as configured. */
  readonly uniqueKey: string;
  /** The query's one table, as it names it. */
  readonly table: string;
  /** The columns of the key order (the ordering's and the key's), as the query names them. */
  readonly columns: readonly string[];
  /** Columns the WHERE fixes by equality: every row of the query shares their values. */
  readonly fixed: readonly string[];
  /** The table's columns, by name. */
  readonly catalog: ReadonlyMap<string, CatalogRow>;
  /** The table's primary key and unique indexes (`uniqueIndexes`). */
  readonly indexes: readonly {
    readonly name: string;
    readonly columns: readonly string[];
    readonly primary: boolean;
    /** Its NULLs are not distinct (Postgres 15+): a NULL key is held once, like any other. */
    readonly nullsNotDistinct?: true;
  }[];
}

/**
 * The `ConfigurationError` message for a key order no primary key or unique index covers: none
 * whose columns, all NOT NULL, lie among the order's columns and those the WHERE fixes. Two rows
 * that tie on the whole key order would then be told apart by no cursor, and a walk would skip or
 * repeat them. `undefined` when an index covers it, and when a column is not in the catalog (a
 * system column such as SQLite's `rowid`): what the catalog cannot settle passes.
 *
 * @example
 * uniqueKeyRefusal({ uniqueKey: 'category', table: 'items', columns: ['created', 'category'],
 *   fixed: [], catalog, indexes: [{ name: 'items_pkey', columns: ['id'], primary: true }] })
 * // 'kysely adapter: uniqueKey "category" does not make the cursor order unique: no primary key or
 * // unique index of "items" has all its columns among "created" and "category" (...); name a
 * // column unique per row, e.g. fromKysely(query, { uniqueKey: 'id' }), ...'
 */
export function uniqueKeyRefusal(coverage: KeyCoverage): string | undefined {
  const { uniqueKey, table, catalog, indexes } = coverage;
  // SQLite and MySQL match column names in any case; the catalog spells them as declared.
  const declared = (column: string): string | undefined => {
    if (catalog.has(column)) return column;
    const lower = column.toLowerCase();
    for (const name of catalog.keys()) if (name.toLowerCase() === lower) return name;
    return undefined;
  };
  const ordered: string[] = [];
  for (const column of coverage.columns) {
    const name = declared(column);
    if (name === undefined) return undefined;
    ordered.push(name);
  }
  const among = new Set(ordered);
  for (const column of coverage.fixed) {
    const name = declared(column);
    if (name !== undefined) among.add(name);
  }
  const nullable = (column: string) => {
    const row = catalog.get(column);
    return row === undefined || catalogNullable(row);
  };
  const within = indexes.filter((index) => index.columns.every((column) => among.has(column)));
  // NULLS NOT DISTINCT (Postgres 15+): a NULL key repeats no more than any other.
  if (within.some((index) => index.nullsNotDistinct === true || !index.columns.some(nullable)))
    return undefined;
  const reasons = within.map((index) => {
    const column = index.columns.find(nullable)!;
    return ` (unique index "${index.name}" does not count: "${column}" may be NULL, and NULL is never equal to NULL, so rows holding it repeat)`;
  });
  // The primary key first, then any unique NOT NULL column.
  const singles = indexes.filter((index) => index.columns.length === 1 && !nullable(index.columns[0]!));
  const single = singles.find((index) => index.primary) ?? singles[0];
  const example = single === undefined ? 'pk_column' : single.columns[0]!;
  const fixed = coverage.fixed.length > 0 ? ' and the columns its WHERE fixes' : '';
  return (
    `${ADAPTER}: uniqueKey "${uniqueKey}" does not make the cursor order unique: no primary key or ` +
    `unique index of "${table}" has all its columns among ${quoted([...new Set(ordered)])}${fixed}` +
    `${reasons.join('')}, so rows that tie on them would be skipped or repeated between pages; ` +
    `name a column unique per row, e.g. fromKysely(query, { uniqueKey: '${example}' }), add a unique ` +
    'index over NOT NULL columns of the ordering, or pass uniqueKey: null for position + offset cursors'
  );
}
