// `@pagewise/sql`: the SQL knowledge every ORM adapter shares, with no ORM dependency. A small
// fragment type the adapters lower into their own nodes; the dialects' capabilities (one folder
// each: postgres/, mysql/, sqlite/) with their catalog reads, column kinds, exact positions and
// driver wrappers; the keyset SQL shapes; and the ORM-free planning and reading of windows.

export { type AdapterName, SQL_ADAPTER } from './adapter-name.js';
export { daysFromCivil, daysIn, MAX_TIME } from './calendar/civil-days.js';
export { digitsAt } from './calendar/digits.js';
export { genericTemporalText, wallClockDate } from './calendar/temporal-text.js';
export {
  columnInfo,
  type FieldColumn,
  forgetCatalog,
  integersExact,
  plainTables,
  readCatalog,
  readIndexes,
  textCast,
  textInPlace,
  textRecorded,
} from './catalog/catalog-reads.js';
export { type ColumnLookup, checkColumnLookup } from './catalog/column-lookup.js';
export {
  insertKeyOf,
  keyColumnsOf,
  keyText,
  type UniqueKeyColumns,
  uniqueKeyColumns,
} from './catalog/key-columns.js';
export { type KeyCoverage, uniqueKeyRefusal } from './catalog/key-coverage.js';
export { orderingIndex } from './catalog/ordering-index.js';
export { serverStatementTimeout } from './catalog/server-statement-timeout.js';
export { CatalogCache, type SqlSession } from './catalog/session.js';
export { catalogKey, type QueryTables, type SourceTable } from './catalog/source-tables.js';
export { type UniqueIndex, uniqueIndexes } from './catalog/unique-indexes.js';
export {
  type BoundField,
  type PositionField,
  type PositionReader,
  positionReader,
  refuseUnrecorded,
  toParameter,
  toParameters,
  toPosition,
} from './codec/column-codec.js';
export { ExactText } from './codec/exact-text.js';
export { LOOKUP_SLICE, lookupAccepts, lookupParameter, lookupPredicate } from './codec/lookup-value.js';
export { baseCapabilities, type DialectCapabilities, type DialectName } from './dialect/capabilities.js';
export { type CatalogRow, catalogNullable, type IndexColumnRow } from './dialect/catalog-rows.js';
export type { ColumnInfo, ColumnKind } from './dialect/column-info.js';
export { type IntegerBounds, integerRangeByName } from './dialect/integer-ranges.js';
export type { CastText, RecordedText, TextInPlace } from './dialect/recorded-text.js';
export type { Row } from './dialect/row.js';
export { boundedStatement, errorCode, type StatementTimeout } from './dialect/statement-timeout.js';
export { capabilitiesFromProbe, DIALECT_PROBE, dialectCapabilities } from './dialects.js';
export {
  cast,
  identifier,
  isSqlPart,
  join,
  literal,
  node,
  raw,
  type SqlFragment,
  type SqlIdentifier,
  type SqlLiteral,
  type SqlNode,
  type SqlPart,
  type SqlValue,
  sql,
  value,
} from './fragment/fragment.js';
export { RENDER_STYLES, type RenderedSql, type RenderStyle, renderSql } from './fragment/render.js';
export { Slot } from './fragment/slot.js';
export { type NonNull, type OrderItem, orderByItems } from './keyset/order-items.js';
export {
  type BoundParameter,
  boundSlots,
  keysetPredicate,
  segmentPredicates,
  stopPredicate,
} from './keyset/predicates.js';
export {
  AHEAD_COLUMN,
  exactKey,
  isPrivateColumn,
  positionKey,
  TIE_COLUMN,
} from './keyset/private-columns.js';
export {
  groupSegments,
  nullsNative,
  planSegments,
  type Segment,
  type SegmentCondition,
} from './keyset/segments.js';
export {
  type KeysetStatement,
  type LookAhead,
  lookAheadSlots,
  lookAheadValues,
  mergedStatement,
  type PrivateSelection,
  type StatementBase,
  segmentStatement,
  TIE_TABLE,
  type TieGroups,
} from './keyset/statement.js';
export { mysqlCapabilities, mysqlTextCapabilities } from './mysql/capabilities.js';
export { mysqlEstimate, mysqlExplainEstimate } from './mysql/estimate.js';
export type { Mysql2Pool, Mysql2PoolConnection, Mysql2QueryResult } from './mysql/mysql2-types.js';
export { recordExactTimestamps } from './mysql/record-exact-timestamps.js';
export {
  mysqlExecutionTimeout,
  mysqlStatementTimeout,
  mysqlStatementTimeoutFor,
} from './mysql/statement-timeout.js';
export { mysqlTemporalText } from './mysql/temporal-text.js';
export {
  type DeferredJoinStatement,
  type DeferredOrdering,
  deferredJoinStatement,
  KEYS_TABLE,
  type KeyPart,
  keyColumn,
  keyFields,
} from './offset/deferred-join.js';
export {
  type DeferredJoinClauses,
  DeferredKeyCheck,
  deferredKeyRefusal,
  refuseDeferredJoin,
  selectionTextComputes,
} from './offset/deferred-join-refusal.js';
export { offsetOrderItems } from './offset/offset-order.js';
export {
  type BuilderSlice,
  refuseKeysetOnSlice,
  type SliceClause,
  sliceCount,
  sliceOf,
  sliceWindow,
} from './planner/builder-slice.js';
export { countKey } from './planner/count-key.js';
export { type KeysetHost, readKeysetWindow, type StatementRunner } from './planner/keyset-window.js';
export {
  type FieldPlan,
  type FieldSource,
  type IndexHint,
  type OrderPlan,
  type PlanSource,
  planOrder,
  type QueryClauses,
} from './planner/order-plan.js';
export { planByText, planFor, type ShapePlans, shapePlans } from './planner/plan-cache.js';
export { PrivateColumnStripper } from './planner/row-stripper.js';
export { KeysetRows, LazyWindowRow, windowRows } from './planner/window-rows.js';
export { postgresCapabilities, postgresTextCapabilities } from './postgres/capabilities.js';
export { isStockDateParser, parseDateText } from './postgres/date-parser.js';
export { type NameStatementsOptions, nameStatements } from './postgres/name-statements.js';
export type { NamedPgPool, PgCursor, PgPool, PgPoolClient, PgQueryResult } from './postgres/pg-types.js';
export { positionFromText } from './postgres/recorded-text.js';
export { postgresStatementTimeout } from './postgres/statement-timeout.js';
export { postgresTemporalText } from './postgres/temporal-text.js';
export { postgresTextInPlace } from './postgres/text-in-place.js';
export { sqliteCapabilities } from './sqlite/capabilities.js';
export {
  type ReusePreparedStatementsOptions,
  reusePreparedStatements,
  type SqliteDatabase,
  type SqliteStatement,
} from './sqlite/reuse-prepared-statements.js';
