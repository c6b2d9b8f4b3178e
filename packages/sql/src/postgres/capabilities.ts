import { baseCapabilities, type DialectCapabilities } from '../dialect/capabilities.js';
import { type SqlPart, sql } from '../fragment/fragment.js';
import { postgresCatalogQuery, postgresEstimate } from './catalog.js';
import { postgresKind } from './column-kinds.js';
import { POSTGRES_MIN_MS, postgresDateFromText, postgresDateText, postgresPosition } from './positions.js';
import { postgresCastText, postgresDriverText, postgresRecordedText } from './recorded-text.js';
import { postgresStatementTimeout } from './statement-timeout.js';
import { postgresTemporalText } from './temporal-text.js';

/**
 * PostgreSQL (and PGlite): row values seek, NULL sorts high, counts can be estimated.
 * @example
 * ({ ...postgresCapabilities, estimateCount: false }) // a Postgres that estimates no counts
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
  resortKeepsTies: true,
  indexNullsOrder: true,
  textRejectsNul: true,
  catalogQuery: postgresCatalogQuery,
  columnKind: postgresKind,
  exactTimestampText: (column: SqlPart, type: string) =>
    postgresPosition(column, { kind: 'timestamp-text', nullable: true, type }) ?? column,
  positionExpression: postgresPosition,
  recordedText: postgresRecordedText,
  castText: postgresCastText,
  floatInfinity: true,
  floatNaN: true,
  dateParameter: postgresDateText,
  dateFromText: postgresDateFromText,
  temporalText: postgresTemporalText,
  estimateCount: true,
  estimateGroups: true,
  minDateMs: POSTGRES_MIN_MS,
  readEstimate: postgresEstimate,
  explainJson: (query: SqlPart) => sql`explain (format json) ${query}`,
  statementTimeout: postgresStatementTimeout,
  insertReturning: true,
});

/**
 * Postgres over a driver that hands temporal values over as the text Postgres sent (Drizzle's
 * sessions): positions read from that text (`postgresDriverText`), no `to_char` column.
 */
export const postgresTextCapabilities: DialectCapabilities = Object.freeze({
  ...postgresCapabilities,
  recordedText: postgresDriverText,
});
