import type { PositionValue } from '@pagewise/core';
import { type OperationNode, type RawBuilder, sql } from 'kysely';
import type { ColumnInfo, ColumnKind } from './column-info.js';
import { mysqlRecordedText } from './mysql-recorded-text.js';
import { readsRecordedText, recordedPosition } from './postgres-recorded-text.js';
import type { RecordedText } from './recorded-text.js';
import { genericTemporalText, mysqlTemporalText, postgresTemporalText } from './temporal-text.js';

/**
 * One row of a catalog query: a column name, its declared type and whether it may hold NULL.
 * @example
 * { name: 'created', type: 'timestamp(3) with time zone', nullable: false }
 */
export interface CatalogRow {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean | number | bigint | string;
  /** An enum's labels as a JSON array, in declaration order. @default undefined */
  readonly labels?: string | null;
  /**
   * The kind of the column's table where the catalog says (Postgres `relkind`: `r` an ordinary
   * table, `p` partitioned, `f` foreign, `v` a view). @default undefined
   */
  readonly relkind?: string | null;
  /**
   * The table's primary key and unique indexes, the same on every row: a JSON array of `[index,
   * column, primary]` triples, one per key column (no `INCLUDE` column; `null` for an
   * expression), partial indexes left out. NULL where the catalog cannot say which rows are
   * unique (a view, a foreign table, a partitioned one with foreign partitions, a virtual table).
   * @default undefined
   * @example
   * '[["items_pkey","id",true],["items_category_seq","category",false],["items_category_seq","seq",false]]'
   */
  readonly uniques?: string | readonly unknown[] | null;
}

/**
 * Whether a catalog row's column may hold NULL: drivers answer the flag as a boolean, a number,
 * a bigint (better-sqlite3 with safe integers) or text.
 * @example
 * catalogNullable({ name: 'code', type: 'text', nullable: 't' }) // true
 */
export function catalogNullable(row: CatalogRow): boolean {
  const flag = row.nullable;
  return flag === true || flag === 1 || flag === 1n || flag === '1' || flag === 't';
}

/**
 * One column of one index, as `information_schema.statistics` lists it (MySQL and MariaDB name
 * the columns in upper case); `IGNORED` (MariaDB) and `IS_VISIBLE` (MySQL) where the server has them.
 */
export interface IndexColumnRow {
  readonly INDEX_NAME: string;
  readonly SEQ_IN_INDEX: number | string;
  readonly COLUMN_NAME: string | null;
  /** `A`scending, `D`escending, or NULL (not sorted). */
  readonly COLLATION: string | null;
  /** The length of a prefix index's part, NULL for the whole column. */
  readonly SUB_PART: number | string | null;
  readonly IGNORED?: string;
  readonly IS_VISIBLE?: string;
}

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
   * a page costs 30-50 us less of the server's time. A query with parameters of its own (a
   * filter whose values may be skewed) keeps `limit $n`: each page planned for its values.
   * @default false
   */
  readonly literalLimit: boolean;
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
  readonly catalogQuery: ((table: string, schema: string | undefined) => RawBuilder<CatalogRow>) | null;
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
  readonly indexQuery: ((table: string, schema: string | undefined) => RawBuilder<IndexColumnRow>) | null;
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
  readonly exactTimestampText: ((column: OperationNode, type: string) => OperationNode) | null;
  /**
   * `EXPLAIN (FORMAT JSON)` reports the planner's row estimate, so `count({ estimate: true })` can
   * skip the scan. @default false
   */
  readonly estimateCount: boolean;
  /** Reads the estimate from the first row of the JSON `EXPLAIN`. @default () => null */
  readonly readEstimate: (row: Record<string, unknown>) => number | null;
  /** Earliest instant a date column accepts in a comparison without an error. @default null */
  readonly minDateMs: number | null;
  /**
   * The expression whose value is a row's position for `column`, when the column's own value is
   * not exact as the driver returns it (Postgres timestamps through `to_char`, MySQL dates as
   * text, MySQL enums as their index). `null`: the row's value is the position. @default () => null
   */
  readonly positionExpression: (column: OperationNode, info: ColumnInfo) => OperationNode | null;
  /**
   * For a driver that returns 64-bit integers as JS numbers (better-sqlite3 without safe
   * integers, mysql2 without `supportBigNumbers`): an expression giving the exact text of integers beyond 2^53, NULL otherwise.
   * @default null
   */
  readonly exactIntegerText: ((column: OperationNode) => OperationNode) | null;
  /**
   * Where a driver may record the exact text of values beside them (Postgres timestamps through
   * `nameStatements`, MySQL date-times through `recordExactTimestamps`): how positions are read from it. Probed once per database; where the
   * driver does not record it, `positionExpression` is selected as before. @default null
   */
  readonly recordedText: RecordedText | null;
  /**
   * Wraps a bound parameter of `info`'s column where the database would otherwise compare it
   * inexactly (MySQL compares a decimal column with a string as doubles). @default null
   */
  readonly boundParameter: ((parameter: OperationNode, info: ColumnInfo) => OperationNode) | null;
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

