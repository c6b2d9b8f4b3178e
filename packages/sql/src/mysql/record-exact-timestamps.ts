import { daysFromCivil } from '../calendar/civil-days.js';
import { ExactText } from '../codec/exact-text.js';
import type { Mysql2Pool, Mysql2PoolConnection, Mysql2QueryResult } from './mysql2-types.js';

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
  readonly nestTables?: unknown;
  readonly rowsAsArray?: boolean;
  readonly infileStreamFactory?: unknown;
}

/** The options of one mysql2 query, as its `createQuery` gathers them. */
interface QueryOptions {
  readonly sql: string;
  readonly values: unknown[];
  readonly dateStrings?: true;
  readonly typeCast?: TypeCast;
  readonly rowsAsArray?: boolean | undefined;
  readonly infileStreamFactory?: unknown;
}

/** A column of a result as mysql2 describes it. */
interface ResultField {
  readonly name: string;
  readonly columnType: number;
}

type Callback = (error: unknown, result: Mysql2QueryResult, fields?: unknown) => void;

/** A pool connection of mysql2, with the options form of `query` and what Kysely 0.29 cancels with. */
type Connection = Mysql2PoolConnection & {
  readonly config?: DateSettings;
  /** mysql2's connection id, which Kysely 0.29 kills (`kill query`) to cancel an aborted query. */
  readonly threadId?: number | null;
  destroy?(): void;
  query(options: QueryOptions, callback: Callback): void;
  /** A query command made beforehand (`mysql.createQuery`), which mysql2 runs as it is. */
  query(command: object): void;
};

/** mysql2's query command: what its `createQuery` makes of the options it gathers. */
type QueryCommand = new (options: QueryOptions, callback: Callback) => object;

/**
 * mysql2's query command class, found through the connection's `createQuery` (public in mysql2,
 * `mysql.createQuery`) and checked to keep the options it is given: a command built from an
 * options object written here spares mysql2's `createQuery` the object spread it makes of a
 * query given as options (~5 us a query). `undefined` where the driver differs: queries then go
 * as options.
 */
function queryCommand(connection: Connection): QueryCommand | undefined {
  try {
    const create = (connection.constructor as { createQuery?: unknown } | undefined)?.createQuery;
    if (typeof create !== 'function') return undefined;
    const made = create('select 1', [], noop, {}) as { constructor?: unknown } | null;
    const Command = made?.constructor;
    if (typeof Command !== 'function') return undefined;
    const options: QueryOptions = { sql: 'select 1', values: [], dateStrings: true };
    const check = new (Command as QueryCommand)(options, noop) as Record<string, unknown>;
    const kept = check.sql === 'select 1' && check._queryOptions === options && check.onResult === noop;
    return kept ? (Command as QueryCommand) : undefined;
  } catch {
    return undefined;
  }
}

function noop(): void {}

/** The types mysql2 names for DATE, DATETIME and TIMESTAMP values, whose text is recorded. */
const DATE_TYPES: ReadonlySet<string> = new Set(['DATE', 'NEWDATE', 'DATETIME', 'TIMESTAMP']);
/** Their type codes in a result's column definitions: TIMESTAMP, DATE, DATETIME, NEWDATE. */
const DATE_CODES: ReadonlyMap<number, string> = new Map([
  [7, 'TIMESTAMP'],
  [10, 'DATE'],
  [12, 'DATETIME'],
  [14, 'NEWDATE'],
]);
/** `+05:30`: a fixed offset, which mysql2 applies by arithmetic. */
const OFFSET = /^([+-])(\d\d):(\d\d)$/;

/** The number the characters of `text` from `start` to `end` write, read as mysql2 reads them. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i += 1) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

/** A pool's `timezone`: `local`, or `Z` and fixed offsets with their minutes east of UTC. */
interface Zone {
  readonly name: string;
  readonly local: boolean;
  readonly minutes: number;
}

/**
 * The value mysql2 (3.x) makes of the text of a DATE (`date`) or a DATETIME/TIMESTAMP, read in
 * `zone`: what the stock pool answers, built from the same text.
 */
function driverDate(text: string, date: boolean, zone: Zone): Date {
  const { local, name } = zone;
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 7);
  const d = digits(text, 8, 10);
  if (date) {
    if (text.length !== 10) return new Date(Number.NaN);
    if (local) return new Date(y, mo - 1, d);
    if (name === 'Z') return new Date(Date.UTC(y, mo - 1, d));
    return new Date(`${text}T00:00:00${name}`);
  }
  if (text.length < 19) return new Date(local ? text : text + name);
  if (mo === 0 || d === 0 || mo > 12 || d > 31) return new Date(Number.NaN);
  // mysql2 hands years 0-99 to the Date-from-string constructor (`new Date(y, ...)` adds 1900).
  if (y < 100) return new Date(local ? text : text + name);
  const h = digits(text, 11, 13);
  const mi = digits(text, 14, 16);
  const s = digits(text, 17, 19);
  // The first three digits of the fraction, as mysql2 reads them.
  let ms = 0;
  for (let i = 20, scale = 100; i < text.length && scale >= 1; i += 1, scale /= 10) {
    ms += (text.charCodeAt(i) - 48) * scale;
  }
  if (local) return new Date(y, mo - 1, d, h, mi, s, ms);
  // `Date.UTC(y, mo - 1, d, h, mi, s, ms)` in integer arithmetic (years 100 to 9999, months 1 to
  // 12, days and times read linearly as Date.UTC reads them): a third of the cost per value.
  const minutes = (daysFromCivil(y, mo, d) * 24 + h) * 60 + mi - zone.minutes;
  return new Date(minutes * 60000 + s * 1000 + ms);
}

