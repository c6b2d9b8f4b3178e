import { civilFromDays } from '../calendar/civil-days.js';

// The text `to_char` in UTC with its era writes for a Postgres timestamp: the exact position of a
// timestamp, whichever way a page read it (a `to_char` column, recorded text, epoch seconds); and
// the shape of a timestamp catalog type its readers go by.

/** A Postgres timestamp's catalog type, with or without a precision and a time zone (`without`). */
export const TIMESTAMP_TYPE = /^timestamp(?:\(\d\))? with(out)? time zone$/;

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The `timestamp-text` position of an instant (what `to_char` in UTC with its era writes): the
 * day `days` from 1970-01-01 plus `seconds` (any whole number: the days it spans move the date),
 * and the fraction's digits, to six; `+00` after the time of a `timestamptz` (`zoned`).
 *
 * @example
 * utcTimestampText(0, -1, '5', true) // '1969-12-31 23:59:59.500000+00 AD'
 */
export function utcTimestampText(days: number, seconds: number, fraction: string, zoned: boolean): string {
  const [year, month, day] = civilFromDays(days + Math.floor(seconds / 86400));
  const time = ((seconds % 86400) + 86400) % 86400;
  const bc = year < 1;
  const shown = String(bc ? 1 - year : year).padStart(4, '0');
  const clock = `${two(Math.floor(time / 3600))}:${two(Math.floor(time / 60) % 60)}:${two(time % 60)}`;
  return `${shown}-${two(month)}-${two(day)} ${clock}.${fraction.padEnd(6, '0')}${zoned ? '+00' : ''} ${bc ? 'BC' : 'AD'}`;
}

/**
 * A catalog type's shape, as readers of its text read it (`date` for any type but a timestamp); the
 * two common spellings without a regex.
 */
export function timestampShape(type: string): 'zoned' | 'local' | 'date' {
  if (type === 'timestamp with time zone') return 'zoned';
  if (type === 'timestamp without time zone') return 'local';
  const timestamp = TIMESTAMP_TYPE.exec(type);
  if (timestamp === null) return 'date';
  return timestamp[1] === undefined ? 'zoned' : 'local';
}
