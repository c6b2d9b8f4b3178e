import { ConfigurationError, InvalidBoundError, isPositionValue, type PositionValue } from '@pagewise/core';
import { daysIn } from '../calendar/civil-days.js';
import { digitsAt } from '../calendar/digits.js';
import { wallClockDate } from '../calendar/temporal-text.js';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import type { ColumnInfo, ColumnKind } from '../dialect/column-info.js';
import { INT64_BOUNDS } from '../dialect/integer-ranges.js';
import type { Row } from '../dialect/row.js';
import { ExactText } from './exact-text.js';

const [INT64_MIN, INT64_MAX] = INT64_BOUNDS;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * A plain decimal: no exponent, no spaces; at most the digits Postgres's `numeric` holds (131072
 * before the point, 16383 after), so every value a column holds is a bound and none makes the
 * database fail. The cursor's length caps what a forged one costs.
 */
const DECIMAL = /^-?(\d{1,131072})(?:\.(\d{1,16383}))?$/;
const DECIMAL_SPECIAL = /^(NaN|-?Infinity)$/;
/** A text date as SQLite stores the ones `Date#toISOString` writes. */
const ISO_TEXT = /^(?:\d{4}|[+-]\d{6})-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** The start of a date as SQLite may hold it as text: a year of four or more digits, maybe signed. */
const SQLITE_DATE_TEXT = /^[+-]?\d{4,}-\d\d/;

function integral(raw: bigint): number | bigint {
  return raw >= -9007199254740991n && raw <= 9007199254740991n ? Number(raw) : raw;
}

function utcDate(year: number, month: number, day: number, h = 0, mi = 0, s = 0, ms = 0): Date {
  const date = new Date(Date.UTC(2000, month - 1, day, h, mi, s, ms));
  date.setUTCFullYear(year);
  return date;
}

/**
 * A date position from the text a dialect's position expression gives for a column of catalog
 * type `type`: a `Date` where one holds the value, else the exact text the column compares with
 * (Postgres past 275760-09-13, MySQL's zero dates); `null` for text of neither.
 */
function dateFromText(raw: string, type: string, capabilities: DialectCapabilities): PositionValue {
  // SQLite holds any text: canonical ISO dates are dates, any other text is its own position.
  if (capabilities.dateStorage === 'iso-text') return isoTextDate(raw) ?? raw;
  const own = capabilities.dateFromText?.(raw, type);
  if (own !== undefined) return own;
  return wallClockDate(raw) ?? (capabilities.temporalText(raw, type) ? raw : null);
}

/**
 * The date `Date#toISOString` writes as `raw`, or `null` when it writes no date so. The common
 * form (a four-digit year, 24 characters) is read by character codes and its fields checked
 * against the calendar: about a tenth of `new Date(raw)` and `toISOString` (three rows a page).
 */
function isoTextDate(raw: string): Date | null {
  if (raw.length === 24) {
    if (
      raw.charCodeAt(4) !== 45 || // -
      raw.charCodeAt(7) !== 45 ||
      raw.charCodeAt(10) !== 84 || // T
      raw.charCodeAt(13) !== 58 || // :
      raw.charCodeAt(16) !== 58 ||
      raw.charCodeAt(19) !== 46 || // .
      raw.charCodeAt(23) !== 90 // Z
    )
      return null;
    const year = digitsAt(raw, 0, 4);
    const month = digitsAt(raw, 5, 7);
    const day = digitsAt(raw, 8, 10);
    const hour = digitsAt(raw, 11, 13);
    const minute = digitsAt(raw, 14, 16);
    const second = digitsAt(raw, 17, 19);
    const ms = digitsAt(raw, 20, 23);
    if (year < 0 || minute < 0 || second < 0 || ms < 0 || hour < 0) return null;
    if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
    if (hour > 23 || minute > 59 || second > 59) return null;
    // Date.UTC reads years 0-99 as 1900-1999.
    return year >= 100
      ? new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms))
      : utcDate(year, month, day, hour, minute, second, ms);
  }
  // A six-digit signed year: rare enough for the parser, checked by writing it back.
  if (!ISO_TEXT.test(raw)) return null;
  const date = new Date(raw);
  return !Number.isNaN(date.getTime()) && date.toISOString() === raw ? date : null;
}

