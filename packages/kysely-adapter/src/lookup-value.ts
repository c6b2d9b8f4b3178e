import {
  AliasNode,
  BinaryOperationNode,
  ColumnNode,
  IdentifierNode,
  type OperationNode,
  OperatorNode,
  ReferenceNode,
  SelectionNode,
  SelectQueryNode,
  ValueNode,
} from 'kysely';
import { toParameter } from './column-codec.js';
import type { ColumnInfo } from './column-info.js';
import type { DialectCapabilities } from './dialect-capabilities.js';
import { Slot, withLimit, withWhere } from './window-compiler.js';

const INTEGER_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Bits of an integer column type, `null` when the type is not an integer type. */
function integerBits(type: string, capabilities: DialectCapabilities): number | null {
  if (/real|floa|doub|numeric|decimal/.test(type)) return null;
  if (!/int|serial/.test(type)) return null;
  // SQLite stores any INTEGER-affinity column as a 64-bit integer.
  if (capabilities.dateStorage === 'iso-text') return 64;
  if (/bigint|int8|bigserial/.test(type)) return 64;
  if (/mediumint/.test(type)) return 24;
  if (/smallint|int2|smallserial/.test(type)) return 16;
  if (/tinyint/.test(type)) return 8;
  return 32;
}

function fitsInteger(text: string, bits: number, unsigned: boolean): boolean {
  if (!INTEGER_TEXT.test(text)) return false;
  const value = BigInt(text);
  const min = unsigned ? 0n : -(2n ** BigInt(bits - 1));
  const max = unsigned ? 2n ** BigInt(bits) - 1n : 2n ** BigInt(bits - 1) - 1n;
  return value >= min && value <= max;
}

/**
 * The parameter to bind when looking a row up by `text` (a path value) in a column, or
 * `undefined` when no value of the column's type is written that way: `'abc'` for an integer,
 * `'2147483648'` for an `int4`, a malformed UUID. The caller then answers "not found" without
 * asking the database, which would fail with a type error instead.
 *
 * @example
 * lookupParameter({ kind: 'number', nullable: false, type: 'integer' }, '7', postgresCapabilities) // 7
 * lookupParameter({ kind: 'number', nullable: false, type: 'integer' }, '2147483648', postgresCapabilities) // undefined
 */
export function lookupParameter(
  info: ColumnInfo,
  text: string,
  capabilities: DialectCapabilities,
): unknown | undefined {
  const type = info.type ?? '';
  switch (info.kind) {
    case 'integer':
    case 'bigint':
    case 'number': {
      const bits = integerBits(type, capabilities) ?? (info.kind === 'bigint' ? 64 : null);
      if (bits !== null) {
        if (!fitsInteger(text, bits, type.includes('unsigned'))) return undefined;
        return bits === 64 && !Number.isSafeInteger(Number(text)) ? BigInt(text) : Number(text);
      }
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
  return integer && integerBits(info.type ?? '', capabilities) !== null && INTEGER_TEXT.test(text);
}

/**
 * The statement of an equality lookup: the query's WHERE and the bound value ANDed, one row.
 * Over a sliced builder the lookup runs on the slice (a derived table), so rows outside it are
 * not found. Slot 0 is the value, slot 1 the limit.
 *
 * @example
 * // select * from "articles" where "published" = $1 and "id" = $2 limit $3
 * // sliced: select * from (select * from "articles" order by "id" limit $1) as "pagewise_slice" where "id" = $2 limit $3
 */
export function lookupQuery(
  core: SelectQueryNode,
  sliced: SelectQueryNode | null,
  expr: OperationNode,
  column: string,
): SelectQueryNode {
  const equals = (left: OperationNode) =>
    BinaryOperationNode.create(left, OperatorNode.create('='), ValueNode.create(new Slot(0)));
  if (sliced === null) return withLimit(withWhere(core, [equals(expr)]), 1, null);
  const from = SelectQueryNode.cloneWithSelections(
    SelectQueryNode.createFrom([AliasNode.create(sliced, IdentifierNode.create('pagewise_slice'))]),
    [SelectionNode.createSelectAll()],
  );
  return withLimit(withWhere(from, [equals(ReferenceNode.create(ColumnNode.create(column)))]), 1, null);
}
