import type { PositionValue } from '@pagewise/core';
import { MAX_TIME } from '../calendar/civil-days.js';
import type { ColumnInfo } from '../dialect/column-info.js';
import { cast, literal, type SqlPart, sql } from '../fragment/fragment.js';
import { utcTimestampText } from './timestamp-text.js';

// How Postgres temporal values become exact positions and bounds: the expressions selected for
// them, the text a `date` bound is sent as, and the positions read back from epoch seconds.

/** 4714-11-24 00:00:00 BC (Julian day 0): Postgres answers earlier timestamps with "timestamp out of range". */
export const POSTGRES_MIN_MS = -210_866_803_200_000;

/**
 * Postgres's text for an instant in UTC: `0044-03-15 12:00:00.000+00 BC`; from 4714-11-24 BC to
 * the last `Date` (275760-09-13), within `timestamp`'s range (294276 AD).
 * @example
 * postgresDateText(new Date(0)) // '1970-01-01 00:00:00.000+00'
 */
export function postgresDateText(date: Date): string | null {
  const ms = date.getTime();
  if (ms === Number.POSITIVE_INFINITY) return 'infinity';
  if (ms === Number.NEGATIVE_INFINITY) return '-infinity';
  if (!(ms >= POSTGRES_MIN_MS)) return null;
  const iso = date.toISOString();
  const match = /^([+-]\d{6}|\d{4})(-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z$/.exec(iso);
  if (!match) return null;
  const astronomical = Number(match[1]);
  const bc = astronomical < 1;
  const year = bc ? 1 - astronomical : astronomical;
  // `+00` whatever the type: a timestamp without time zone ignores it, so the wall clock is the
  // UTC one its epoch position was read as.
  return `${String(year).padStart(4, '0')}${match[2]!.replace('T', ' ')}+00${bc ? ' BC' : ''}`;
}

/**
 * Exact, DateStyle-independent text of a Postgres temporal column (`cast(x as text)` follows
 * the session's DateStyle, so `SET DateStyle = 'SQL, DMY'` would change every position):
 * `to_char` in UTC with an explicit era for timestamps; `infinity` stays `infinity`. A `date`
 * never goes through a timestamp (`to_char` has no `date` form, and `timestamptz` ends in 294276
 * where `date` goes on to 5874897): its JSON text, ISO whatever the DateStyle, with the era
 * `to_char` would write (`5874897-12-31 AD`, `0044-03-15 BC`). An expression declared
 * `timestamp-text` without a catalog type gets its JSON text as it is (ISO 8601, with its offset).
 * Millisecond timestamps (`date` kind) read their epoch as text (`1704067200.001`,
 * `Infinity`), whole seconds plus `to_char`'s milliseconds: exact, and read alike by every driver (PGlite cannot parse `infinity` or BC dates
 * into a `Date`).
 * @example
 * postgresPosition(column, { kind: 'date', nullable: false, type: 'timestamp(3) with time zone' })
 * // case when isfinite("created") then cast(cast(extract(epoch from date_trunc('second', "created")) as bigint)
 * //   + cast(to_char("created", 'MS') as numeric) / 1e3 as text) else cast(extract(epoch from "created") as text) end
 */
export function postgresPosition(column: SqlPart, info: ColumnInfo): SqlPart | null {
  const type = info.type ?? '';
  if (info.kind === 'date') {
    // `extract` answers numeric from Postgres 14 on, but a double on 13, which holds no
    // millisecond past 2^42 s (the year 141,000) and rounds 294276-12-31 23:59:59.999 into the
    // next year: whole seconds (exact in a double up to 2^53) and the milliseconds `to_char`
    // writes (it never rounds) are exact on every major.
    return sql`case when isfinite(${column}) then cast(cast(extract(epoch from date_trunc('second', ${column})) as bigint) + cast(to_char(${column}, 'MS') as numeric) / 1e3 as text) else cast(extract(epoch from ${column}) as text) end`;
  }
  if (info.kind !== 'timestamp-text') return null;
  if (type.startsWith('time')) {
    if (!type.startsWith('timestamp')) return cast(column, 'text');
    const utc = type.includes('with time zone');
    const value = utc ? sql`${column} at time zone 'UTC'` : column;
    const format = utc ? 'YYYY-MM-DD HH24:MI:SS.US"+00" BC' : 'YYYY-MM-DD HH24:MI:SS.US BC';
    return sql`coalesce(to_char(${value}, ${literal(format)}), cast(${column} as text))`;
  }
  const json = sql`to_json(${column}) #>> '{}'`;
  if (type !== 'date') return json;
  return sql`${json} || case when ${column} >= date '0001-01-01' and isfinite(${column}) then ' AD' else '' end`;
}

/** Epoch seconds as Postgres's `extract(epoch ...)` writes them. */
const EPOCH_SECONDS = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * The `timestamp-text` position of epoch seconds no `Date` holds (`extract(epoch ...)` of a
 * Postgres timestamp past 275760-09-13): the text `to_char` gives for it in UTC, which the column
 * compares with exactly.
 */
function epochText(negative: boolean, whole: string, fraction: string, type: string): string {
  let seconds = Number(whole);
  let micro = fraction.padEnd(6, '0').slice(0, 6);
  if (negative) {
    seconds = -seconds;
    // -5.25 s is 0.75 s after -6 s.
    if (Number(micro) > 0) {
      seconds -= 1;
      micro = String(1_000_000 - Number(micro)).padStart(6, '0');
    }
  }
  return utcTimestampText(0, seconds, micro, !type.includes('without'));
}

/**
 * The position of the text `postgresPosition` selects for a millisecond timestamp: `Infinity`,
 * epoch seconds (a `Date`, or past the last `Date` the `to_char` text); `undefined` for other text.
 * @example
 * postgresDateFromText('1704067200.001000', 'timestamp(3) with time zone') // 2024-01-01T00:00:00.001Z
 */
export function postgresDateFromText(text: string, type: string): PositionValue | undefined {
  if (text === 'Infinity') return Number.POSITIVE_INFINITY;
  if (text === '-Infinity') return Number.NEGATIVE_INFINITY;
  const epoch = EPOCH_SECONDS.exec(text);
  if (!epoch) return undefined;
  // Whole milliseconds from the digits, never through a rounded float.
  const fraction = epoch[3] ?? '';
  const ms = Number(epoch[2]) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3));
  if (ms <= MAX_TIME) return new Date(epoch[1] === '-' ? -ms : ms);
  return epochText(epoch[1] === '-', epoch[2]!, fraction, type);
}
