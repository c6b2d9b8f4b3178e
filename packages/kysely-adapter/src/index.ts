export {
  baseCapabilities,
  type CatalogRow,
  type ColumnInfo,
  type ColumnKind,
  type DialectCapabilities,
  type DialectName,
  dialectCapabilities,
  mysqlCapabilities,
  postgresCapabilities,
  sqliteCapabilities,
} from './dialect-capabilities.js';
export { fromKysely, KyselyQuery, type KyselyQueryOptions } from './kysely-adapter.js';