/**
 * A number an integer column holds that is no 64-bit integer (`1.5`, `2^63`, `1e300`), where the
 * dialect keeps such values as REALs (`realsInIntegerColumns`): its position is the number itself.
 */
function real(raw: number, capabilities: DialectCapabilities): number | null {
  if (!capabilities.realsInIntegerColumns) return null;
  return Number.isInteger(raw) && raw >= -(2 ** 63) && raw < 2 ** 63 ? null : raw;
}

/**
 * Turns a value read from a row into the position value of its column. `exact` is the exact text
 * of an integer the driver may have rounded (`exactIntegerText`), when the dialect reads one.
 */
export function toPosition(
  info: ColumnInfo,
  raw: unknown,
  field: string,
  capabilities: DialectCapabilities,
  exact?: unknown,
  adapter = 'sql',
): PositionValue {
  if (raw === null || raw === undefined) return null;
  if ((typeof exact === 'string' && /^-?\d+$/.test(exact)) || typeof exact === 'bigint') {
    return info.kind === 'bigint' ? BigInt(exact) : integral(BigInt(exact));
  }
  const kind = info.kind;
  switch (kind) {
    case 'bigint':
      if (typeof raw === 'bigint') return raw;
      if (typeof raw === 'number') return real(raw, capabilities) ?? BigInt(raw);
      if (typeof raw === 'string') return BigInt(raw);
      break;
    case 'integer':
    case 'enum':
      // A number past 2^53 that the driver returned is exact (else its exact text was read).
      if (typeof raw === 'number')
        return Number.isSafeInteger(raw) ? raw : (real(raw, capabilities) ?? BigInt(raw));
      if (typeof raw === 'bigint') return integral(raw);
      if (kind === 'enum' && typeof raw === 'string') return raw;
      if (typeof raw === 'string' && /^-?\d+$/.test(raw)) return integral(BigInt(raw));
      break;
    case 'number':
      if (typeof raw === 'number') return raw;
      if (typeof raw === 'bigint') return integral(raw);
      if (typeof raw === 'string') return Number(raw);
      break;
    case 'decimal':
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'bigint') return String(raw);
      if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
      break;
    case 'date':
      if (raw instanceof Date) {
        if (!Number.isNaN(raw.getTime())) return raw;
      } else if (typeof raw === 'string') {
        const position = dateFromText(raw, info.type ?? '', capabilities);
        if (position !== null) return position;
        // MySQL's ALLOW_INVALID_DATES stores days no bound names exactly ('2024-02-30').
        throw new ConfigurationError(
          `${adapter} adapter: field "${field}" holds a text that is no value of its type ${info.type ?? kind} a cursor can bound exactly (a day only MySQL's ALLOW_INVALID_DATES stores?)`,
        );
      } else if (typeof raw === 'number') {
        // pg reads Postgres's ±infinity as ±Infinity.
        return Number.isFinite(raw) ? new Date(raw) : raw;
      }
      break;
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      // 1 and 0 (SQLite's and MySQL's booleans); any other number a typeless column holds would
      // become a bound that is not its value.
      if (raw === 1 || raw === 1n) return true;
      if (raw === 0 || raw === 0n) return false;
      if (typeof raw === 'number' || typeof raw === 'bigint') {
        throw new ConfigurationError(
          `${adapter} adapter: boolean field "${field}" holds ${raw}, which no boolean bound equals. Declare it 'integer' in \`columns\`.`,
        );
      }
      break;
    case 'string':
    case 'uuid':
    case 'timestamp-text':
      if (typeof raw === 'string') return raw;
      break;
    case 'unsupported':
    case 'unknown':
      if (isPositionValue(raw)) return raw;
      break;
  }
  throw new ConfigurationError(`${adapter} adapter: field "${field}" holds a ${typeof raw}, not a ${kind}`);
}

