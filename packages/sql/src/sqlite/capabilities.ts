import { baseCapabilities, type DialectCapabilities } from '../dialect/capabilities.js';
import { bits64 } from '../dialect/integer-ranges.js';
import { type SqlPart, sql } from '../fragment/fragment.js';
import { sqliteCatalogQuery } from './catalog.js';
import { sqliteKind } from './column-kinds.js';

/**
 * The exact text of an integer better-sqlite3 rounds (one its double differs from), NULL
 * otherwise: reals equal themselves, and SQLite compares integers with reals exactly.
 * @example
 * sqliteExactIntegerText(column) // case when cast("id" as real) <> "id" then cast("id" as text) end
 */
export function sqliteExactIntegerText(column: SqlPart): SqlPart {
  return sql`case when cast(${column} as real) <> ${column} then cast(${column} as text) end`;
}

const SIGNED_64 = bits64(false);
const UNSIGNED_64 = bits64(true);

/**
 * SQLite: row values seek (3.15+), NULL sorts low, dates are ISO-8601 text.
 * @example
 * ({ ...sqliteCapabilities, mergedSegments: false }) // each segment a statement of its own
 */
export const sqliteCapabilities: DialectCapabilities = Object.freeze({
  ...baseCapabilities,
  name: 'sqlite',
  rowValueSeek: true,
  mergedSegments: true,
  // SQLite plans a statement when it prepares it, so a written LIMIT changes no plan, whatever
  // values the query has of its own; with it the orm bench's first pages took 1.03-1.09x the
  // hand-written page instead of 1.11-1.14x (bench/RESULTS.md, 2026-12-04).
  literalLimit: true,
  literalLimitWithValues: true,
  nullsOrderingSyntax: true,
  resortKeepsTies: true,
  dateStorage: 'iso-text',
  catalogQuery: sqliteCatalogQuery,
  columnKind: sqliteKind,
  // Every INTEGER is 64-bit, whatever the declared name.
  integerRange: (type: string) => (type.includes('unsigned') ? UNSIGNED_64 : SIGNED_64),
  exactIntegerText: sqliteExactIntegerText,
  floatInfinity: true,
  booleansAsIntegers: true,
  realsInIntegerColumns: true,
  singlePrecision: () => false,
  insertReturning: true,
});
