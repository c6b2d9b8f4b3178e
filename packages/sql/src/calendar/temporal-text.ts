import { daysFromCivil, daysIn } from './civil-days.js';
import { digitsAt } from './digits.js';

// Reading dates, date-times and times as Postgres and MySQL write them (the shape both read back as
// the same value), by character codes: a bound is checked on every cursor page. Each dialect's
// range rules are in its own folder (`postgres/temporal-text.ts`, `mysql/temporal-text.ts`).

/** The fields of a date or date-time as `readTemporalText` reads them. */
export interface TemporalFields {
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
export function readTemporalText(text: string): TemporalFields | null {
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

/** Whether the fields name a day of the proleptic Gregorian calendar (`year` astronomical) and an hour to 23. */
export function onCalendar(fields: TemporalFields, year: number): boolean {
  const { month, day } = fields;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && fields.hour <= 23;
}

/** Whole seconds from 1970-01-01 00:00 of the fields' wall clock (`year` astronomical); exact past 2^53 ms. */
export function wallSeconds(fields: TemporalFields, year: number): number {
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
export function exactTime(text: string, mysql: boolean): boolean {
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

export const isTime = (type: string): boolean => type.startsWith('time') && !type.startsWith('timestamp');

/**
 * The date position of a date or date-time of the calendar as MySQL writes it (and Postgres without an offset) (`2024-05-01`,
 * `2024-05-01 12:00:00.123456`: a real day, hours to 23, minutes and seconds to 59): its wall
 * clock as UTC, to the millisecond, read by character codes in integer arithmetic. `null` for any
 * other text: the zero date and zero parts (`0000-00-00`, `2024-05-00`) name no day, and are
 * positions as text.
 */
export function wallClockDate(raw: string): Date | null {
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
