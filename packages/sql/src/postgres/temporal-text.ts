import { daysFromCivil } from '../calendar/civil-days.js';
import { exactTime, isTime, onCalendar, readTemporalText, wallSeconds } from '../calendar/temporal-text.js';

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