/** What the codec needs of an ordering field to check its bound values: its name, for messages, and its column. */
export interface BoundField {
  readonly field: string;
  readonly info: ColumnInfo;
}

/** What the codec needs of an ordering field to read its position from a row. */
export interface PositionField extends BoundField {
  /** The row property holding the raw value. */
  readonly readKey: string;
  /** Where the driver may round integers: the row property holding their exact text. */
  readonly exact: { readonly key: string } | null;
  /** The position is read from the text the driver recorded on the value (`recordedText`). */
  readonly recorded: boolean;
  /** The position is read from the database's text of the value (`castText`). @default false */
  readonly text?: boolean;
}

/**
 * Reads the positions of rows, every field of each in one call; `exact` when the rows carry
 * integers' exact text (a page that held a rounded one).
 */
export type PositionReader = (
  rows: readonly Row[],
  exact: boolean,
  capabilities: DialectCapabilities,
) => PositionValue[][];

/**
 * The position reader of an ordering's fields, built once per plan: a page reads the positions
 * of the rows its links stand on (its first and last, or the look-ahead) in one call.
 *
 * @example
 * const read = positionReader([{ field: 'id', info: { kind: 'integer', nullable: false }, readKey: 'id', exact: null, recorded: false }]);
 * read([{ id: 7, title: 'x' }], false, sqliteCapabilities) // [[7]]
 */
export function positionReader(fields: readonly PositionField[], adapter = 'sql'): PositionReader {
  const count = fields.length;
  return (rows, exact, capabilities) =>
    rows.map((row) => {
      const position: PositionValue[] = [];
      for (let i = 0; i < count; i += 1) {
        const f = fields[i]!;
        const raw = row[f.readKey];
        position.push(
          f.recorded || f.text === true
            ? toTextPosition(f.info, raw, f.field, capabilities, adapter, !f.recorded)
            : toPosition(
                f.info,
                raw,
                f.field,
                capabilities,
                f.exact === null || !exact ? undefined : row[f.exact.key],
                adapter,
              ),
        );
      }
      return position;
    });
}

/**
 * The position of a row's value read from text: the text the driver recorded on it
 * (`recordedText`), or with `cast` the database's text of it (`castText`). A value without a text
 * that reads exactly (a session `DateStyle` changed since the probe, a parser changed) is refused,
 * never guessed; a page reads again whose cast text does not (`castText.head`), so the refusal is
 * for a text that starts as ISO output and is not.
 */
function toTextPosition(
  info: ColumnInfo,
  raw: unknown,
  field: string,
  capabilities: DialectCapabilities,
  adapter: string,
  cast: boolean,
): PositionValue {
  if (raw === null || raw === undefined) return null;
  const position = (cast ? capabilities.castText : capabilities.recordedText)?.position(raw, info);
  if (position !== undefined) return position;
  if (!cast) throw unrecorded(`field "${field}"`, adapter);
  throw new ConfigurationError(
    `${adapter} adapter: field "${field}" reads as ${JSON.stringify(String(raw).slice(0, 40))}, ` +
      "not the database's ISO text it was checked to be. Postgres: the session's DateStyle must stay ISO, " +
      'the default, while the pool is in use (`SET DateStyle` on a pooled connection changes it)',
  );
}

/** Refuses rows marked by the driver as holding a temporal value whose text it could not record. */
export function refuseUnrecorded(rows: readonly unknown[], description: string, adapter = 'sql'): void {
  if (ExactText.of(rows) === ExactText.MISSING) throw unrecorded(description, adapter);
}

