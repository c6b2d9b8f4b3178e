import type { PositionValue } from '@pagewise/core';
import { daysFromCivil, MAX_TIME } from '../calendar/civil-days.js';
import { digitsAt } from '../calendar/digits.js';
import { ExactText } from '../codec/exact-text.js';
import type { ColumnInfo } from '../dialect/column-info.js';
import type { CastText, RecordedText } from '../dialect/recorded-text.js';
import { cast, identifier, join, literal, raw, type SqlPart, sql } from '../fragment/fragment.js';
import { postgresTextInPlace } from './text-in-place.js';
import { TIMESTAMP_TYPE, timestampShape, utcTimestampText } from './timestamp-text.js';

// Positions of Postgres temporal columns read from the text Postgres sent for each value (recorded
// by `nameStatements`), equal to the ones the `to_char`/`extract(epoch)` column gives: the same
// cursors whichever way a page was read.

/**
 * Postgres's ISO output (`DateStyle` ISO) of a timestamp, with or without an offset, or a date
 * (whose years go on to 5874897).
 */
const ISO_OUTPUT =
  /^(\d{4,7})-(\d\d)-(\d\d)(?: (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(?:([+-])(\d\d)(?::(\d\d)(?::(\d\d))?)?)?)?( BC)?$/;
/** The start of ISO output (`DateStyle` ISO): a year of four to seven digits, then its dash. */
const ISO_HEAD = /^\d{4,7}-/;

/**
 * The position of a value of a Postgres `timestamp(tz)` or `date` column of catalog type `type`
 * and kind `kind`, from the text Postgres sent for it (`text`): what the stock path selects
 * (`to_char` in UTC with its era for `timestamp-text`, a `Date` of the epoch for `date`, or the
 * `timestamp-text` one past the last `Date`). `undefined` when `text` is not Postgres's ISO output
 * for that type (another `DateStyle`).
 */
export function positionFromText(
  text: string,
  type: string,
  kind: 'date' | 'timestamp-text',
): PositionValue | undefined {
  if (kind === 'timestamp-text') {
    const utc = utcPosition(text, type);
    if (utc !== undefined) return utc;
  }
  if (text === 'infinity' || text === '-infinity') {
    if (kind === 'timestamp-text') return text;
    return text === 'infinity' ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  }
  const parts = ISO_OUTPUT.exec(text);
  if (parts === null) return undefined;
  const shape = timestampShape(type);
  // A timestamp has a time, a date has none; an offset exactly when the type has a time zone.
  if ((shape !== 'date') !== (parts[4] !== undefined) || (shape === 'zoned') !== (parts[8] !== undefined))
    return undefined;
  const bc = parts[12] !== undefined;
  if (shape === 'date')
    return kind === 'timestamp-text' ? `${parts[1]}-${parts[2]}-${parts[3]} ${bc ? 'BC' : 'AD'}` : undefined;
  const fraction = parts[7] ?? '';
  const offset =
    shape === 'zoned'
      ? (parts[8] === '-' ? -1 : 1) *
        (Number(parts[9]) * 3600 + Number(parts[10] ?? 0) * 60 + Number(parts[11] ?? 0))
      : 0;
  if (kind === 'timestamp-text' && offset === 0) {
    // The text's own fields, the fraction to six digits: no arithmetic (a UTC session's every value).
    const micro = fraction.length === 6 ? fraction : fraction.padEnd(6, '0');
    return `${text.slice(0, parts[1]!.length + 15)}.${micro}${shape === 'zoned' ? '+00' : ''} ${bc ? 'BC' : 'AD'}`;
  }
  const days = daysFromCivil(
    bc ? 1 - Number(parts[1]) : Number(parts[1]),
    Number(parts[2]),
    Number(parts[3]),
  );
  // Offsets are whole seconds: the fraction stays, the rest moves to UTC by day arithmetic.
  const seconds = Number(parts[4]) * 3600 + Number(parts[5]) * 60 + Number(parts[6]) - offset;
  if (kind === 'date') {
    const ms = (days * 86400 + seconds) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3));
    if (Math.abs(ms) <= MAX_TIME) return new Date(ms);
  }
  return utcTimestampText(days, seconds, fraction, shape === 'zoned');
}