/**
 * How a connection with `settings` turns a date-time's text into the value its rows hold;
 * `undefined` where the recorder does not reproduce it (no type casting, date strings, a named
 * time zone): the pool then answers exactly as it would unwrapped, and records nothing.
 */
function conversion(settings: DateSettings): ((text: string, type: string) => Date) | undefined {
  const name = settings.timezone ?? 'local';
  if (settings.typeCast === false || (settings.dateStrings ?? false) !== false) return undefined;
  const offset = OFFSET.exec(name);
  if (name !== 'local' && name !== 'Z' && offset === null) return undefined;
  const minutes =
    offset === null ? 0 : (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  const zone: Zone = { name, local: name === 'local', minutes };
  return (text, type) => driverDate(text, type === 'DATE' || type === 'NEWDATE', zone);
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

/**
 * Rows read with date strings, given the values the pool would have made of them, each with its
 * text recorded: the date columns of `fields`, by name, as mysql2 keys plain rows. Results of
 * several statements come as one array per statement.
 */
function restoreDates(result: unknown, fields: unknown, convert: (text: string, type: string) => Date): void {
  if (!Array.isArray(result) || !Array.isArray(fields)) return;
  // Several statements: a list of column lists, `undefined` for a statement without rows.
  if (fields.some((f) => f === undefined || Array.isArray(f))) {
    for (let i = 0; i < result.length; i += 1) restoreDates(result[i], fields[i], convert);
    return;
  }
  const names: string[] = [];
  const types: string[] = [];
  for (const field of fields as ResultField[]) {
    const type = DATE_CODES.get(field.columnType);
    if (type === undefined) continue;
    // Two columns of one name fill one key: the last one's value is the row's.
    const at = names.indexOf(field.name);
    if (at >= 0) types[at] = type;
    else {
      names.push(field.name);
      types.push(type);
    }
  }
  if (names.length === 0) return;
  for (let r = 0; r < result.length; r += 1) {
    const row = result[r] as Record<string, unknown>;
    for (let i = 0; i < names.length; i += 1) {
      const text = row[names[i]!];
      if (typeof text !== 'string') continue;
      const value = convert(text, types[i]!);
      ExactText.record(value, text);
      row[names[i]!] = value;
    }
  }
}

/** `connection` with every query's DATE, DATETIME and TIMESTAMP text recorded, or itself. */
function recording(connection: Connection): Mysql2PoolConnection {
  const settings = connection.config ?? {};
  const convert = conversion(settings);
  if (convert === undefined) return connection;
  const own = typeof settings.typeCast === 'function' ? settings.typeCast : undefined;
  // Without a typeCast of the user's, mysql2 reads date-times as text and they become the pool's
  // values afterwards: a typeCast per value costs mysql2 more than the column it spares.
  const plain = own === undefined && !settings.nestTables && !settings.rowsAsArray;
  const Command = plain ? queryCommand(connection) : undefined;
  return {
    query(sql: string, parameters: unknown[], callback?: Callback) {
      // A stream (Kysely's `.stream()`) runs as before: pages never read one.
      if (callback === undefined) return connection.query(sql, parameters);
      if (plain) {
        const options: QueryOptions = {
          rowsAsArray: settings.rowsAsArray,
          infileStreamFactory: settings.infileStreamFactory,
          sql,
          values: parameters,
          dateStrings: true,
        };
        const restored: Callback = (error, result, fields) => {
          try {
            if (!error) restoreDates(result, fields, convert);
          } catch (failure) {
            // A result of a shape mysql2 never gave so far: an error, never strings for Dates.
            callback(failure, result);
            return;
          }
          callback(error, result);
        };
        if (Command === undefined) connection.query(options, restored);
        else connection.query(new Command(options, restored));
        return;
      }
      const state = { missing: false };
      const typeCast = recordingCast(own, convert, state);
      connection.query({ sql, values: parameters, typeCast }, (error, result) => {
        if (state.missing && Array.isArray(result)) ExactText.record(result, ExactText.MISSING);
        callback(error, result);
      });
    },
    release: () => connection.release(),
    // What Kysely 0.29 cancels an aborted query with: the connection's id, its config for a
    // control connection, and `destroy` to drop a killed session from the pool.
    get threadId() {
      return connection.threadId;
    },
    config: connection.config,
    destroy: () => connection.destroy?.(),
  } as Mysql2PoolConnection;
}

/**
 * A mysql2 pool (for Kysely's `MysqlDialect`, or any query builder that checks connections out of it) that records the exact text MySQL or MariaDB sends
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
export function recordExactTimestamps(pool: Mysql2Pool): Mysql2Pool {
  // Kysely keeps its connection object per raw connection: answer the same wrapper each time.
  const wrapped = new WeakMap<Mysql2PoolConnection, Mysql2PoolConnection>();
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
