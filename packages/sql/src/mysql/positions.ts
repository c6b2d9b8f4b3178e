import type { ColumnInfo } from '../dialect/column-info.js';
import { cast, type SqlPart, sql } from '../fragment/fragment.js';

/**
 * MySQL's text for an instant as a UTC wall clock (`0001-01-01 00:00:00.000`), years 0 to 9999.
 * @example
 * mysqlDateText(new Date(0)) // '1970-01-01 00:00:00.000'
 */
export function mysqlDateText(date: Date): string | null {
  // `YYYY-MM-DDTHH:mm:ss.sssZ`, 24 characters for years 0 to 9999 (others are `±YYYYYY-...`).
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 23)}` : null;
}

/**
 * Positions MySQL drivers would misread or compare otherwise: dates as text (mysql2 reads year
 * 1 as 1901), enums as their index (ORDER BY follows the declaration, `>` on labels the alphabet),
 * `float`s as doubles (the server writes a float with 6 digits, `3.40282e38` for the largest and
 * for the one below it, where 9 tell every float apart; its double is the float exactly).
 * @example
 * mysqlPosition(column, { kind: 'enum', nullable: false }) // `status` + 0
 */
export function mysqlPosition(column: SqlPart, info: ColumnInfo): SqlPart | null {
  if (info.kind === 'date' || info.kind === 'timestamp-text') return cast(column, 'char');
  if (info.kind === 'enum') return sql`${column} + 0`;
  if (info.kind === 'number' && /^float\b/.test(info.type ?? '')) return cast(column, 'double');
  return null;
}

/**
 * A bound as the column compares with it exactly: MySQL compares a decimal column with a string
 * as doubles, and a float column with a double inexactly.
 * @example
 * mysqlBoundParameter(slot, { kind: 'decimal', nullable: false, type: 'decimal(12,4)' }) // cast(? as decimal(12,4))
 */
export function mysqlBoundParameter(parameter: SqlPart, info: ColumnInfo): SqlPart {
  const type = info.type ?? '';
  const decimal = /^(?:decimal|numeric)(\(\d+(?:,\d+)?\))?/.exec(type);
  if (info.kind === 'decimal' && decimal) {
    return cast(parameter, `decimal${decimal[1] ?? '(10,0)'}`);
  }
  if (info.kind === 'number' && /^float\b/.test(type)) return cast(parameter, 'float');
  return parameter;
}

/**
 * The exact text of a BIGINT mysql2 rounds (without `supportBigNumbers`, past 2^53), NULL otherwise.
 * @example
 * mysqlExactIntegerText(column) // case when `id` not between -9007199254740991 and 9007199254740991 then cast(`id` as char) end
 */
export function mysqlExactIntegerText(column: SqlPart): SqlPart {
  return sql`case when ${column} not between -9007199254740991 and 9007199254740991 then cast(${column} as char) end`;
}
