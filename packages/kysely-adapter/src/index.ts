export type { ColumnInfo, ColumnKind } from './column-info.js';
export {
  baseCapabilities,
  type CatalogRow,
  type DialectCapabilities,
  type DialectName,
  dialectCapabilities,
  type IndexColumnRow,
  mysqlCapabilities,
  postgresCapabilities,
  sqliteCapabilities,
} from './dialect-capabilities.js';
export { fromKysely } from './from-kysely.js';
export { KyselyQuery } from './kysely-query.js';
export { recordExactTimestamps } from './mysql-statements.js';
export type { KyselyQueryOptions } from './options.js';
export { type NameStatementsOptions, nameStatements } from './pg-statements.js';
export { type ReusePreparedStatementsOptions, reusePreparedStatements } from './sqlite-statements.js';
export { StatementCache } from './statement-cache.js';