function node(value: OperationNode): { toOperationNode(): OperationNode } {
  return { toOperationNode: () => value };
}

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

type IntegerRange = readonly [bigint, bigint];

/** The signed and unsigned ranges of an `n`-bit integer, frozen. */
function widths(n: bigint): readonly [IntegerRange, IntegerRange] {
  const signed: IntegerRange = Object.freeze([-(2n ** (n - 1n)), 2n ** (n - 1n) - 1n] as const);
  return Object.freeze([signed, Object.freeze([0n, 2n ** n - 1n] as const)] as const);
}

// Built once: every cursor page checks its integer bounds against one of them.
const BITS_8 = widths(8n);
const BITS_16 = widths(16n);
const BITS_24 = widths(24n);
const BITS_32 = widths(32n);
const BITS_64 = widths(64n);
/** MySQL's YEAR holds 1901 to 2155, and 0 for the zero year. */
const YEAR_RANGE: IntegerRange = Object.freeze([0n, 2155n] as const);

const bits = (width: readonly [IntegerRange, IntegerRange], unsigned: boolean): IntegerRange =>
  width[unsigned ? 1 : 0];

function integerRangeByName(type: string): IntegerRange {
  const unsigned = type.includes('unsigned');
  if (/tinyint|bool/.test(type)) return bits(BITS_8, unsigned);
  if (/^year/.test(type)) return YEAR_RANGE;
  if (/smallint|int2|smallserial/.test(type)) return bits(BITS_16, unsigned);
  if (/mediumint/.test(type)) return bits(BITS_24, unsigned);
  if (/bigint|int8|bigserial/.test(type)) return bits(BITS_64, unsigned);
  if (/int|serial/.test(type)) return bits(BITS_32, unsigned);
  return bits(BITS_64, unsigned);
}

/** A cast of `column` to text, for drivers that would return a rounded or parsed value. */
function castNode(column: OperationNode, to: string): OperationNode {
  return sql`cast(${node(column)} as ${sql.raw(to)})`.toOperationNode();
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
  minDateMs: null,
  positionExpression: () => null,
  exactIntegerText: null,
  recordedText: null,
  boundParameter: null,
  integerRange: integerRangeByName,
  floatInfinity: false,
  floatNaN: false,
  dateParameter: null,
  booleansAsIntegers: false,
  temporalText: genericTemporalText,
  realsInIntegerColumns: false,
  singlePrecision: (type: string) => /^(real|float4|float)\b/.test(type),
});

function postgresKind(type: string): ColumnKind {
  if (type === 'uuid') return 'uuid';
  if (type === 'boolean') return 'boolean';
  if (type === 'date' || type === 'time without time zone' || /^time\(\d\) without time zone$/.test(type)) {
    return 'timestamp-text';
  }
  const timestamp = /^timestamp(?:\((\d)\))? with(?:out)? time zone$/.exec(type);
  // Without a declared precision Postgres keeps microseconds.
  if (timestamp) return Number(timestamp[1] ?? 6) <= 3 ? 'date' : 'timestamp-text';
  if (/^(bigint|bigserial)$/.test(type)) return 'bigint';
  if (/^(smallint|integer|serial|smallserial)$/.test(type)) return 'integer';
  if (/^(real|double precision)$/.test(type)) return 'number';
  if (/^numeric(\(\d+(,-?\d+)?\))?$/.test(type)) return 'decimal';
  if (/^(text|character.*|"char"|name|citext)$/.test(type)) return 'string';
  // json, arrays, bytea, interval, timetz, geometric and network types, ...: no exact bound.
  return 'unsupported';
}

