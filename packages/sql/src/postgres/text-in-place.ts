import type { ColumnInfo } from '../dialect/column-info.js';
import type { TextInPlace } from '../dialect/recorded-text.js';
import { identifier, join, literal, raw, sql } from '../fragment/fragment.js';
import { parseDateText } from './date-parser.js';
import { TIMESTAMP_TYPE, timestampShape } from './timestamp-text.js';

// Postgres timestamps and dates selected as their text in place of the query's own column, rows
// given back the `Date`s pg's default parser makes of them (`parseDateText`): where the driver's
// own parser answers the same for every probed value.

/**
 * Values of each type where parsers part ways: microseconds, a fraction before 1970 (truncated or
 * floored), a time zone's offset, years past 9999, BC, ±infinity. None in years 1 BC to 99 AD,
 * which `parseDateText` leaves to pg.
 */
const PROBED: ReadonlyArray<readonly [string, readonly string[]]> = [
  [
    'timestamptz',
    [
      '2000-01-01 00:00:00.000001+00',
      '1969-12-31 23:59:59.999501+00',
      '2024-05-01 12:00:00.5+05:30',
      '12345-06-01 00:00:00+00',
      '0044-03-15 12:00:00+00 BC',
      'infinity',
      '-infinity',
    ],
  ],
  [
    'timestamp',
    [
      '2000-01-01 00:00:00.000001',
      '1969-12-31 23:59:59.999501',
      '12345-06-01 00:00:00',
      '0044-03-15 12:00:00 BC',
      'infinity',
      '-infinity',
    ],
  ],
  ['date', ['2000-01-01', '1969-12-31', '12345-06-01', '0044-03-15 BC', 'infinity', '-infinity']],
];

/** The probe's columns: each value as its type (`tK_V`) and as text (`xK_V`). */
const columnOf = (prefix: string, k: number, v: number) => `${prefix}${k}_${v}`;

/** Whether the driver's `value` is what `parseDateText` makes of `text`: the same instant, or the same ±Infinity. */
function answersAsParsed(value: unknown, text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const parsed = parseDateText(text);
  if (parsed instanceof Date) return value instanceof Date && Object.is(value.getTime(), parsed.getTime());
  return parsed !== undefined && Object.is(value, parsed);
}

/**
 * `timestamp(tz)` and `date` columns selected as their text in place (`TextInPlace`), on a pool
 * whose parser of each type answers what `pg`'s default one (postgres-date) does.
 * @example
 * postgresTextInPlace.probedType({ kind: 'timestamp-text', nullable: false, type: 'timestamp(3) with time zone' }) // 'timestamptz'
 */
export const postgresTextInPlace: TextInPlace = Object.freeze({
  probedType: (info: ColumnInfo) => {
    const type = info.type;
    if (type === 'date') return 'date';
    if (type === undefined || !TIMESTAMP_TYPE.test(type)) return undefined;
    return timestampShape(type) === 'zoned' ? 'timestamptz' : 'timestamp';
  },
  probe: () =>
    sql`select ${join(
      PROBED.flatMap(([type, texts], k) =>
        texts.flatMap((text, v) => [
          sql`cast(${literal(text)} as ${raw(type)}) as ${identifier(columnOf('t', k, v))}`,
          sql`cast(cast(${literal(text)} as ${raw(type)}) as text) as ${identifier(columnOf('x', k, v))}`,
        ]),
      ),
    )}`,
  answered: (row: Record<string, unknown>) =>
    PROBED.filter(([, texts], k) =>
      texts.every((_, v) => answersAsParsed(row[columnOf('t', k, v)], row[columnOf('x', k, v)])),
    ).map(([type]) => type),
  parse: parseDateText,
});