function unrecorded(what: string, adapter: string): ConfigurationError {
  return new ConfigurationError(
    `${adapter} adapter: ${what} holds a value without the exact text the database sent for it. ` +
      "Postgres: the session's DateStyle must stay ISO, the default, and the type parser answer objects " +
      'while the pool is in use; or pass `exactTimestamps: false` to nameStatements. MySQL: the ' +
      "pool's typeCast must answer objects for DATETIME, TIMESTAMP and DATE columns while the pool " +
      'is in use; or give your query builder the pool without recordExactTimestamps',
  );
}

function invalid(field: string, kind: ColumnKind, adapter: string): never {
  throw new InvalidBoundError(adapter, `bound value for "${field}" does not fit its ${kind} column`);
}

/** Whether a decimal text fits `decimal(p,s)` (`type`), so a cast cannot round or clamp it. */
function fitsDecimal(text: string, type: string): boolean {
  const declared = /^(?:decimal|numeric)\((\d+)(?:,(\d+))?\)/.exec(type);
  if (!declared) return true;
  const parts = DECIMAL.exec(text)!;
  const scale = Number(declared[2] ?? 0);
  const whole = parts[1]!.replace(/^0+(?=\d)/, '');
  const fraction = (parts[2] ?? '').replace(/0+$/, '');
  return whole.length <= Number(declared[1]) - scale && fraction.length <= scale;
}

function toInteger(value: Exclude<PositionValue, null>): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return null;
}

/**
 * Checks a non-null bound value against its column (kind, type and range) and returns the
 * parameter to bind. A value the database could not compare with the column without an error or
 * a rounding (a string where a date belongs, 2147483648 or 0.5 for an `integer`, a label an enum
 * does not have) throws `InvalidBoundError` before any SQL runs.
 */
export function toParameter(
  info: ColumnInfo,
  value: Exclude<PositionValue, null>,
  field: string,
  capabilities: DialectCapabilities,
  adapter = 'sql',
): unknown {
  const kind = info.kind;
  const type = info.type ?? '';
  switch (kind) {
    case 'number': {
      if (typeof value === 'bigint') {
        return value >= INT64_MIN && value <= INT64_MAX ? value : invalid(field, kind, adapter);
      }
      if (typeof value !== 'number') return invalid(field, kind, adapter);
      if (Number.isNaN(value)) return capabilities.floatNaN ? value : invalid(field, kind, adapter);
      if (!Number.isFinite(value)) return capabilities.floatInfinity ? value : invalid(field, kind, adapter);
      if (capabilities.singlePrecision(type)) {
        // Rounding to a float4 past its largest (`3.4028235e38`, Postgres's text of it, rounds
        // to it), or to zero: the database refuses both.
        const float = Math.fround(value);
        if (!Number.isFinite(float) || (value !== 0 && float === 0)) return invalid(field, kind, adapter);
      }
      return value;
    }
    case 'integer':
    case 'bigint': {
      const range = info.type === undefined ? INT64_BOUNDS : capabilities.integerRange(type);
      if (kind === 'integer' && typeof value === 'number' && Number.isSafeInteger(value)) {
        // A safe integer compares with the bigint bounds exactly, and is its own parameter (-0 as 0).
        if (value < range[0] || value > range[1]) return invalid(field, kind, adapter);
        return value === 0 ? 0 : value;
      }
      // A REAL the column may hold binds as itself; SQLite compares it with integers by value.
      if (typeof value === 'number' && !Number.isNaN(value) && real(value, capabilities) !== null)
        return value;
      const integer = toInteger(value);
      const [min, max] = range;
      if (integer === null || integer < min || integer > max) return invalid(field, kind, adapter);
      return kind === 'bigint' ? integer : integral(integer);
    }
    case 'decimal': {
      const text = typeof value === 'string' ? value : typeof value === 'bigint' ? String(value) : null;
      if (text === null) return invalid(field, kind, adapter);
      if (DECIMAL_SPECIAL.test(text)) {
        // A `numeric(p,s)` holds NaN but no infinity.
        if (!capabilities.floatNaN || (text !== 'NaN' && /\(\d/.test(type)))
          return invalid(field, kind, adapter);
        return text;
      }
      return DECIMAL.test(text) && fitsDecimal(text, type) ? text : invalid(field, kind, adapter);
    }
    case 'string':
      if (typeof value !== 'string') return invalid(field, kind, adapter);
      if (capabilities.textRejectsNul && value.includes('\u0000')) return invalid(field, kind, adapter);
      return value;
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? value : invalid(field, kind, adapter);
    case 'enum':
      if (info.labels !== undefined) {
        return typeof value === 'string' && info.labels.includes(value)
          ? value
          : invalid(field, kind, adapter);
      }
      // Without labels (MySQL), positions are the enum's index.
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535
        ? value
        : invalid(field, kind, adapter);
    case 'date': {
      if (typeof value === 'string') {
        // SQLite: text positions are stored dates that are not canonical ISO text (microseconds,
        // a space for the `T`, years no `Date` holds); a bound string must at least start like a date.
        if (capabilities.dateStorage === 'iso-text') {
          return SQLITE_DATE_TEXT.test(value) ? value : invalid(field, kind, adapter);
        }
        // Elsewhere text positions are values no `Date` holds, of the column's type and range.
        return capabilities.temporalText(value, type) ? value : invalid(field, kind, adapter);
      }
      if (
        typeof value === 'number' &&
        !Number.isFinite(value) &&
        !Number.isNaN(value) &&
        capabilities.floatInfinity
      ) {
        return value > 0 ? 'infinity' : '-infinity';
      }
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) return invalid(field, kind, adapter);
      if (capabilities.minDateMs !== null && value.getTime() < capabilities.minDateMs)
        return invalid(field, kind, adapter);
      if (capabilities.dateStorage === 'iso-text') return value.toISOString();
      if (capabilities.dateParameter === null) return value;
      return capabilities.dateParameter(value, type) ?? invalid(field, kind, adapter);
    }
    case 'timestamp-text':
      return typeof value === 'string' && capabilities.temporalText(value, type)
        ? value
        : invalid(field, kind, adapter);
    case 'boolean':
      if (typeof value !== 'boolean') return invalid(field, kind, adapter);
      return capabilities.booleansAsIntegers ? Number(value) : value;
    case 'unsupported':
      return invalid(field, kind, adapter);
    case 'unknown':
      return unknownParameter(value, field, capabilities, adapter);
  }
}

