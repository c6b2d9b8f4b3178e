import { ConfigurationError, closestName } from '@pagewise/core';
import type { AdapterName } from '../adapter-name.js';
import type { CatalogRow } from '../dialect/catalog-rows.js';

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
  /** The adapter the messages name. */
  readonly adapter: AdapterName;
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
   * A column as a field names it, for the "did you mean" of a missing one (under Kysely's
   * CamelCasePlugin `created_at` is `createdAt`). @default the column's own name
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
 * await checkColumnLookup({ adapter: { name: 'kysely', factory: 'fromKysely' }, field: 'id', column: 'id',
 *   qualifier: undefined, tiebreaker: true, tables, complete: true, catalog })
 * // ConfigurationError: kysely adapter: uniqueKey "id" is ambiguous: "articles" and "authors" both
 * // have a column "id"; pass a qualified key, e.g. fromKysely(query, { uniqueKey: 'articles.id' })
 */
export async function checkColumnLookup<Table extends { readonly alias: string }>(
  lookup: ColumnLookup<Table>,
): Promise<void> {
  const { field, column, qualifier, tiebreaker, tables } = lookup;
  const { name, factory } = lookup.adapter;
  let found = await findColumn(lookup, false);
  // Reported only after a second read: the cached columns may predate a migration.
  if (found.missing) found = await findColumn(lookup, true);
  const { hits, missing, names } = found;
  const role = tiebreaker ? 'uniqueKey' : 'ordering field';
  if (hits.length > 1 && qualifier === undefined) {
    const fix = tiebreaker
      ? `pass a qualified key, e.g. ${factory}(query, { uniqueKey: '${hits[0]}.${column}' })`
      : `qualify it in the ordering, e.g. '${hits[0]}.${column}', or select it under another name`;
    throw new ConfigurationError(
      `${name} adapter: ${role} "${field}" is ambiguous: ${quoted(hits)} both have a column "${column}"; ${fix}`,
    );
  }
  if (!missing) return;
  const where =
    tables.length > 0
      ? `a column of ${quoted(tables.map((t) => t.alias))}`
      : `a column of this query (it reads no table "${qualifier}")`;
  const fix = tiebreaker
    ? `pass the name of a column unique per row, e.g. ${factory}(query, { uniqueKey: 'pk_column' }), or uniqueKey: null for position + offset cursors`
    : 'order by a column of the query, or select the expression under that name';
  throw new ConfigurationError(
    `${name} adapter: ${role} "${field}" is not ${where}${guess(lookup, names)}; ${fix}`,
  );
}

/**
 * ` (did you mean "created_at"?)` for the column nearest the missing one, written as the field
 * would write it (qualified as it is, in the names a renaming plugin gives); `''` when none is near.
 */
function guess(lookup: Pick<ColumnLookup<never>, 'field' | 'spell'>, names: readonly string[]): string {
  const spell = lookup.spell ?? ((column: string) => column);
  const dot = lookup.field.lastIndexOf('.');
  const nearest = closestName(lookup.field.slice(dot + 1), new Set(names.map(spell)));
  if (nearest === undefined) return '';
  return ` (did you mean "${lookup.field.slice(0, dot + 1)}${nearest}"?)`;
}
