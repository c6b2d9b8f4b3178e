import { errorCode, type StatementTimeout } from '../dialect/statement-timeout.js';
import { identifier, sql } from '../fragment/fragment.js';

/** MariaDB's ER_STATEMENT_TIMEOUT (max_statement_time exceeded) and MySQL's ER_QUERY_TIMEOUT. */
const TIMED_OUT: ReadonlySet<string | number> = new Set<string | number>([
  1969,
  3024,
  'ER_STATEMENT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
]);

const timedOut = (error: unknown): boolean => {
  const code = errorCode(error);
  return code !== undefined && TIMED_OUT.has(code);
};

/**
 * MariaDB: `SET STATEMENT max_statement_time=<seconds> FOR <count>` (10.1+), one statement; the
 * server interrupts the count with error 1969. MySQL does not know the form: there
 * `mysqlExecutionTimeout` serves.
 *
 * @example
 * mariadbStatementTimeout.prefix!(250) // 'SET STATEMENT max_statement_time=0.25 FOR'
 */
const mariadbStatementTimeout: StatementTimeout = Object.freeze({
  prefix: (ms: number) => `SET STATEMENT max_statement_time=${ms / 1000} FOR`,
  timedOut,
});

/**
 * MySQL (5.7.8+): the optimizer hint `select /*+ MAX_EXECUTION_TIME(<ms>) *\/ count(*) ...`, which
 * bounds one top-level SELECT; the server interrupts it with error 3024 (ER_QUERY_TIMEOUT).
 * MariaDB reads the hint as a comment, so it is chosen only for a MySQL server.
 *
 * @example
 * mysqlExecutionTimeout.hint!(250) // '/*+ MAX_EXECUTION_TIME(250) *\/'
 */
export const mysqlExecutionTimeout: StatementTimeout = Object.freeze({
  // Whole milliseconds, at least one: 0 would mean no limit.
  hint: (ms: number) => `/*+ MAX_EXECUTION_TIME(${Math.max(1, Math.ceil(ms))}) */`,
  timedOut,
});

/**
 * The form of a server by its version text (`select version()`, as mysql2's handshake reports
 * it too): MariaDB's contains `MariaDB` (`10.11.6-MariaDB-0+deb12u1`), MySQL's does not
 * (`8.4.3`).
 *
 * @example
 * mysqlStatementTimeoutFor('8.0.36') // mysqlExecutionTimeout
 * mysqlStatementTimeoutFor('10.11.19-MariaDB-0+deb12u1') // SET STATEMENT max_statement_time=... FOR
 */
export function mysqlStatementTimeoutFor(version: string): StatementTimeout {
  return /mariadb/i.test(version) ? mariadbStatementTimeout : mysqlExecutionTimeout;
}

/**
 * The `mysql` dialect's statement timeout: MariaDB's `SET STATEMENT max_statement_time=<s> FOR`
 * as its `prefix`, and `byServer`, through which adapters read the server's version once per
 * database and use MySQL's `MAX_EXECUTION_TIME` hint on a MySQL server.
 *
 * @example
 * mysqlStatementTimeout.prefix!(250) // 'SET STATEMENT max_statement_time=0.25 FOR'
 * mysqlStatementTimeout.byServer!.choose('8.4.3') // mysqlExecutionTimeout
 */
export const mysqlStatementTimeout: StatementTimeout = Object.freeze({
  ...mariadbStatementTimeout,
  byServer: Object.freeze({
    versionQuery: sql`select version() as ${identifier('version')}`,
    choose: mysqlStatementTimeoutFor,
  }),
});
