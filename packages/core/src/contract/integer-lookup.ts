/**
 * The values an integer column holds, inclusive.
 * @example
 * const tinyint: IntegerRange = { min: -128n, max: 127n };
 */
export interface IntegerRange {
  readonly min: bigint;
  readonly max: bigint;
}

const range = (min: bigint, max: bigint): IntegerRange => Object.freeze({ min, max });
const signed = (bits: bigint) => range(-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n);
const unsigned = (bits: bigint) => range(0n, 2n ** bits - 1n);

/**
 * The ranges of the SQL integer types, signed and unsigned, by width: the one table of them, read
 * by `@pagewise/sql` (bounds and lookups of integer columns) as by a handler checking a path value
 * (`integer` is also `serial`; `bigint` also SQLite's `integer`; `tinyint` MySQL's, 8 bits).
 * The contract's own: `OrderedQuery.find` answers `null` for a value its column's type cannot
 * hold, and what an integer type holds is its width.
 * @example
 * integerLookup('42', INTEGER_RANGES.smallint) // 42
 * INTEGER_RANGES.unsignedMediumint.max // 16777215n
 */
export const INTEGER_RANGES = Object.freeze({
  tinyint: signed(8n),
  smallint: signed(16n),
  mediumint: signed(24n),
  integer: signed(32n),
  bigint: signed(64n),
  unsignedTinyint: unsigned(8n),
  unsignedSmallint: unsigned(16n),
  unsignedMediumint: unsigned(24n),
  unsignedInteger: unsigned(32n),
  unsignedBigint: unsigned(64n),
});

/** Longer digit runs cannot fit any range above; refusing them first keeps BigInt() off huge text. */
const MAX_DIGITS = 40;

/**
 * A path value (`/articles/:id/`) as a lookup value for an integer column, or `null` when it
 * cannot be one: not base-10 ASCII digits with an optional `-`, or outside `range`. A view answers
 * `null` with 404 before any query runs, so the database never sees a value its column type
 * rejects (Postgres: `value "2147483648" is out of range for type integer`). Leading zeros are
 * read as Django's `int` converter reads them. Safe integers come back as numbers, others as bigints.
 *
 * @default range INTEGER_RANGES.integer
 * @example
 * integerLookup('7') // 7
 * integerLookup('2147483648') // null (outside integer)
 * integerLookup('9007199254740993', INTEGER_RANGES.bigint) // 9007199254740993n
 * integerLookup('1.5') // null
 */
export function integerLookup(
  raw: string,
  range: IntegerRange = INTEGER_RANGES.integer,
): number | bigint | null {
  // `[1-9]\d*|0` after the zeros, not `\d+`: overlapping runs would make '000…0x' quadratic.
  const match = /^(-?)0*([1-9]\d*|0)$/.exec(raw);
  if (match === null || match[2]!.length > MAX_DIGITS) return null;
  const value = BigInt(`${match[1]}${match[2]}`);
  if (value < range.min || value > range.max) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}
