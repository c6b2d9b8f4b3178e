/**
 * What the adapter knows about a column's values: how positions are read from rows and which
 * cursor values may be bound against it.
 *
 * - `integer`: whole numbers within the column type's range (`smallint`, `integer`, SQLite's
 *   64-bit `INTEGER`); positions are numbers, or bigints past 2^53.
 * - `bigint`: 64-bit integers; positions are always bigints.
 * - `number`: floating point (`real`, `double`; NaN and ±Infinity where the database stores them).
 * - `decimal`: exact decimals (`numeric`, `decimal(p,s)`); positions are the database's decimal
 *   text, never a rounded JS number.
 * - `timestamp-text`: a temporal value kept as exact text (`2024-05-01 12:00:00.123456+00 AD`,
 *   `infinity`, `12:00:00.5` for a `time`): microseconds, BC years and years past 9999 survive,
 *   where a JS `Date` would round them and the keyset bound would skip or repeat rows.
 * - `enum`: an enumerated type, ordered by the database's declaration order.
 * - `unsupported`: a type the adapter cannot page exactly (json, arrays, bytea, interval...):
 *   ordering by it is refused with a `ConfigurationError`.
 * - `unknown`: an expression the catalog does not describe; values are bound as read.
 *
 * @example
 * fromKysely(query, { db, columns: { score: 'number' } })
 */
export type ColumnKind =
  | 'number'
  | 'integer'
  | 'bigint'
  | 'decimal'
  | 'string'
  | 'uuid'
  | 'date'
  | 'timestamp-text'
  | 'boolean'
  | 'enum'
  | 'unsupported'
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
  /** An enum's labels in declaration order, where the catalog lists them (Postgres). @default undefined */
  readonly labels?: readonly string[];
}
