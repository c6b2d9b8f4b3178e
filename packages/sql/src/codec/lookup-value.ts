import { type IntegerRange, integerLookup } from '@pagewise/core';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import type { ColumnInfo } from '../dialect/column-info.js';
import { integerType } from '../dialect/integer-ranges.js';
import { type SqlPart, sql } from '../fragment/fragment.js';
import { Slot } from '../fragment/slot.js';
import { toParameter } from './column-codec.js';

const DECIMAL_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The range of an integer column, as `integerLookup` reads it; `null` when its type is no integer type. */
function integerRangeOf(info: ColumnInfo, capabilities: DialectCapabilities): IntegerRange | null {
  const type = info.type ?? '';
  if (integerType(type)) {
    const [min, max] = capabilities.integerRange(type);
    return { min, max };
  }
  if (info.kind !== 'bigint') return null;
  const [min, max] = capabilities.integerRange(type.includes('unsigned') ? 'bigint unsigned' : 'bigint');
  return { min, max };
}

/**
 * The parameter to bind when looking a row up by `text` (a path value) in a column, or
 * `undefined` when no value of the column's type is written that way: `'abc'` for an integer,
 * `'2147483648'` for an `int4`, a malformed UUID. The caller then answers "not found" without
 * asking the database, which would fail with a type error instead.
 *
 * @example
 * lookupParameter({ kind: 'integer', nullable: false, type: 'integer' }, '7', postgresCapabilities) // 7
 * lookupParameter({ kind: 'integer', nullable: false, type: 'integer' }, '2147483648', postgresCapabilities) // undefined
 */
export function lookupParameter(
  info: ColumnInfo,
  text: string,
  capabilities: DialectCapabilities,
): unknown | undefined {
  switch (info.kind) {
    case 'integer':
    case 'bigint':
    case 'number': {
      const range = integerRangeOf(info, capabilities);
      if (range !== null) return integerLookup(text, range) ?? undefined;
      const number = Number(text);
      return DECIMAL_TEXT.test(text) && Number.isFinite(number) ? number : undefined;
    }
    case 'uuid':
      return UUID.test(text) ? text : undefined;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'date':
    case 'timestamp-text': {
      const date = new Date(text);
      if (Number.isNaN(date.getTime())) return undefined;
      return capabilities.dateStorage === 'iso-text' ? date.toISOString() : text;
    }
    case 'decimal':
      try {
        return toParameter(info, text, 'lookup', capabilities);
      } catch {
        return undefined;
      }
    case 'enum':
      // MySQL's catalog gives no labels: the database compares the text itself.
      return info.labels === undefined || info.labels.includes(text) ? text : undefined;
    case 'string':
      return capabilities.textRejectsNul && text.includes('\u0000') ? undefined : text;
    case 'unsupported':
      return undefined;
    case 'unknown':
      return text;
  }
}

const INTEGER_TEXT = /^-?\d+$/;

/**
 * Whether `text` (a path value) is written as a value of the column's type, whether or not one
 * fits the column: Django's lookup takes `int('2147483648')` and finds no row in an `int4`, where
 * `int('abc')` raises. Any text that `lookupParameter` binds is; past that, integers out of the
 * column's range.
 *
 * @example
 * lookupAccepts({ kind: 'integer', nullable: false, type: 'integer' }, '2147483648', postgresCapabilities) // true
 * lookupAccepts({ kind: 'integer', nullable: false, type: 'integer' }, '1.5', postgresCapabilities) // false
 */
export function lookupAccepts(info: ColumnInfo, text: string, capabilities: DialectCapabilities): boolean {
  if (lookupParameter(info, text, capabilities) !== undefined) return true;
  const integer = info.kind === 'integer' || info.kind === 'bigint' || info.kind === 'number';
  return integer && integerType(info.type ?? '') && INTEGER_TEXT.test(text);
}

/** The alias of the derived table a lookup over a sliced builder reads from. */
export const LOOKUP_SLICE = 'pagewise_slice';

/**
 * The predicate of an equality lookup, the value in slot 0 (the limit is slot 1): ANDed onto the
 * query's WHERE, or over a sliced builder onto `select * from (<the slice>) as "pagewise_slice"`,
 * so rows outside the slice are not found.
 *
 * @example
 * lookupPredicate(node(id)) // "id" = $1
 * // select * from "articles" where ("published" = $1) and "id" = $2 limit $3
 */
export function lookupPredicate(expr: SqlPart): SqlPart {
  return sql`${expr} = ${new Slot(0)}`;
}
