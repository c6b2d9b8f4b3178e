import { digitsAt } from './digits.js';
import { daysFromCivil } from './postgres-date-text.js';

// Which texts a temporal column accepts as a bound: the shape each database writes (and reads
// back as the same value), and the range of its type. A cursor's text that passes reaches the
// database; any other answers 404 Invalid cursor before any SQL runs, never a database error.
// And the instant MySQL's text of a day of the calendar stands for (`mysqlWallClock`), which
// positions read from the `cast(... as char)` column and from the text the driver recorded alike.

/** The fields of a date or date-time as `readTemporalText` reads them. */
interface TemporalFields {
  /** The year as written: 4 to 7 digits, no sign. */
  readonly year: number;
  readonly yearDigits: number;
  readonly month: number;
  readonly day: number;
  /** A time of day was written. */
  readonly time: boolean;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** Seconds east of UTC (`Z` is 0), `null` when none was written. */
  readonly offset: number | null;
  /** ` AD` or ` BC` was written. */
  readonly era: boolean;
  readonly bc: boolean;
}

/**
 * The fields of `text` when it is a date or date-time of the shape Postgres and MySQL write and
 * parse (`2024-05-01`, `2024-05-01 12:00:00.123456+05:30 BC`, `5874897-12-31 AD`): a year of 4 to
 * 7 digits, an optional time (` ` or `T`, a fraction of up to 6 digits), an optional UTC offset
 * (`Z`, `+HH`, `+HH:MM` or `+HHMM`, `+HH:MM:SS`; Postgres refuses offsets past 15:59:59) and an
 * optional era. Fields are read, not checked against the calendar: that is each dialect's rule.
 * Read by character codes: a bound is checked on every cursor page.
 */
