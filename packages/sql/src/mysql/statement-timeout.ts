import { errorCode, type StatementTimeout } from '../dialect/statement-timeout.js';

/** MariaDB's ER_STATEMENT_TIMEOUT (max_statement_time exceeded) and MySQL's ER_QUERY_TIMEOUT. */
const TIMED_OUT: ReadonlySet<string | number> = new Set<string | number>([
  1969,
  3024,
  'ER_STATEMENT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
]);

/**
 * MariaDB: `SET STATEMENT max_statement_time=<seconds> FOR <count>` (10.1+), one statement; the
 * server interrupts the count with error 1969. MySQL does not know the form (its
 * `MAX_EXECUTION_TIME` hint is not written here): a count there fails with a syntax error rather
 * than running unbounded.
 *
 * @example
 * mysqlStatementTimeout.prefix!(250) // 'SET STATEMENT max_statement_time=0.25 FOR'
 */
export const mysqlStatementTimeout: StatementTimeout = Object.freeze({
  prefix: (ms: number) => `SET STATEMENT max_statement_time=${ms / 1000} FOR`,
  timedOut: (error: unknown) => {
    const code = errorCode(error);
    return code !== undefined && TIMED_OUT.has(code);
  },
});
