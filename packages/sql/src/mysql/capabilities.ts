import { baseCapabilities, type DialectCapabilities } from '../dialect/capabilities.js';
import { type IntegerBounds, integerRangeByName } from '../dialect/integer-ranges.js';
import { cast, type SqlPart, sql } from '../fragment/fragment.js';
import { mysqlCatalogQuery, mysqlIndexGone, mysqlIndexQuery } from './catalog.js';
import { mysqlKind } from './column-kinds.js';
import { mysqlEstimate } from './estimate.js';
import { mysqlBoundParameter, mysqlDateText, mysqlExactIntegerText, mysqlPosition } from './positions.js';
import { mysqlDriverText, mysqlRecordedText } from './recorded-text.js';
import { mysqlStatementTimeout } from './statement-timeout.js';
import { mysqlTemporalText } from './temporal-text.js';

/** MySQL's YEAR holds 1901 to 2155, and 0 for the zero year. */
const YEAR_RANGE: IntegerBounds = Object.freeze([0n, 2155n] as const);

/**
 * MySQL and MariaDB: MariaDB scans the whole index for a row-value comparison (EXPLAIN type
 * `index`, no possible keys), so the expanded form is used; NULL sorts low; no `NULLS` clause;
 * counts are estimated from `EXPLAIN FORMAT=JSON`.
 * @example
 * ({ ...mysqlCapabilities, indexQuery: null }) // statements that never name an index
 */
export const mysqlCapabilities: DialectCapabilities = Object.freeze({
  ...baseCapabilities,
  name: 'mysql',
  catalogQuery: mysqlCatalogQuery,
  indexGone: mysqlIndexGone,
  indexQuery: mysqlIndexQuery,
  columnKind: mysqlKind,
  integerRange: (type: string) => (/^year/.test(type) ? YEAR_RANGE : integerRangeByName(type)),
  exactTimestampText: (column: SqlPart) => cast(column, 'char'),
  positionExpression: mysqlPosition,
  recordedText: mysqlRecordedText,
  // mysql2 without `supportBigNumbers` rounds BIGINTs past 2^53; their text is exact.
  exactIntegerText: mysqlExactIntegerText,
  boundParameter: mysqlBoundParameter,
  dateParameter: mysqlDateText,
  temporalText: mysqlTemporalText,
  // EXPLAIN's rows times `filtered`, as Postgres' planner estimates the query's rows.
  estimateCount: true,
  readEstimate: mysqlEstimate,
  statementTimeout: mysqlStatementTimeout,
  // The JSON EXPLAIN whose rows `readEstimate` reads, for the Drizzle adapter's estimates.
  explainJson: (query: SqlPart) => sql`explain format=json ${query}`,
});

/**
 * MySQL/MariaDB over a driver that hands temporal values over as the text the server sent
 * (Drizzle's mysql2 session): positions read from that text (`mysqlDriverText`), no
 * `cast(... as char)` column.
 */
export const mysqlTextCapabilities: DialectCapabilities = Object.freeze({
  ...mysqlCapabilities,
  recordedText: mysqlDriverText,
});
