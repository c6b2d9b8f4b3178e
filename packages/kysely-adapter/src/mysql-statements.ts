import type { MysqlPool, MysqlPoolConnection, MysqlQueryResult } from 'kysely';
import { ExactText } from './exact-text.js';

/** What mysql2 hands a `typeCast` for one value of a text-protocol row. */
interface CastField {
  readonly type: string;
  string(encoding?: string): string | null;
  buffer(): unknown;
  geometry(): unknown;
}

type TypeCast = (field: CastField, next: () => unknown) => unknown;

/** The connection settings of mysql2 that decide how a date-time's text becomes a value. */
interface DateSettings {
  readonly typeCast?: boolean | TypeCast;
  readonly timezone?: string;
  readonly dateStrings?: boolean | readonly string[];
}

/** A pool connection of mysql2: Kysely's interface, plus the options form of `query`. */
type Connection = MysqlPoolConnection & {
  readonly config?: DateSettings;
  query(
    options: { sql: string; values: unknown[]; typeCast: TypeCast },
    callback: (error: unknown, result: MysqlQueryResult) => void,
  ): void;
};

/** The types mysql2 names for DATE, DATETIME and TIMESTAMP values, whose text is recorded. */
const DATE_TYPES: ReadonlySet<string> = new Set(['DATE', 'NEWDATE', 'DATETIME', 'TIMESTAMP']);
/** `+05:30`: a fixed offset, which mysql2 applies by arithmetic. */
const OFFSET = /^([+-])(\d\d):(\d\d)$/;

/**
 * The value mysql2 (3.x) makes of the text of a DATE (`date`) or a DATETIME/TIMESTAMP, read in
 * `timezone` (`local`, `Z` or a fixed offset): what the stock pool answers, built from the same text.
 */
function driverDate(text: string, date: boolean, timezone: string): Date {
  const local = timezone === 'local';
  const offset = OFFSET.exec(timezone);
  const minutes =
    offset === null ? 0 : (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  const y = Number(text.slice(0, 4));
  const mo = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  if (date) {
    if (text.length !== 10) return new Date(Number.NaN);
    if (local) return new Date(y, mo - 1, d);
    if (offset === null) return new Date(Date.UTC(y, mo - 1, d));
    return new Date(`${text}T00:00:00${timezone}`);
  }
  if (text.length < 19) return new Date(local ? text : text + timezone);
  if (mo === 0 || d === 0 || mo > 12 || d > 31) return new Date(Number.NaN);
  // mysql2 hands years 0-99 to the Date-from-string constructor (`new Date(y, ...)` adds 1900).
  if (y < 100) return new Date(local ? text : text + timezone);
  const h = Number(text.slice(11, 13));
  const mi = Number(text.slice(14, 16));
  const s = Number(text.slice(17, 19));
  const ms = text.length > 20 ? Number(text.slice(20, 23).padEnd(3, '0')) : 0;
  if (local) return new Date(y, mo - 1, d, h, mi, s, ms);
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms) - minutes * 60000);
}

/**
 * How a connection with `settings` turns a date-time's text into the value its rows hold;
 * `undefined` where the recorder does not reproduce it (no type casting, date strings, a named
 * time zone): the pool then answers exactly as it would unwrapped, and records nothing.
 */
function conversion(settings: DateSettings): ((text: string, type: string) => Date) | undefined {
  const timezone = settings.timezone ?? 'local';
  if (settings.typeCast === false || (settings.dateStrings ?? false) !== false) return undefined;
  if (timezone !== 'local' && timezone !== 'Z' && !OFFSET.test(timezone)) return undefined;
  return (text, type) => driverDate(text, type === 'DATE' || type === 'NEWDATE', timezone);
}

/** A field that answers `text` again, for a user's `typeCast` after the recorder read it. */
function replayed(field: CastField, text: string | null): CastField {
  const bytes = () =>
    text === null
      ? null
      : (globalThis as { Buffer?: { from(t: string, e: string): unknown } }).Buffer?.from(text, 'latin1');
  return { ...field, string: () => text, buffer: bytes, geometry: () => null };
}

