import { type OperationNode, type RawBuilder, sql } from 'kysely';

/**
 * What the adapter knows about a column's values: how positions are read from rows and which
 * cursor values may be bound against it.
 *
 * - `timestamp-text`: a timestamp finer than milliseconds; positions are its exact text as the
 *   database writes it (`2024-05-01 12:00:00.1231+00`), because a JS `Date` would round it and
 *   the keyset bound would then skip or repeat rows.
 *
 * @example
 * fromKysely(query, { db, columns: { score: 'number' } })
 */
export type ColumnKind =
  | 'number'
  | 'bigint'
  | 'string'
  | 'uuid'
  | 'date'
  | 'timestamp-text'
  | 'boolean'
  | 'unknown';

/**
 * A column as the catalog describes it.
 * @example
 * { kind: 'date', nullable: true }
 */
export interface ColumnInfo {
  readonly kind: ColumnKind;
  readonly nullable: boolean;
  /** The catalog's type name, lower case. @default undefined */
  readonly type?: string;
}

/**
 * One row of a catalog query: a column name, its declared type and whether it may hold NULL.
 * @example
 * { name: 'created', type: 'timestamp(3) with time zone', nullable: false }
 */
export interface CatalogRow {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean | number | string;
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
}

function node(value: OperationNode): { toOperationNode(): OperationNode } {
  return { toOperationNode: () => value };
}

function genericKind(type: string): ColumnKind {
  if (/bigint|int8/.test(type)) return 'bigint';
  if (/int|real|floa|doub|numeric|decimal|serial/.test(type)) return 'number';
  if (/char|text|clob|enum|string/.test(type)) return 'string';
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
  nativeNulls: 'low',
  nullsOrderingSyntax: false,
  indexNullsOrder: false,
  dateStorage: 'native',
  textRejectsNul: false,
  catalogQuery: null,
  columnKind: genericKind,
  exactTimestampText: null,
  estimateCount: false,
  readEstimate: () => null,
  minDateMs: null,
});

function postgresKind(type: string): ColumnKind {
  if (type === 'uuid') return 'uuid';
  if (type === 'boolean') return 'boolean';
  if (type === 'date') return 'date';
  const timestamp = /^timestamp(?:\((\d)\))? with(?:out)? time zone$/.exec(type);
  // Without a declared precision Postgres keeps microseconds.
  if (timestamp) return Number(timestamp[1] ?? 6) <= 3 ? 'date' : 'timestamp-text';
  if (/^(bigint|bigserial)$/.test(type)) return 'bigint';
  if (/^(smallint|integer|real|double precision|numeric.*|serial|smallserial)$/.test(type)) return 'number';
  if (/^(text|character.*|"char"|name|citext)$/.test(type)) return 'string';
  return 'unknown';
}

/**
 * PostgreSQL (and PGlite): row values seek, NULL sorts high, counts can be estimated.
 * @example
 * fromKysely(query, { db, dialect: postgresCapabilities })
 */
export const postgresCapabilities: DialectCapabilities = Object.freeze({
  ...baseCapabilities,
  name: 'postgres',
  rowValueSeek: true,
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
      not a.attnotnull as nullable from pg_attribute a
      where a.attrelid = to_regclass(${qualified}) and a.attnum > 0 and not a.attisdropped`;
  },
  columnKind: postgresKind,
  // The type's own output: three times cheaper than to_char, and for timestamptz it carries the
  // UTC offset, so the hour a DST change repeats stays unambiguous.
  exactTimestampText: (column: OperationNode) => sql`cast(${node(column)} as text)`.toOperationNode(),
  estimateCount: true,
  // 4713 BC: Postgres answers earlier timestamps with "timestamp out of range".
  minDateMs: -210_866_803_200_000,
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
  if (/int/.test(type)) return 'number';
  if (/char|clob|text/.test(type)) return 'string';
  if (/date|time/.test(type)) return 'date';
  if (/real|floa|doub|numeric|decimal/.test(type)) return 'number';
  if (/bool/.test(type)) return 'boolean';
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
  nullsOrderingSyntax: true,
  dateStorage: 'iso-text',
  catalogQuery: (table: string) =>
    sql<CatalogRow>`select name, lower(type) as type, ("notnull" = 0 and pk = 0) as nullable
      from pragma_table_info(${table})`,
  columnKind: sqliteKind,
});

function mysqlKind(type: string): ColumnKind {
  if (/^tinyint\(1\)/.test(type)) return 'number';
  const fractional = /^(datetime|timestamp)\((\d)\)/.exec(type);
  if (fractional) return Number(fractional[2]) <= 3 ? 'date' : 'timestamp-text';
  return genericKind(type);
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
    sql<CatalogRow>`select column_name as name, lower(column_type) as type, (is_nullable = 'YES') as nullable
      from information_schema.columns
      where table_schema = coalesce(${schema ?? null}, database()) and table_name = ${table}`,
  columnKind: mysqlKind,
  exactTimestampText: (column: OperationNode) => sql`cast(${node(column)} as char)`.toOperationNode(),
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
