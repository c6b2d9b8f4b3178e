import { baseCapabilities, type DialectCapabilities, type DialectName } from './dialect/capabilities.js';
import { identifier, type SqlFragment, sql } from './fragment/fragment.js';
import { mysqlCapabilities } from './mysql/capabilities.js';
import { postgresCapabilities } from './postgres/capabilities.js';
import { sqliteCapabilities } from './sqlite/capabilities.js';

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
 * The statement an adapter compiles (without running it) to recognise its dialect:
 * `"p" = $1` on Postgres, `"p" = ?` on SQLite, `` `p` = ? `` on MySQL.
 * @example
 * capabilitiesFromProbe(myOrm.compile(DIALECT_PROBE).sql)
 */
export const DIALECT_PROBE: SqlFragment = sql`${identifier('p')} = ${1}`;

/**
 * Recognises the dialect from how it compiles `DIALECT_PROBE`: identifier quotes and parameter
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
