import type { ColumnKind } from '../dialect/column-info.js';

/**
 * The kind of a Postgres column by its catalog type (`format_type`, lower case).
 * @example
 * postgresKind('timestamp(3) with time zone') // 'date'
 */
export function postgresKind(type: string): ColumnKind {
  if (type === 'uuid') return 'uuid';
  if (type === 'boolean') return 'boolean';
  if (type === 'date' || type === 'time without time zone' || /^time\(\d\) without time zone$/.test(type)) {
    return 'timestamp-text';
  }
  const timestamp = /^timestamp(?:\((\d)\))? with(?:out)? time zone$/.exec(type);
  // Without a declared precision Postgres keeps microseconds.
  if (timestamp) return Number(timestamp[1] ?? 6) <= 3 ? 'date' : 'timestamp-text';
  if (/^(bigint|bigserial)$/.test(type)) return 'bigint';
  if (/^(smallint|integer|serial|smallserial)$/.test(type)) return 'integer';
  if (/^(real|double precision)$/.test(type)) return 'number';
  if (/^numeric(\(\d+(,-?\d+)?\))?$/.test(type)) return 'decimal';
  if (/^(text|character.*|"char"|name|citext)$/.test(type)) return 'string';
  // json, arrays, bytea, interval, timetz, geometric and network types, ...: no exact bound.
  return 'unsupported';
}