/**
 * The position of a `timestamp(n)` or a `timestamptz(n)` of a UTC session (`+00`) as Postgres writes
 * most of them, `2024-05-01 12:00:00[.f]`, read by character codes: what `positionFromText` makes
 * of it through its regular expression (whose match and captures cost a page more than the rest
 * of its positions), or `undefined` for any other text (BC, years past 9999, other offsets).
 */
function utcPosition(text: string, type: string): string | undefined {
  const shape = timestampShape(type);
  if (shape === 'date') return undefined;
  const offset = shape === 'zoned' ? '+00' : '';
  const end = text.length - offset.length;
  if (end < 19 || end > 26 || end === 20 || !text.endsWith(offset)) return undefined;
  const shaped =
    text.charCodeAt(4) === 45 && // -
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 32 && // space
    text.charCodeAt(13) === 58 && // :
    text.charCodeAt(16) === 58 &&
    digitsAt(text, 0, 4) >= 0 &&
    digitsAt(text, 5, 7) >= 0 &&
    digitsAt(text, 8, 10) >= 0 &&
    digitsAt(text, 11, 13) >= 0 &&
    digitsAt(text, 14, 16) >= 0 &&
    digitsAt(text, 17, 19) >= 0;
  if (!shaped) return undefined;
  if (end === 19) return `${text.slice(0, 19)}.000000${offset} AD`;
  // A fraction of 1 to 6 digits, to six.
  if (text.charCodeAt(19) !== 46 || digitsAt(text, 20, end) < 0) return undefined;
  return `${text.slice(0, end).padEnd(26, '0')}${offset} AD`;
}

/**
 * Whether positions of a column of `type` and `kind` can be read from recorded text: Postgres
 * timestamps (`timestamp-text`, or `date` for millisecond ones) and dates, by their catalog type.
 */
export function readsRecordedText(type: string | undefined, kind: string): boolean {
  if (type === undefined) return false;
  if (kind === 'timestamp-text') return type === 'date' || TIMESTAMP_TYPE.test(type);
  return kind === 'date' && TIMESTAMP_TYPE.test(type);
}

/**
 * The position of `value` (a row's value of a column `readsRecordedText` accepts), from the text
 * recorded on it; pg's `±Infinity` numbers are `infinity`. `undefined` when it has no text or
 * the text is not ISO output.
 */
export function recordedPosition(
  value: unknown,
  type: string,
  kind: 'date' | 'timestamp-text',
): PositionValue | undefined {
  const text = ExactText.of(value);
  if (text !== undefined) return positionFromText(text, type, kind);
  if (value === Number.POSITIVE_INFINITY) return positionFromText('infinity', type, kind);
  if (value === Number.NEGATIVE_INFINITY) return positionFromText('-infinity', type, kind);
  return undefined;
}

/** A probe value: its text, the type it is cast to, the catalog type read, the position expected. */
const probed = (
  text: string,
  cast: string,
  type: string,
  position: string,
): readonly [string, string, ColumnInfo, PositionValue] => [
  text,
  cast,
  { kind: 'timestamp-text', nullable: false, type },
  position,
];
const WITH_ZONE = 'timestamp with time zone';
const WITHOUT_ZONE = 'timestamp without time zone';

/** One value of each type `postgresRecordedText` reads, with ±infinity, and the positions expected. */
const PROBE: ReadonlyArray<readonly [string, string, ColumnInfo, PositionValue]> = [
  probed('2000-01-01 00:00:00.000001+00', 'timestamptz', WITH_ZONE, '2000-01-01 00:00:00.000001+00 AD'),
  probed('2000-01-01 00:00:00.000001', 'timestamp', WITHOUT_ZONE, '2000-01-01 00:00:00.000001 AD'),
  probed('0044-03-15 BC', 'date', 'date', '0044-03-15 BC'),
  ...[
    ['timestamptz', WITH_ZONE],
    ['timestamp', WITHOUT_ZONE],
    ['date', 'date'],
  ].flatMap(([cast, type]) => ['infinity', '-infinity'].map((t) => probed(t, cast!, type!, t))),
];

