/**
 * The values an integer column holds, inclusive.
 * @example
 * const tinyint: IntegerRange = { min: -128n, max: 127n };
 */
export interface IntegerRange {
  readonly min: bigint;
  readonly max: bigint;
}

/**
 * The ranges of the SQL integer types (`integer` is also `serial`; `bigint` also SQLite's `integer`).
 * @example
 * integerLookup('42', INTEGER_RANGES.smallint) // 42
 */
export const INTEGER_RANGES: Readonly<Record<'smallint' | 'integer' | 'bigint', IntegerRange>> =
  Object.freeze({
    smallint: Object.freeze({ min: -(2n ** 15n), max: 2n ** 15n - 1n }),
    integer: Object.freeze({ min: -(2n ** 31n), max: 2n ** 31n - 1n }),
    bigint: Object.freeze({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
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
