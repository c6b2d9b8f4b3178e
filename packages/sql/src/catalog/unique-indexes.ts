import type { CatalogRow } from '../dialect/catalog-rows.js';

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
 * uniqueIndexes(await readCatalog(session, table))
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