/**
 * The parameters of a bound's values (`toParameter`; NULL stays NULL), the bound's fields checked
 * in one call. Throws `InvalidBoundError` for the first value that does not fit its column.
 *
 * @example
 * toParameters([{ field: 'id', info: { kind: 'integer', nullable: false } }], [7], sqliteCapabilities) // [7]
 */
export function toParameters(
  fields: readonly BoundField[],
  bound: readonly PositionValue[],
  capabilities: DialectCapabilities,
  adapter = 'sql',
): unknown[] {
  const parameters: unknown[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const value = bound[i] ?? null;
    const f = fields[i]!;
    parameters.push(value === null ? null : toParameter(f.info, value, f.field, capabilities, adapter));
  }
  return parameters;
}

/**
 * A value for a column the adapter knows nothing of (an expression, SQLite's typeless or
 * unrecognised columns): the database compares it as it is, but the driver must be able to bind
 * it. Booleans become 1/0 where the dialect stores them so, dates follow the dialect's storage,
 * and integers must fit 64 bits.
 */
function unknownParameter(
  value: Exclude<PositionValue, null>,
  field: string,
  capabilities: DialectCapabilities,
  adapter: string,
): unknown {
  if (typeof value === 'boolean') return capabilities.booleansAsIntegers ? Number(value) : value;
  if (typeof value === 'bigint') {
    return value >= INT64_MIN && value <= INT64_MAX ? value : invalid(field, 'unknown', adapter);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return invalid(field, 'unknown', adapter);
    return capabilities.dateStorage === 'iso-text' ? value.toISOString() : value;
  }
  return value;
}
