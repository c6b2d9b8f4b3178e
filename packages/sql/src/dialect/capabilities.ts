import type { PositionValue } from '@pagewise/core';
import { genericTemporalText } from '../calendar/temporal-text.js';
import type { SqlFragment, SqlPart } from '../fragment/fragment.js';
import type { ColumnInfo, ColumnKind } from './column-info.js';
import { integerRangeByName } from './integer-ranges.js';
import type { CastText, RecordedText } from './recorded-text.js';
import type { StatementTimeout } from './statement-timeout.js';

/**
 * How a SQL dialect differs where pagination cares. Every dialect starts from `baseCapabilities`
 * and overrides only what it does differently, as Kysely's `DialectAdapterBase` does.
 *
 * @example
 * const cockroach: DialectCapabilities = { ...postgresCapabilities, name: 'cockroach', estimateCount: null };
 */
export interface DialectCapabilities {
  /** For messages. @default 'sql' */
  readonly name: string;
  /**
   * The planner turns a row-value comparison `(a, b) > ($1, $2)` into an index range; otherwise
   * the adapter writes the expanded form with a leading range bound. @default false
   */
  readonly rowValueSeek: boolean;
  /**
   * A row-value comparison is preceded by a range bound on its first term:
   * `created <= $1 AND (created, id) < ($1, $2)`. Postgres prunes partitions and postgres_fdw
   * ships a WHERE only through such a plain comparison (it prunes on neither a row comparison nor
   * ships one); on a plain table the plan is the same index range. Where the catalog says every
   * table of the query is an ordinary one (`relkind` `r`), the bound is left out: there it
   * changes no plan, and without its second default estimate (a third) Postgres finds the generic plan
   * of a named statement cheap enough to keep (`literalLimit`). @default false
   */
  readonly rowValueLeadingBound: boolean;
  /**
   * One statement reads a window's segments as `UNION ALL` arms under one ORDER BY and LIMIT,
   * each arm read in index order and merged lazily (SQLite's MERGE). The rows tied with the
   * bound on a term then get an arm of their own (`a = $1 AND b > $2`, a range on the whole
   * index), for a planner that ranges a row value on its first column only and would read and
   * drop the tied rows before the bound one by one: a page in a group of 100,000 equal values
   * costs what any page does. @default false
   */
  readonly mergedSegments: boolean;
  /**
   * A keyset statement's LIMIT is written as a number (`limit 51`, the page size Pagewise checked,
   * never text from a request) where the statement's other parameters are the bound's values
   * alone. Postgres plans a named statement (`nameStatements`) with `limit $4` anew on every
   * run: its generic plan assumes a LIMIT of a tenth of the table and never wins. With the
   * number, it keeps one generic plan after five runs, an index range whatever the bound, and
   * a page costs 30-50 us less of the server's time. SQLite plans when it prepares, so there
   * the number spoils no plan, and the bench's first pages run faster with it. A query with
   * parameters of its own (a filter whose values may be skewed) keeps `limit $n`, each page
   * planned for its values, unless `literalLimitWithValues` says values choose no plan.
   * @default false
   */
  readonly literalLimit: boolean;
  /**
   * `literalLimit` for a query with values of its own too: the database plans a statement when
   * it prepares it (SQLite), so no value of the query chooses a plan the number could spoil.
   * @default false
   */
  readonly literalLimitWithValues?: boolean;
  /**
   * The expanded form tests the bound's tie as `a <= $1 AND NOT (a = $1 AND NOT (b > $2))`, the
   * same rows as `a <= $1 AND (a < $1 OR (a = $1 AND b > $2))` in SQL's three-valued logic (the
   * leading bound holds): Postgres ranges on `a <= $1` alone either way, and estimates the negated
   * tie near all rows, where the OR took another third and made the generic plan of a named
   * statement look dearer than planning each page (`literalLimit`). Not for MySQL and MariaDB,
   * whose range optimizer reads the OR as two ranges of the index. @default false
   */
  readonly negatedTies: boolean;
  /**
   * Where NULL sorts without a `NULLS` clause: `'high'` (above every value, Postgres) or `'low'`
   * (below every value, SQLite and MySQL). @default 'low'
   */
  readonly nativeNulls: 'high' | 'low';
  /**
   * Sorting a statement's rows again (the tie-group ranking's ORDER BY over its derived table,
   * `KeysetStatement.tieGroups`) keeps the order in which the rows that tie came, as the walks
   * without a unique key find on Postgres (which returns presorted input as it is) and SQLite.
   * MariaDB breaks such ties by the temporary table's row reference (an in-memory one's row
   * address), so a tied look-ahead row could change places with a row of the page from one
   * statement to the next: a row seen twice, one never. Without this, the look-ahead row is read
   * apart (`TieGroups.lookAhead`) and sorted after the rows it ties with. @default false
   */
  readonly resortKeepsTies: boolean;
  /** Understands `ORDER BY x NULLS FIRST | LAST`; otherwise it is emulated. @default false */
  readonly nullsOrderingSyntax: boolean;
  /**
   * Indexes declare their NULL placement (Postgres: `(score DESC NULLS LAST, id DESC)`), and the
   * planner only uses one whose placement matches the ORDER BY, even where a segment's predicate
   * excludes NULLs. ORDER BY then always states each term's placement. @default false
   */
  readonly indexNullsOrder: boolean;
  /** How date columns hold their values: native date types, or ISO-8601 text (SQLite). @default 'native' */
  readonly dateStorage: 'native' | 'iso-text';
  /** Text parameters may not contain U+0000 (Postgres rejects them with an error). @default false */
  readonly textRejectsNul: boolean;
  /** The query reading the columns of `table`, or `null` when the dialect has no catalog. @default null */
  readonly catalogQuery: ((table: string, schema: string | undefined) => SqlFragment) | null;
  /**
   * The query listing the index columns of `table`, where keyset statements name the index they
   * range on: MySQL and MariaDB prefer `ref` on an equality over a range of more columns of the
   * same index, and read by it from the start of the equal rows to the bound. A NULL block
   * (`x IS NULL AND id < ?`, where NULLs are many: 5 ms at depth 900k of 1M rows, 50 ms at 9M of
   * 10M) and any page of a query filtered by equality (`tenant = ? AND score <= ? AND ...`: 1.2 ms
   * against 0.07 ms in the middle of 30,000 rows a tenant) then cost what the rows before them
   * do. With an index whose columns are the filtered ones then the ordering's, the adapter sends
   * `FORCE INDEX` with it, for a query of one table whose WHERE is equalities only (NULL blocks
   * alone when it has no WHERE). Any other WHERE may be served better by another index: its
   * statements are left to the optimizer. `null` elsewhere. @default null
   */
  readonly indexQuery: ((table: string, schema: string | undefined) => SqlFragment) | null;
  /**
   * Whether `error` says a statement named an index its table no longer has (MySQL's 1176,
   * `ER_KEY_DOES_NOT_EXITS`: a migration dropped or renamed it while the process ran). The
   * adapter then stops naming it and reads the page again without it. @default () => false
   */
  readonly indexGone: (error: unknown) => boolean;
  /** Maps a catalog type name (lower case) to a kind. @default a name-based guess (`int` -> number, ...) */
  readonly columnKind: (type: string) => ColumnKind;
  /**
   * An expression giving the exact text of a `timestamp-text` column (of catalog type `type`),
   * which the database compares with the column exactly. @default null
   */
  readonly exactTimestampText: ((column: SqlPart, type: string) => SqlPart) | null;
  /**
   * `EXPLAIN` in JSON (`explainJson`) reports the planner's row estimate, so
   * `count({ estimate: true })` can skip the scan. @default false
   */
  readonly estimateCount: boolean;
  /** Reads the estimate from the first row of the JSON `EXPLAIN`. @default () => null */
  readonly readEstimate: (row: Record<string, unknown>) => number | null;
  /**
   * The JSON `EXPLAIN` of `query`, whose rows `readEstimate` (or `statementTimeout.readEstimate`)
   * reads, for an ORM whose builder writes no EXPLAIN of its own; `null` where the dialect has
   * none. @default null
   * @example
   * postgresCapabilities.explainJson!(node(select)) // explain (format json) <select>
   */
  readonly explainJson: ((query: SqlPart) => SqlFragment) | null;
  /**
   * Whether the estimate of a query whose selection decides its rows (DISTINCT, GROUP BY, HAVING,
   * set operations) counts its groups, as Postgres' aggregate node does. MySQL's and MariaDB's
   * `EXPLAIN` has only the rows read before grouping (401 for 5 groups read by a loose index
   * scan): `'estimated'` counts such a query exactly, and past `countTimeout` that row estimate is
   * answered as an upper bound. @default false
   */
  readonly estimateGroups: boolean;
  /**
   * How `countTimeout` has the server cancel an exact count at the limit (the estimate is then
   * answered); `null` where it cannot (SQLite runs statements in-process): counts stay exact.
   * @default null
   */
  readonly statementTimeout: StatementTimeout | null;
  /**
   * `INSERT ... RETURNING <key>` answers a written row's key (Postgres, SQLite 3.35+); without it
   * (MySQL, and MariaDB as ORMs write for it) the driver's insert id does. For ORM builders that
   * ask which to write (`ModelViewSet`'s default create through `fromDrizzle`). @default false
   */
  readonly insertReturning: boolean;
  /** Earliest instant a date column accepts in a comparison without an error. @default null */
  readonly minDateMs: number | null;
  /**
   * The expression whose value is a row's position for `column`, when the column's own value is
   * not exact as the driver returns it (Postgres timestamps through `to_char`, MySQL dates as
   * text, MySQL enums as their index). `null`: the row's value is the position. @default () => null
   */
  readonly positionExpression: (column: SqlPart, info: ColumnInfo) => SqlPart | null;
  /**
   * For a driver that returns 64-bit integers as JS numbers (better-sqlite3 without safe
   * integers, mysql2 without `supportBigNumbers`): an expression giving the exact text of integers beyond 2^53, NULL otherwise.
   * @default null
   */
  readonly exactIntegerText: ((column: SqlPart) => SqlPart) | null;
  /**
   * Where a driver may record the exact text of values beside them (Postgres timestamps through
   * `nameStatements`, MySQL date-times through `recordExactTimestamps`): how positions are read from it. Probed once per database; where the
   * driver does not record it, `positionExpression` is selected as before. @default null
   */
  readonly recordedText: RecordedText | null;
  /**
   * Where the database's text of a value is as exact as its position and cheaper to write than
   * `positionExpression` (Postgres timestamps: `cast(x as text)` against `to_char`): selected
   * instead of it when the probe finds the text exact (an ISO `DateStyle`), on orderings with a
   * unique term (tie groups rank by the private column, whose text must then sort as the
   * position). @default null
   */
  readonly castText: CastText | null;
  /**
   * Wraps a bound parameter of `info`'s column where the database would otherwise compare it
   * inexactly (MySQL compares a decimal column with a string as doubles). @default null
   */
  readonly boundParameter: ((parameter: SqlPart, info: ColumnInfo) => SqlPart) | null;
  /** The range of an integer type, `[min, max]`. @default by the type's name (`smallint`: 16 bits...) */
  readonly integerRange: (type: string) => readonly [bigint, bigint];
  /** Float columns store and compare `Infinity`/`-Infinity` (and `NaN` with `floatNaN`). @default false */
  readonly floatInfinity: boolean;
  /** Float and decimal columns store and compare `NaN`. @default false */
  readonly floatNaN: boolean;
  /**
   * The text a `date` bound is sent as (`null` when the column cannot hold that instant), or
   * `null` to send `Date` objects (or ISO text with `dateStorage: 'iso-text'`). @default null
   */
  readonly dateParameter: ((date: Date, type: string) => string | null) | null;
  /**
   * The position of a text a `date` column's position expression gives, in the dialect's own
   * forms (Postgres: `Infinity`, epoch seconds), or `undefined` to read it as a date of the
   * calendar (`2024-05-01 12:00:00.5`, a UTC wall clock) or as text the column compares with
   * (`temporalText`). @default null
   */
  readonly dateFromText: ((text: string, type: string) => PositionValue | undefined) | null;
  /** Booleans are bound as `1`/`0` (the driver cannot bind `true`). @default false */
  readonly booleansAsIntegers: boolean;
  /**
   * Whether `text` is a value of the temporal column type `type` (the catalog's name, `''` when
   * none) that the database reads back as the same value, without an error: the shape it writes
   * and the type's range. Bounds of `timestamp-text` columns, and the text positions of `date`
   * ones (values no `Date` holds), are checked with it.
   * @default a date or date-time of the calendar, or a `time`, whatever its year
   */
  readonly temporalText: (text: string, type: string) => boolean;
  /**
   * Integer columns may hold REAL values (SQLite keeps a value its INTEGER affinity cannot
   * convert losslessly as a REAL: `1.5`, `2^63`, `1e300`): their positions and bounds are those
   * numbers, compared with the integers by value. @default false
   */
  readonly realsInIntegerColumns: boolean;
  /**
   * Whether a floating-point type of this name holds single precision (float4): bounds must then
   * round to a finite, non-zero float4 (Postgres's and MySQL's `real`/`float`; SQLite's `REAL` is
   * a double whatever the name). @default by the name (`real`, `float4`, `float`)
   */
  readonly singlePrecision: (type: string) => boolean;
}