/**
 * Postgres timestamps and dates read from the text Postgres sent (`nameStatements` records it):
 * the positions the `to_char`/`extract(epoch)` column gives, without selecting it. The probe asks
 * for one value of each type, so a driver that records nothing, a user's parser answering
 * strings, or a session `DateStyle` other than ISO keeps the column.
 */
export const postgresRecordedText: RecordedText = Object.freeze({
  reads: (info: ColumnInfo) => readsRecordedText(info.type, info.kind),
  probe: () =>
    sql`select ${join(PROBE.map(([text, type], i) => sql`cast(${literal(text)} as ${raw(type)}) as ${identifier(`v${i}`)}`))}`,
  answered: (row: Record<string, unknown>) =>
    PROBE.every(([, , info, expected], i) => postgresRecordedText.position(row[`v${i}`], info) === expected),
  position: (value: unknown, info: ColumnInfo) =>
    recordedPosition(value, info.type ?? '', info.kind === 'date' ? 'date' : 'timestamp-text'),
});

/**
 * Postgres timestamps and dates handed over by the driver as the text Postgres sent (Drizzle's
 * node-postgres and PGlite sessions parse none of them): the positions `postgresRecordedText`
 * reads from recorded text, read from the value itself, so the column is selected as it is
 * instead of through `to_char`. The same probe decides: a session `DateStyle` other than ISO, or
 * a driver that parses the values, keeps the `to_char` column.
 * @example
 * postgresDriverText.position('2024-01-02 10:43:19.5+00', { kind: 'timestamp-text', nullable: false, type: 'timestamp with time zone' })
 * // '2024-01-02 10:43:19.500000+00 AD'
 */
export const postgresDriverText: RecordedText = Object.freeze({
  reads: postgresRecordedText.reads,
  probe: postgresRecordedText.probe,
  answered: (row: Record<string, unknown>) =>
    PROBE.every(([, , info, expected], i) => postgresDriverText.position(row[`v${i}`], info) === expected),
  position: (value: unknown, info: ColumnInfo) =>
    typeof value === 'string'
      ? positionFromText(value, info.type ?? '', info.kind === 'date' ? 'date' : 'timestamp-text')
      : undefined,
});

/**
 * Postgres timestamps and dates read from `cast(x as text)`, on a driver that parses the values
 * themselves (`pg`'s stock pool, where a `Date` holds milliseconds): the positions the `to_char`
 * column gives (`postgresDriverText` reads the text), for a column the server writes at about a
 * third of `to_char`'s cost, and one of any `TimeZone` (the text carries the offset). The text
 * follows `DateStyle`: the probe casts one value of each type, so a session in another style keeps
 * the `to_char` column.
 * @example
 * postgresCastText.expression(identifier('created')) // cast("created" as text)
 */
export const postgresCastText: CastText = Object.freeze({
  reads: postgresRecordedText.reads,
  expression: (column: SqlPart) => cast(column, 'text'),
  // ISO output: a year of four to seven digits and a dash (`SQL` writes `01/02/2024`, `German`
  // `02.01.2024`, `Postgres` `Tue Jan 02`), or ±infinity.
  head: (value: unknown) =>
    typeof value === 'string' && (ISO_HEAD.test(value) || value === 'infinity' || value === '-infinity'),
  probe: () =>
    sql`select ${join(PROBE.map(([text, type], i) => sql`cast(cast(${literal(text)} as ${raw(type)}) as text) as ${identifier(`v${i}`)}`))}`,
  answered: postgresDriverText.answered,
  position: postgresDriverText.position,
  inPlace: postgresTextInPlace,
});
