import type { ColumnKind } from '../dialect/column-info.js';

/**
 * The kind of a SQLite column by its declared type (lower case), as SQLite's affinity rules read it.
 * @example
 * sqliteKind('datetime') // 'date'
 */
export function sqliteKind(type: string): ColumnKind {
  if (/bigint|int8/.test(type)) return 'bigint';
  if (/int/.test(type)) return 'integer';
  // A time of day is text that sorts as text; only date types hold instants.
  if (/char|clob|text|^time\b/.test(type)) return 'string';
  if (/date|time/.test(type)) return 'date';
  if (/real|floa|doub|numeric|decimal/.test(type)) return 'number';
  if (/bool/.test(type)) return 'boolean';
  if (/blob/.test(type)) return 'unsupported';
  // A column without a declared type holds any value; SQLite compares every value with every other.
  return 'unknown';
}
