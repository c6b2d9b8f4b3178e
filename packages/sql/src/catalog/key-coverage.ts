import type { AdapterName } from '../adapter-name.js';
import { type CatalogRow, catalogNullable } from '../dialect/catalog-rows.js';
import { keyText } from './key-columns.js';

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(' and ');

/** What the adapter knows when it checks that a cursor's key order is unique per row. */
export interface KeyCoverage {
  /** The adapter the message names. */
  readonly adapter: AdapterName;
  /** The `uniqueKey` as configured: one column, or the columns of a composite key. */
  readonly uniqueKey: string | readonly string[];
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
 * uniqueKeyRefusal({ adapter: { name: 'kysely', factory: 'fromKysely' }, uniqueKey: 'category', table: 'items', columns: ['created', 'category'],
 *   fixed: [], catalog, indexes: [{ name: 'items_pkey', columns: ['id'], primary: true }] })
 * // 'kysely adapter: uniqueKey "category" does not make the cursor order unique: no primary key or
 * // unique index of "items" has all its columns among "created" and "category" (...); name a
 * // column unique per row, e.g. fromKysely(query, { uniqueKey: 'id' }), ...'
 */
export function uniqueKeyRefusal(coverage: KeyCoverage): string | undefined {
  const { uniqueKey, table, catalog, indexes } = coverage;
  const { name, factory } = coverage.adapter;
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
  // Else a composite primary key over NOT NULL columns (a multi-tenant table's), as a list.
  const primary = indexes.find((index) => index.primary && !index.columns.some(nullable));
  const example =
    single !== undefined
      ? `'${single.columns[0]!}'`
      : primary !== undefined
        ? `[${primary.columns.map((column) => `'${column}'`).join(', ')}]`
        : "'pk_column'";
  const fixed = coverage.fixed.length > 0 ? ' and the columns its WHERE fixes' : '';
  return (
    `${name} adapter: uniqueKey ${keyText(typeof uniqueKey === 'string' ? [uniqueKey] : uniqueKey)} does not make the cursor order unique: no primary key or ` +
    `unique index of "${table}" has all its columns among ${quoted([...new Set(ordered)])}${fixed}` +
    `${reasons.join('')}, so rows that tie on them would be skipped or repeated between pages; ` +
    `name a column unique per row, e.g. ${factory}(query, { uniqueKey: ${example} }), add a unique ` +
    'index over NOT NULL columns of the ordering, or pass uniqueKey: null for position + offset cursors'
  );
}