/** 4714-11-24 00:00:00 BC (Julian day 0): Postgres answers earlier timestamps with "timestamp out of range". */
const POSTGRES_MIN_MS = -210_866_803_200_000;

/**
 * Postgres's text for an instant in UTC: `0044-03-15 12:00:00.000+00 BC`; from 4714-11-24 BC to
 * the last `Date` (275760-09-13), within `timestamp`'s range (294276 AD).
 */
function postgresDateText(date: Date): string | null {
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
 * Millisecond timestamps (`date` kind) read their epoch as text (`1704067200.001000`,
 * `Infinity`): exact, and read alike by every driver (PGlite cannot parse `infinity` or BC dates
 * into a `Date`).
 */
function postgresPosition(column: OperationNode, info: ColumnInfo): OperationNode | null {
  const type = info.type ?? '';
  const col = node(column);
  if (info.kind === 'date') {
    // `extract` answers numeric from Postgres 14 on, but a double on 13, which holds no
    // millisecond past 2^42 s (the year 141,000) and rounds 294276-12-31 23:59:59.999 into the
    // next year: whole seconds (exact in a double up to 2^53) and the milliseconds `to_char`
    // writes (it never rounds) are exact on every major.
    return sql`case when isfinite(${col}) then cast(cast(extract(epoch from date_trunc('second', ${col})) as bigint) + cast(to_char(${col}, 'MS') as numeric) / 1e3 as text) else cast(extract(epoch from ${col}) as text) end`.toOperationNode();
  }
  if (info.kind !== 'timestamp-text') return null;
  if (type.startsWith('time')) {
    if (!type.startsWith('timestamp')) return castNode(column, 'text');
    const utc = type.includes('with time zone');
    const value = utc ? sql`${col} at time zone 'UTC'` : col;
    const format = utc ? 'YYYY-MM-DD HH24:MI:SS.US"+00" BC' : 'YYYY-MM-DD HH24:MI:SS.US BC';
    return sql`coalesce(to_char(${value}, ${sql.lit(format)}), cast(${col} as text))`.toOperationNode();
  }
  const json = sql`to_json(${col}) #>> '{}'`;
  if (type !== 'date') return json.toOperationNode();
  return sql`${json} || case when ${col} >= date '0001-01-01' and isfinite(${col}) then ' AD' else '' end`.toOperationNode();
}

/** A probe value: its text, the type it is cast to, the catalog type read, the position expected. */
const probed = (
  text: string,
  cast: string,
  type: string,
  position: string,
): readonly [string, string, ColumnInfo, PositionValue] => [
  text,
  cast,
  { kind: 'timestamp-text', nullable: false, type },
  position,
];
const WITH_ZONE = 'timestamp with time zone';
const WITHOUT_ZONE = 'timestamp without time zone';

/** One value of each type `postgresRecordedText` reads, with ±infinity, and the positions expected. */
const PROBE: ReadonlyArray<readonly [string, string, ColumnInfo, PositionValue]> = [
  probed('2000-01-01 00:00:00.000001+00', 'timestamptz', WITH_ZONE, '2000-01-01 00:00:00.000001+00 AD'),
  probed('2000-01-01 00:00:00.000001', 'timestamp', WITHOUT_ZONE, '2000-01-01 00:00:00.000001 AD'),
  probed('0044-03-15 BC', 'date', 'date', '0044-03-15 BC'),
  ...[
    ['timestamptz', WITH_ZONE],
    ['timestamp', WITHOUT_ZONE],
    ['date', 'date'],
  ].flatMap(([cast, type]) => ['infinity', '-infinity'].map((t) => probed(t, cast!, type!, t))),
];

/**
 * Postgres timestamps and dates read from the text Postgres sent (`nameStatements` records it):
 * the positions the `to_char`/`extract(epoch)` column gives, without selecting it. The probe asks
 * for one value of each type, so a driver that records nothing, a user's parser answering
 * strings, or a session `DateStyle` other than ISO keeps the column.
 */
const postgresRecordedText: RecordedText = Object.freeze({
  reads: (info: ColumnInfo) => readsRecordedText(info.type, info.kind),
  probe: () =>
    sql<Record<string, unknown>>`select ${sql.join(
      PROBE.map(([text, type], i) => sql`cast(${sql.lit(text)} as ${sql.raw(type)}) as ${sql.ref(`v${i}`)}`),
    )}`,
  answered: (row: Record<string, unknown>) =>
    PROBE.every(([, , info, expected], i) => postgresRecordedText.position(row[`v${i}`], info) === expected),
  position: (value: unknown, info: ColumnInfo) =>
    recordedPosition(value, info.type ?? '', info.kind === 'date' ? 'date' : 'timestamp-text'),
});

/**
 * PostgreSQL (and PGlite): row values seek, NULL sorts high, counts can be estimated.
 * @example
 * fromKysely(query, { db, dialect: postgresCapabilities })
 */
export const postgresCapabilities: DialectCapabilities = Object.freeze({
  ...baseCapabilities,
  name: 'postgres',
  rowValueSeek: true,
  literalLimit: true,
  negatedTies: true,
  rowValueLeadingBound: true,
  nativeNulls: 'high',
  nullsOrderingSyntax: true,
  indexNullsOrder: true,
  textRejectsNul: true,
  catalogQuery: (table: string, schema: string | undefined) => {
    const qualified = [schema, table]
      .filter((part) => part !== undefined)
      .map((part) => `"${part.replaceAll('"', '""')}"`)
      .join('.');
    return sql<CatalogRow>`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
      not a.attnotnull as nullable,
      (select cast(c.relkind as text) from pg_class c where c.oid = a.attrelid) as relkind,
      (select cast(json_agg(e.enumlabel order by e.enumsortorder) as text) from pg_enum e
        where e.enumtypid = a.atttypid) as labels,
      (select case when c.relkind in ('r', 'm', 'p') and not exists (
          with recursive tree(oid) as (select c.oid
            union all select h.inhrelid from pg_inherits h join tree on h.inhparent = tree.oid)
          select 1 from tree join pg_class f on f.oid = tree.oid
          where f.relkind = 'f' or (c.relkind <> 'p' and f.oid <> c.oid))
        then coalesce((select cast(json_agg(json_build_array(x.relname, k.attname, i.indisprimary,
            coalesce(cast(to_jsonb(i) ->> 'indnullsnotdistinct' as boolean), false))) as text)
          from pg_index i join pg_class x on x.oid = i.indexrelid
          cross join generate_series(0, i.indnkeyatts - 1) as n
          left join pg_attribute k on k.attrelid = i.indrelid and k.attnum = i.indkey[n] and k.attnum > 0
          where i.indrelid = c.oid and i.indisunique and i.indisvalid and i.indpred is null), '[]') end
        from pg_class c where c.oid = a.attrelid) as uniques
      from pg_attribute a
      where a.attrelid = to_regclass(${qualified}) and a.attnum > 0 and not a.attisdropped`;
  },
  columnKind: postgresKind,
  exactTimestampText: (column: OperationNode, type: string) =>
    postgresPosition(column, { kind: 'timestamp-text', nullable: true, type }) ?? column,
  positionExpression: postgresPosition,
  recordedText: postgresRecordedText,
  floatInfinity: true,
  floatNaN: true,
  dateParameter: postgresDateText,
  temporalText: postgresTemporalText,
  estimateCount: true,
  minDateMs: POSTGRES_MIN_MS,
  readEstimate: (row: Record<string, unknown>) => {
    const raw = row['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
      Plan?: { 'Plan Rows'?: unknown };
    }>;
    const rows = plan[0]?.Plan?.['Plan Rows'];
    return typeof rows === 'number' ? Math.round(rows) : null;
  },
});

function sqliteKind(type: string): ColumnKind {
  if (/bigint|int8/.test(type)) return 'bigint';
  if (/int/.test(type)) return 'integer';
  // A time of day is text that sorts as text; only date types hold instants.
  if (/char|clob|text|^time\b/.test(type)) return 'string';
  if (/date|time/.test(type)) return 'date';
  if (/real|floa|doub|numeric|decimal/.test(type)) return 'number';
  if (/bool/.test(type)) return 'boolean';
  if (/blob/.test(type)) return 'unsupported';
  // A column without a declared type holds any value; SQLite compares every value with every other.
  return 'unknown';
}

/**
 * SQLite: row values seek (3.15+), NULL sorts low, dates are ISO-8601 text.
 * @example
 * fromKysely(query, { db, dialect: 'sqlite' })
 */
export const sqliteCapabilities: DialectCapabilities = Object.freeze({
  ...baseCapabilities,
  name: 'sqlite',
  rowValueSeek: true,
  mergedSegments: true,
  nullsOrderingSyntax: true,
  dateStorage: 'iso-text',
  catalogQuery: (table: string) =>
    sql<CatalogRow>`select t.name, lower(t.type) as type, (t."notnull" = 0 and t.pk = 0) as nullable,
      (select case when exists (select 1 from sqlite_master m where m.type = 'table'
          and m.name = ${table} collate nocase and m.sql not like 'create virtual%'
          union all select 1 from sqlite_temp_master m where m.type = 'table'
          and m.name = ${table} collate nocase and m.sql not like 'create virtual%')
        then (select json_group_array(json_array(u.idx, u.col, json(u.pk))) from (
          select l.name as idx, i.name as col, case when l.origin = 'pk' then 'true' else 'false' end as pk
            from pragma_index_list(${table}) as l, pragma_index_info(l.name) as i
            where l."unique" = 1 and l.partial = 0
          union all select 'PRIMARY KEY', p.name, 'true' from pragma_table_info(${table}) as p where p.pk > 0) as u)
        end) as uniques
      from pragma_table_info(${table}) as t`,
  columnKind: sqliteKind,
  // Every INTEGER is 64-bit, whatever the declared name.
  integerRange: (type: string) => bits(BITS_64, type.includes('unsigned')),
  exactIntegerText: (column: OperationNode) => {
    const col = node(column);
    // An integer its double differs from is one the driver rounds: only those need their text
    // (reals equal themselves; SQLite compares integers with reals exactly).
    return sql`case when cast(${col} as real) <> ${col} then cast(${col} as text) end`.toOperationNode();
  },
  floatInfinity: true,
  booleansAsIntegers: true,
  realsInIntegerColumns: true,
  singlePrecision: () => false,
});

function mysqlKind(type: string): ColumnKind {
  if (/^tinyint\(1\)/.test(type)) return 'integer';
  if (/^enum\(/.test(type)) return 'enum';
  if (type === 'uuid') return 'uuid';
  if (/^(time)(\(\d\))?$/.test(type)) return 'timestamp-text';
  const fractional = /^(datetime|timestamp)\((\d)\)/.exec(type);
  if (fractional) return Number(fractional[2]) <= 3 ? 'date' : 'timestamp-text';
  if (/^(date|datetime|timestamp)$/.test(type)) return 'date';
  if (/^(year|(tiny|small|medium|big)?int)\b/.test(type)) return /^bigint/.test(type) ? 'bigint' : 'integer';
  if (/^(decimal|numeric)\b/.test(type)) return 'decimal';
  if (/^(float|double|real)\b/.test(type)) return 'number';
  if (/^(var)?char\(|^(tiny|medium|long)?text$/.test(type)) return 'string';
  // blob, binary, bit, set, json (MySQL), geometry, ...: no exact bound.
  return 'unsupported';
}

/** MySQL's text for an instant as a UTC wall clock (`0001-01-01 00:00:00.000`), years 0 to 9999. */
function mysqlDateText(date: Date): string | null {
  // `YYYY-MM-DDTHH:mm:ss.sssZ`, 24 characters for years 0 to 9999 (others are `±YYYYYY-...`).
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 23)}` : null;
}

/**
 * Positions MySQL drivers would misread or compare otherwise: dates as text (mysql2 reads year
 * 1 as 1901), enums as their index (ORDER BY follows the declaration, `>` on labels the alphabet),
 * `float`s as doubles (the server writes a float with 6 digits, `3.40282e38` for the largest and
 * for the one below it, where 9 tell every float apart; its double is the float exactly).
 */
function mysqlPosition(column: OperationNode, info: ColumnInfo): OperationNode | null {
  if (info.kind === 'date' || info.kind === 'timestamp-text') return castNode(column, 'char');
  if (info.kind === 'enum') return sql`${node(column)} + 0`.toOperationNode();
  if (info.kind === 'number' && /^float\b/.test(info.type ?? '')) return castNode(column, 'double');
  return null;
}

/** MySQL compares a decimal column with a string as doubles, and a float column with a double inexactly. */
function mysqlBoundParameter(parameter: OperationNode, info: ColumnInfo): OperationNode {
  const type = info.type ?? '';
  const decimal = /^(?:decimal|numeric)(\(\d+(?:,\d+)?\))?/.exec(type);
  if (info.kind === 'decimal' && decimal) {
    return castNode(parameter, `decimal${decimal[1] ?? '(10,0)'}`);
  }
  if (info.kind === 'number' && /^float\b/.test(type)) return castNode(parameter, 'float');
  return parameter;
}

/**
 * MySQL and MariaDB: MariaDB scans the whole index for a row-value comparison (EXPLAIN type
 * `index`, no possible keys), so the expanded form is used; NULL sorts low; no `NULLS` clause.
 * @example
 * fromKysely(query, { db, dialect: 'mysql' })
 */
export const mysqlCapabilities: DialectCapabilities = Object.freeze({
  ...baseCapabilities,
  name: 'mysql',
  catalogQuery: (table: string, schema: string | undefined) =>
    sql<CatalogRow>`select column_name as name, lower(column_type) as type, (is_nullable = 'YES') as nullable,
      (select case when t.table_type = 'BASE TABLE' then coalesce(
          (select json_arrayagg(json_array(s.index_name, s.column_name, s.index_name = 'PRIMARY')) from information_schema.statistics s
            where s.table_schema = t.table_schema and s.table_name = t.table_name and s.non_unique = 0),
          json_array()) end
        from information_schema.tables t
        where t.table_schema = coalesce(${schema ?? null}, database()) and t.table_name = ${table}) as uniques
      from information_schema.columns
      where table_schema = coalesce(${schema ?? null}, database()) and table_name = ${table}`,
  indexGone: (error: unknown) => (error as { errno?: unknown } | null)?.errno === 1176,
  indexQuery: (table: string, schema: string | undefined) =>
    sql<IndexColumnRow>`select * from information_schema.statistics
      where table_schema = coalesce(${schema ?? null}, database()) and table_name = ${table}`,
  columnKind: mysqlKind,
  exactTimestampText: (column: OperationNode) => castNode(column, 'char'),
  positionExpression: mysqlPosition,
  recordedText: mysqlRecordedText,
  // mysql2 without `supportBigNumbers` rounds BIGINTs past 2^53; their text is exact.
  exactIntegerText: (column: OperationNode) => {
    const col = node(column);
    return sql`case when ${col} not between -9007199254740991 and 9007199254740991 then cast(${col} as char) end`.toOperationNode();
  },
  boundParameter: mysqlBoundParameter,
  dateParameter: mysqlDateText,
  temporalText: mysqlTemporalText,
});

/**
 * Dialect names `fromKysely` recognises.
 * @example
 * const dialect: DialectName = 'postgres';
 */
export type DialectName = 'postgres' | 'sqlite' | 'mysql';

/**
 * The capabilities of a named dialect.
 * @example
 * dialectCapabilities.mysql.rowValueSeek // false
 */
export const dialectCapabilities: Readonly<Record<DialectName, DialectCapabilities>> = Object.freeze({
  postgres: postgresCapabilities,
  sqlite: sqliteCapabilities,
  mysql: mysqlCapabilities,
});

/**
 * Recognises the dialect from how it compiles `"p" = $1`: identifier quotes and parameter
 * placeholders tell Postgres, SQLite and MySQL apart without depending on adapter classes
 * (PGlite and D1 dialects reuse Kysely's adapters under other names).
 *
 * @example
 * capabilitiesFromProbe('select "p" = $1 as "x"') // postgresCapabilities
 */
export function capabilitiesFromProbe(compiledProbe: string): DialectCapabilities {
  if (compiledProbe.includes('"p" = $1')) return postgresCapabilities;
  if (compiledProbe.includes('"p" = ?')) return sqliteCapabilities;
  if (compiledProbe.includes('`p` = ?')) return mysqlCapabilities;
  return baseCapabilities;
}