/** A guess at a column's kind from its type's name, for a dialect that says nothing of its types. */
function genericKind(type: string): ColumnKind {
  if (/bigint|int8/.test(type)) return 'bigint';
  if (/int|serial/.test(type)) return 'integer';
  if (/numeric|decimal/.test(type)) return 'decimal';
  if (/real|floa|doub/.test(type)) return 'number';
  if (/char|text|clob|string/.test(type)) return 'string';
  if (/bool/.test(type)) return 'boolean';
  if (/date|time/.test(type)) return 'date';
  return 'unknown';
}

/**
 * The defaults every dialect starts from: the most conservative SQL (expanded keyset predicates,
 * emulated NULL placement, exact counts).
 * @example
 * const mine: DialectCapabilities = { ...baseCapabilities, name: 'mine', rowValueSeek: true };
 */
export const baseCapabilities: DialectCapabilities = Object.freeze({
  name: 'sql',
  rowValueSeek: false,
  literalLimit: false,
  negatedTies: false,
  rowValueLeadingBound: false,
  mergedSegments: false,
  nativeNulls: 'low',
  resortKeepsTies: false,
  nullsOrderingSyntax: false,
  indexNullsOrder: false,
  dateStorage: 'native',
  textRejectsNul: false,
  catalogQuery: null,
  indexQuery: null,
  indexGone: () => false,
  columnKind: genericKind,
  exactTimestampText: null,
  estimateCount: false,
  readEstimate: () => null,
  explainJson: null,
  estimateGroups: false,
  statementTimeout: null,
  insertReturning: false,
  minDateMs: null,
  positionExpression: () => null,
  exactIntegerText: null,
  recordedText: null,
  castText: null,
  boundParameter: null,
  integerRange: integerRangeByName,
  floatInfinity: false,
  floatNaN: false,
  dateParameter: null,
  dateFromText: null,
  booleansAsIntegers: false,
  temporalText: genericTemporalText,
  realsInIntegerColumns: false,
  singlePrecision: (type: string) => /^(real|float4|float)\b/.test(type),
});

/**
 * Dialect names Pagewise knows.
 * @example
 * const dialect: DialectName = 'postgres';
 */
export type DialectName = 'postgres' | 'sqlite' | 'mysql';
