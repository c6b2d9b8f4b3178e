export { toParameter, toPosition } from './column-codec.js';
export {
  baseCapabilities,
  type CatalogRow,
  type ColumnInfo,
  type ColumnKind,
  capabilitiesFromProbe,
  type DialectCapabilities,
  type DialectName,
  dialectCapabilities,
  mysqlCapabilities,
  postgresCapabilities,
  sqliteCapabilities,
} from './dialect-capabilities.js';
export { fromKysely, KyselyQuery, type KyselyQueryOptions } from './kysely-adapter.js';
export {
  compileSegment,
  nullsNative,
  orderByItems,
  planSegments,
  type Segment,
  type SegmentCondition,
} from './window-compiler.js';