function readTemporalText(text: string): TemporalFields | null {
  let end = text.length;
  let era = false;
  let bc = false;
  if (end > 3 && text.charCodeAt(end - 3) === 32) {
    const suffix = text.slice(end - 3);
    if (suffix !== ' AD' && suffix !== ' BC') return null;
    era = true;
    bc = suffix === ' BC';
    end -= 3;
  }
  let dash = 0;
  while (dash < end && dash < 8 && text.charCodeAt(dash) !== 45) dash += 1;
  if (dash < 4 || dash > 7 || end < dash + 6) return null;
  const year = digitsAt(text, 0, dash);
  const month = digitsAt(text, dash + 1, dash + 3);
  const day = digitsAt(text, dash + 4, dash + 6);
  if (year < 0 || month < 0 || day < 0 || text.charCodeAt(dash + 3) !== 45) return null;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let offset: number | null = null;
  let at = dash + 6;
  if (at < end) {
    const sep = text.charCodeAt(at);
    if ((sep !== 32 && sep !== 84) || end < at + 9) return null;
    if (text.charCodeAt(at + 3) !== 58 || text.charCodeAt(at + 6) !== 58) return null;
    hour = digitsAt(text, at + 1, at + 3);
    minute = digitsAt(text, at + 4, at + 6);
    second = digitsAt(text, at + 7, at + 9);
    if (hour < 0 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
    at += 9;
    if (text.charCodeAt(at) === 46) {
      let digits = at + 1;
      while (digits < end && digits - at <= 6 && digitsAt(text, digits, digits + 1) >= 0) digits += 1;
      if (digits === at + 1) return null;
      at = digits;
    }
    if (at < end) {
      const zone = text.charCodeAt(at);
      if (zone === 90) {
        offset = 0;
        at += 1;
      } else if (zone === 43 || zone === 45) {
        const oh = digitsAt(text, at + 1, at + 3);
        if (at + 3 > end || oh < 0 || oh > 15) return null;
        let seconds = oh * 3600;
        at += 3;
        if (at < end) {
          if (text.charCodeAt(at) === 58) at += 1;
          const om = digitsAt(text, at, at + 2);
          if (at + 2 > end || om < 0 || om > 59) return null;
          seconds += om * 60;
          at += 2;
          if (at < end) {
            const os = digitsAt(text, at + 1, at + 3);
            if (text.charCodeAt(at) !== 58 || at + 3 > end || os < 0 || os > 59) return null;
            seconds += os;
            at += 3;
          }
        }
        offset = zone === 45 ? -seconds : seconds;
      }
    }
    if (at !== end) return null;
    return { year, yearDigits: dash, month, day, time: true, hour, minute, second, offset, era, bc };
  }
  return { year, yearDigits: dash, month, day, time: false, hour, minute, second, offset, era, bc };
}

/**
 * The days of `month` (1-12) in `year` of the proleptic Gregorian calendar (astronomical years).
 *
 * @example
 * daysIn(2000, 2) // 29
 */
export function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Whether the fields name a day of the proleptic Gregorian calendar (`year` astronomical) and an hour to 23. */
function onCalendar(fields: TemporalFields, year: number): boolean {
  const { month, day } = fields;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && fields.hour <= 23;
}

/** Whole seconds from 1970-01-01 00:00 of the fields' wall clock (`year` astronomical); exact past 2^53 ms. */
function wallSeconds(fields: TemporalFields, year: number): number {
  return (
    daysFromCivil(year, fields.month, fields.day) * 86_400 +
    fields.hour * 3600 +
    fields.minute * 60 +
    fields.second
  );
}

/** A `time` within `[-maxHours, maxHours]` hours (`maxHours:00:00` at most, or `:59:59` with `mysql`). */
const EXACT_TIME = /^(-?)(\d{2,3}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;

/** Whether `text` is a `time` of Postgres (`00:00:00` to `24:00:00`) or, with `mysql`, of MySQL (`-838:59:59` to `838:59:59`). */
function exactTime(text: string, mysql: boolean): boolean {
  const parts = EXACT_TIME.exec(text);
  if (!parts) return false;
  const [sign, h, mi, s, fraction = ''] = parts.slice(1);
  const hours = Number(h);
  if (Number(mi) > 59 || Number(s) > 59) return false;
  if (mysql) return hours < 838 || (hours === 838 && mi === '59' && s === '59' && Number(fraction) === 0);
  return (
    sign === '' &&
    h!.length === 2 &&
    (hours < 24 || (hours === 24 && mi === '00' && s === '00' && Number(fraction) === 0))
  );
}

const isTime = (type: string): boolean => type.startsWith('time') && !type.startsWith('timestamp');

/** 4714-11-24 00:00:00 BC (Julian day 0), the first value of Postgres's `date`, `timestamp` and `timestamptz`. */
const POSTGRES_MIN = daysFromCivil(-4713, 11, 24) * 86_400;
/** The last whole second of `timestamp` and `timestamptz`: 294276-12-31 23:59:59(.999999). */
const POSTGRES_TIMESTAMP_MAX = daysFromCivil(294277, 1, 1) * 86_400 - 1;
/** The last day of `date`: 5874897-12-31. */
const POSTGRES_DATE_MAX = daysFromCivil(5874898, 1, 1) * 86_400 - 1;

/**
 * Whether `text` is a value of the Postgres type `type` that Postgres reads without an error and
 * without dropping a part of it: `date` (4714-11-24 BC to 5874897-12-31, no time of day),
 * `timestamp` and `timestamptz` (4714-11-24 00:00:00 BC to 294276-12-31 23:59:59.999999, as
 * written and, with an offset on a `timestamptz`, in UTC), `time` (to `24:00:00`), `±infinity`.
 * No year 0 (1 BC is `0001-01-01 BC`). A type the catalog did not give (`''`) is checked as a
 * `timestamptz`.
 *
 * @example
 * postgresTemporalText('5874897-12-31 AD', 'date') // true
 * postgresTemporalText('294276-12-31 23:00:00-05', 'timestamp with time zone') // false: 294277 in UTC
 */
export function postgresTemporalText(text: string, type: string): boolean {
  if (isTime(type)) return exactTime(text, false);
  if (text === 'infinity' || text === '-infinity') return true;
  const fields = readTemporalText(text);
  if (fields === null || fields.year < 1) return false;
  const date = type === 'date';
  if (date && fields.time) return false;
  const year = fields.bc ? 1 - fields.year : fields.year;
  if (!onCalendar(fields, year)) return false;
  const max = date ? POSTGRES_DATE_MAX : POSTGRES_TIMESTAMP_MAX;
  const local = wallSeconds(fields, year);
  if (local < POSTGRES_MIN || local > max) return false;
  // A `timestamp` ignores an offset; a `timestamptz` moves the value to UTC by it.
  if (fields.offset === null || type.includes('without')) return true;
  const utc = local - fields.offset;
  return utc >= POSTGRES_MIN && utc <= max;
}

/**
 * Whether `text` is a value of the MySQL/MariaDB type `type` as the server writes it: `date`,
 * `datetime` and `timestamp` of years 0000 to 9999 with the zero date and zero month or day the
 * default `sql_mode` stores (`0000-00-00`, `2024-05-00`), no era, no offset; a `date` without a
 * time; `time` from `-838:59:59` to `838:59:59`. A `timestamp` outside 1970-2038 compares as a
 * `datetime` does, without an error.
 *
 * @example
 * mysqlTemporalText('0000-00-00 00:00:00.000000', 'datetime(6)') // true
 * mysqlTemporalText('10000-01-01 00:00:00', 'datetime(6)') // false
 */
export function mysqlTemporalText(text: string, type: string): boolean {
  if (isTime(type)) return exactTime(text, true);
  const fields = readTemporalText(text);
  if (fields === null || fields.yearDigits !== 4 || fields.era || fields.offset !== null) return false;
  if (type.startsWith('date') && !type.startsWith('datetime') && fields.time) return false;
  const { month, day } = fields;
  if (month > 12 || day > 31 || fields.hour > 23) return false;
  // Zero parts stand for themselves; a whole date must be a day of the calendar, whose year 0
  // MySQL does not count as a leap year.
  return month === 0 || day === 0 || day <= daysIn(fields.year === 0 ? 1 : fields.year, month);
}

/**
 * The date position of MySQL's text for a date or date-time of the calendar (`2024-05-01`,
 * `2024-05-01 12:00:00.123456`: a real day, hours to 23, minutes and seconds to 59): its wall
 * clock as UTC, to the millisecond, read by character codes in integer arithmetic. `null` for any
 * other text: the zero date and zero parts (`0000-00-00`, `2024-05-00`) name no day, and are
 * positions as text.
 */
export function mysqlWallClock(raw: string): Date | null {
  const n = raw.length;
  if (n !== 10 && n !== 19 && (n < 21 || n > 26)) return null;
  if (raw.charCodeAt(4) !== 45 || raw.charCodeAt(7) !== 45) return null;
  const y = digitsAt(raw, 0, 4);
  const mo = digitsAt(raw, 5, 7);
  const d = digitsAt(raw, 8, 10);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return null;
  let h = 0;
  let mi = 0;
  let s = 0;
  let ms = 0;
  if (n > 10) {
    if (raw.charCodeAt(10) !== 32 || raw.charCodeAt(13) !== 58 || raw.charCodeAt(16) !== 58) return null;
    h = digitsAt(raw, 11, 13);
    mi = digitsAt(raw, 14, 16);
    s = digitsAt(raw, 17, 19);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return null;
    if (n > 19) {
      const fraction = digitsAt(raw, 20, n);
      if (raw.charCodeAt(19) !== 46 || fraction < 0) return null;
      // The first three digits of the fraction, as milliseconds.
      ms = n >= 23 ? Math.trunc(fraction / 10 ** (n - 23)) : fraction * 10 ** (23 - n);
    }
  }
  return new Date(((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + s * 1000 + ms);
}

/**
 * Whether `text` is a date or date-time of the proleptic Gregorian calendar (with an era, year 1
 * and later) or a `time`, for a dialect that says nothing of its ranges.
 *
 * @example
 * genericTemporalText('2024-02-30 00:00:00', 'timestamp') // false
 */
export function genericTemporalText(text: string, type: string): boolean {
  if (isTime(type)) return exactTime(text, !type.includes('without'));
  if (text === 'infinity' || text === '-infinity') return true;
  const fields = readTemporalText(text);
  if (fields === null || fields.year < 1) return false;
  return onCalendar(fields, fields.bc ? 1 - fields.year : fields.year);
}
