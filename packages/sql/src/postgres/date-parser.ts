import { daysFromCivil, MAX_TIME } from '../calendar/civil-days.js';
import { digitsAt } from '../calendar/digits.js';

// A parser of Postgres's ISO output of `timestamptz`, `timestamp` and `date` that answers exactly
// what `pg`'s default parser (postgres-date 1.0.x) answers for it, read character by character
// instead of by three regular expressions, and a check that a parser is that default one.

type Parser = (text: string) => unknown;

/** Length and FNV-1a hash of the source of postgres-date 1.0.4/1.0.6 and 1.0.7's `parseDate`. */
const STOCK_SOURCES: ReadonlyArray<readonly [number, number]> = [
  [1240, 0x5270c603],
  [1272, 0x47adb791],
];

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Whether `parse` is `pg`'s default parser of timestamps and dates, postgres-date 1.0.4 to 1.0.7
 * (whose answers `parseDateText` gives), known by its source text: a parser the user set (on the
 * client, the pool's `types` or `pg.types`), a bundled or another version is not, and keeps
 * parsing every value itself.
 */
export function isStockDateParser(parse: Parser): boolean {
  if (parse.name !== 'parseDate' || parse.length !== 1) return false;
  const source = Function.prototype.toString.call(parse);
  const hash = fnv1a(source);
  return STOCK_SOURCES.some(([length, known]) => source.length === length && hash === known);
}

/**
 * What postgres-date answers for `text`, when `text` is Postgres's ISO output of a timestamp with
 * an offset (`2024-05-01 12:00:00.123456+05:30`, `+05:53:28` for local mean time), a timestamp
 * without one or a date (both in the process's local time, as postgres-date reads them), each
 * possibly ` BC`, or `±infinity` (pg's `±Infinity`). `undefined` for any other text and for
 * years 1 BC to 99 AD, where postgres-date's two-digit year handling decides: the caller then
 * asks postgres-date itself.
 *
 * @example
 * parseDateText('2024-05-01 12:00:00.5+02') // 2024-05-01T10:00:00.500Z
 * parseDateText('01.05.2024 12:00:00 CEST') // undefined: not ISO output
 */
export function parseDateText(text: string): Date | number | undefined {
  let end = text.length;
  let yearEnd = 0;
  while (yearEnd < end && yearEnd < 7) {
    const digit = text.charCodeAt(yearEnd) - 48;
    if (!(digit >= 0 && digit <= 9)) break;
    yearEnd += 1;
  }
  if (yearEnd < 4 || yearEnd > 6) {
    if (text === 'infinity') return Number.POSITIVE_INFINITY;
    if (text === '-infinity') return Number.NEGATIVE_INFINITY;
    return undefined;
  }
  const bc = end >= yearEnd + 9 && text.endsWith(' BC');
  if (bc) end -= 3;
  const digits = digitsAt(text, 0, yearEnd);
  const year = bc ? 1 - digits : digits;
  const month = digitsAt(text, yearEnd + 1, yearEnd + 3);
  const day = digitsAt(text, yearEnd + 4, yearEnd + 6);
  if (
    (year >= 0 && year <= 99) ||
    text.charCodeAt(yearEnd) !== 45 ||
    text.charCodeAt(yearEnd + 3) !== 45 ||
    month < 1 ||
    month > 12 ||
    day < 0
  )
    return undefined;
  let at = yearEnd + 6;
  if (at === end) return new Date(year, month - 1, day);
  const hour = digitsAt(text, at + 1, at + 3);
  const minute = digitsAt(text, at + 4, at + 6);
  const second = digitsAt(text, at + 7, at + 9);
  if (
    text.charCodeAt(at) !== 32 ||
    text.charCodeAt(at + 3) !== 58 ||
    text.charCodeAt(at + 6) !== 58 ||
    hour < 0 ||
    minute < 0 ||
    second < 0
  )
    return undefined;
  at += 9;
  // postgres-date's `1000 * parseFloat('.123456')`, truncated by `Date`: the first three digits.
  let ms = 0;
  if (at < end && text.charCodeAt(at) === 46) {
    let count = 0;
    for (at += 1; at < end && count < 7; at += 1, count += 1) {
      const digit = text.charCodeAt(at) - 48;
      if (!(digit >= 0 && digit <= 9)) break;
      if (count < 3) ms = ms * 10 + digit;
    }
    if (count === 0 || count > 6) return undefined;
    for (let i = count; i < 3; i += 1) ms *= 10;
  }
  if (at === end) return new Date(year, month - 1, day, hour, minute, second, ms);
  const sign = text.charCodeAt(at);
  if (sign !== 43 && sign !== 45) return undefined;
  let offset = digitsAt(text, at + 1, at + 3) * 3600;
  if (offset < 0) return undefined;
  at += 3;
  for (let unit = 60; unit >= 1 && at < end; unit /= 60) {
    const part = digitsAt(text, at + 1, at + 3);
    if (text.charCodeAt(at) !== 58 || part < 0) return undefined;
    offset += part * unit;
    at += 3;
  }
  if (at !== end) return undefined;
  // postgres-date's `Date.UTC`, clipped to the `Date` range before and after the offset moves it.
  const local =
    daysFromCivil(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + ms;
  if (!(Math.abs(local) <= MAX_TIME)) return new Date(Number.NaN);
  return new Date(local - (sign === 45 ? -offset : offset) * 1000);
}
