import { INTEGER_RANGES, type IntegerRange } from '@pagewise/core';

// The integer types' ranges as bound checks read them, `[min, max]`, from the one table of their
// widths (`INTEGER_RANGES`, the contract's): built once, since every cursor page checks its
// integer bounds against one of them.

/** An integer type's range, `[min, max]` inclusive. */
export type IntegerBounds = readonly [bigint, bigint];

const bounds = (range: IntegerRange): IntegerBounds => Object.freeze([range.min, range.max] as const);

/** Each width's signed and unsigned bounds. */
const widths = (signed: IntegerRange, unsigned: IntegerRange) =>
  Object.freeze([bounds(signed), bounds(unsigned)] as const);

const BITS_8 = widths(INTEGER_RANGES.tinyint, INTEGER_RANGES.unsignedTinyint);
const BITS_16 = widths(INTEGER_RANGES.smallint, INTEGER_RANGES.unsignedSmallint);
const BITS_24 = widths(INTEGER_RANGES.mediumint, INTEGER_RANGES.unsignedMediumint);
const BITS_32 = widths(INTEGER_RANGES.integer, INTEGER_RANGES.unsignedInteger);
const BITS_64 = widths(INTEGER_RANGES.bigint, INTEGER_RANGES.unsignedBigint);

/** 64-bit bounds: what SQLite's every INTEGER holds, and an integer of unknown type. */
export const INT64_BOUNDS: IntegerBounds = BITS_64[0];

/**
 * The 64-bit bounds, signed or unsigned (SQLite: every INTEGER is 64-bit, whatever its name).
 * @example
 * bits64(false) // [-9223372036854775808n, 9223372036854775807n]
 */
export function bits64(unsigned: boolean): IntegerBounds {
  return BITS_64[unsigned ? 1 : 0];
}

/**
 * Whether `type` names an integer type (`int`, `serial`, ... but no `real`, `numeric`, ...): the
 * types a lookup reads as whole numbers of their range.
 * @example
 * integerType('bigint unsigned') // true
 */
export function integerType(type: string): boolean {
  return !/real|floa|doub|numeric|decimal/.test(type) && /int|serial/.test(type);
}

/**
 * The range of an integer type by its name (`smallint`: 16 bits, `mediumint`: 24, ...), unsigned
 * where the name says so; 64 bits for a name it does not know.
 * @example
 * integerRangeByName('smallint') // [-32768n, 32767n]
 */
export function integerRangeByName(type: string): IntegerBounds {
  const unsigned = type.includes('unsigned') ? 1 : 0;
  if (/tinyint|bool/.test(type)) return BITS_8[unsigned];
  if (/smallint|int2|smallserial/.test(type)) return BITS_16[unsigned];
  if (/mediumint/.test(type)) return BITS_24[unsigned];
  if (/bigint|int8|bigserial/.test(type)) return BITS_64[unsigned];
  if (/int|serial/.test(type)) return BITS_32[unsigned];
  return BITS_64[unsigned];
}
