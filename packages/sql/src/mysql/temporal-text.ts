import { daysIn } from '../calendar/civil-days.js';
import { exactTime, isTime, readTemporalText } from '../calendar/temporal-text.js';

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