/**
 * One query's `typeCast`: DATE, DATETIME and TIMESTAMP values keep their text in a private field
 * (`ExactText`) of the value the pool would give (its own `typeCast`, `own`, included); any other
 * value is cast as before. A value that cannot carry it (a string from `own`) marks `state`.
 */
function recordingCast(
  own: TypeCast | undefined,
  convert: (text: string, type: string) => Date,
  state: { missing: boolean },
): TypeCast {
  return (field, next) => {
    if (!DATE_TYPES.has(field.type)) return own === undefined ? next() : own(field, next);
    const text = field.string('ascii');
    if (text === null) return own === undefined ? null : own(replayed(field, null), () => null);
    const value =
      own === undefined
        ? convert(text, field.type)
        : own(replayed(field, text), () => convert(text, field.type));
    if (typeof value === 'object' && value !== null) ExactText.record(value, text);
    else state.missing = true;
    return value;
  };
}

/** `connection` with every query's DATE, DATETIME and TIMESTAMP text recorded, or itself. */
function recording(connection: Connection): MysqlPoolConnection {
  const settings = connection.config ?? {};
  const convert = conversion(settings);
  if (convert === undefined) return connection;
  const own = typeof settings.typeCast === 'function' ? settings.typeCast : undefined;
  return {
    query(sql: string, parameters: unknown[], callback?: (error: unknown, result: MysqlQueryResult) => void) {
      // A stream (Kysely's `.stream()`) runs as before: pages never read one.
      if (callback === undefined) return connection.query(sql, parameters);
      const state = { missing: false };
      const typeCast = recordingCast(own, convert, state);
      connection.query({ sql, values: parameters, typeCast }, (error, result) => {
        if (state.missing && Array.isArray(result)) ExactText.record(result, ExactText.MISSING);
        callback(error, result);
      });
    },
    release: () => connection.release(),
  } as MysqlPoolConnection;
}

/**
 * A mysql2 pool for Kysely's `MysqlDialect` that records the exact text MySQL or MariaDB sends
 * for each DATE, DATETIME and TIMESTAMP value, in a private field of the value the pool gives
 * (rows, JSON and equality are unchanged: the same `Date`s, your own `typeCast` applied), so
 * cursor pages read exact positions from it instead of selecting a `cast(... as char)` column
 * per date-time: microseconds, TIMESTAMPs in the session's time zone and years mysql2 cannot
 * read (year 1 as 1901) are kept. The adapter checks once per Kysely instance that the text is
 * recorded; otherwise it selects the column as before. Tokens are the same with and without it.
 *
 * Recorded for the pool's `timezone` `'local'` (the default), `'Z'` or a fixed offset
 * (`'+05:30'`), without `dateStrings` and with `typeCast` not `false`; a pool set otherwise
 * answers exactly as it would unwrapped. A `typeCast` of yours that answers a string for a
 * date-time makes cursor pages over it refuse with a `ConfigurationError`.
 *
 * @example
 * import { createPool } from 'mysql2';
 * const db = new Kysely<DB>({ dialect: new MysqlDialect({ pool: recordExactTimestamps(createPool(url)) }) });
 */
export function recordExactTimestamps(pool: MysqlPool): MysqlPool {
  // Kysely keeps its connection object per raw connection: answer the same wrapper each time.
  const wrapped = new WeakMap<MysqlPoolConnection, MysqlPoolConnection>();
  return {
    getConnection(callback) {
      pool.getConnection((error, connection) => {
        if (error) {
          callback(error, connection);
          return;
        }
        let mine = wrapped.get(connection);
        if (mine === undefined) {
          mine = recording(connection as Connection);
          wrapped.set(connection, mine);
        }
        callback(error, mine);
      });
    },
    end: (callback) => pool.end(callback),
  };
}
