import type { ColumnKind } from '../dialect/column-info.js';

/**
 * The kind of a MySQL/MariaDB column by its `column_type` (lower case).
 * @example
 * mysqlKind('datetime(6)') // 'timestamp-text'
 */
export function mysqlKind(type: string): ColumnKind {
  if (/^tinyint\(1\)/.test(type)) return 'integer';
  if (/^enum\(/.test(type)) return 'enum';
  if (type === 'uuid') return 'uuid';
  if (/^(time)(\(\d\))?$/.test(type)) return 'timestamp-text';
  const fractional = /^(datetime|timestamp)\((\d)\)/.exec(type);
  if (fractional) return Number(fractional[2]) <= 3 ? 'date' : 'timestamp-text';
  if (/^(date|datetime|timestamp)$/.test(type)) return 'date';
  if (/^(year|(tiny|small|medium|big)?int)\b/.test(type)) return /^bigint/.test(type) ? 'bigint' : 'integer';
  if (/^(decimal|numeric)\b/.test(type)) return 'decimal';
  if (/^(float|double|real)\b/.test(type)) return 'number';
  if (/^(var)?char\(|^(tiny|medium|long)?text$/.test(type)) return 'string';
  // blob, binary, bit, set, json (MySQL), geometry, ...: no exact bound.
  return 'unsupported';
}
