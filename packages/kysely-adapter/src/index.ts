// `@pagewise/kysely-adapter`: `fromKysely`, a thin translation from Kysely's query tree to
// `@pagewise/sql`, which knows the dialects. The names that moved there (capabilities, column
// kinds, the driver wrappers) are re-exported here, as they always were.

export {
  baseCapabilities,
  type CatalogRow,
  type ColumnInfo,
  type ColumnKind,
  type DialectCapabilities,
  type DialectName,
  dialectCapabilities,
  type IndexColumnRow,
  mysqlCapabilities,
  type NameStatementsOptions,
  nameStatements,
  postgresCapabilities,
  type ReusePreparedStatementsOptions,
  recordExactTimestamps,
  reusePreparedStatements,
  sqliteCapabilities,
} from '@pagewise/sql';
export { fromKysely } from './from-kysely.js';
export { KyselyQuery } from './kysely-query.js';
export type { KyselyQueryOptions } from './options.js';
export { StatementCache } from './statement-cache.js';
