import type { SqlFragment } from '../fragment/fragment.js';
import type { Row } from './row.js';

/**
 * How a dialect bounds one statement's time on the server, for `countTimeout`: the server itself
 * cancels an exact count at the limit (no statement is left running, and no cancel request can
 * reach another statement that a pooled connection runs next, as `pg_cancel_backend(pid)` or
 * `KILL QUERY id` sent from outside might), and the adapter answers the estimate instead.
 *
 * @example
 * postgresStatementTimeout.setting!(250) // select set_config('statement_timeout', $1, true) -- '250'
 */
export interface StatementTimeout {
  /**
   * A statement run first in the count's own transaction, whose setting ends with it (Postgres:
   * `set_config('statement_timeout', ms, true)`). Absent where `prefix` is used.
   */
  readonly setting?: ((ms: number) => SqlFragment) | undefined;
  /**
   * SQL text put before the count's own statement (MariaDB: `SET STATEMENT max_statement_time=s
   * FOR`): one statement, no transaction. `ms` is the checked option, never text from a request.
   */
  readonly prefix?: ((ms: number) => string) | undefined;
  /**
   * SQL text put right after the count's leading `select` (MySQL's optimizer hint `/*+
   * MAX_EXECUTION_TIME(ms) *\/`): one statement, no transaction. Absent where `prefix` is used.
   */
  readonly hint?: ((ms: number) => string) | undefined;
  /**
   * Where servers of one dialect bound statements differently (MySQL and MariaDB both speak
   * `mysql`): the statement reading the server's version (its one column is read), once per
   * database, and the form for that version (`serverStatementTimeout` chooses it).
   */
  readonly byServer?:
    | {
        readonly versionQuery: SqlFragment;
        readonly choose: (version: string) => StatementTimeout;
      }
    | undefined;
  /** Whether `error` is the server cancelling the statement at the limit. */
  readonly timedOut: (error: unknown) => boolean;
  /**
   * The estimate answered after a timeout where `estimateCount` has none, from the rows of
   * `EXPLAIN FORMAT=JSON <query>`. @default none (the dialect's `readEstimate`)
   */
  readonly readEstimate?: ((rows: readonly Row[]) => number | null) | undefined;
}

/** The driver's error code (`pg`'s `code`, mysql2's `errno` and `code`), when `error` has one. */
export function errorCode(error: unknown): string | number | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  if (typeof errno === 'number') return errno;
  return typeof code === 'string' || typeof code === 'number' ? code : undefined;
}

/**
 * The text of a count statement `text` bounded to `ms` by `timeout`'s `prefix` or `hint`
 * (`text` itself where the bound is a `setting` run before it).
 *
 * @example
 * boundedStatement(mysqlExecutionTimeout, 250, 'select count(*) ...')
 * // 'select /*+ MAX_EXECUTION_TIME(250) *\/ count(*) ...'
 */
export function boundedStatement(timeout: StatementTimeout, ms: number, text: string): string {
  if (timeout.prefix) return `${timeout.prefix(ms)} ${text}`;
  if (timeout.hint) {
    const hint = timeout.hint(ms);
    return text.replace(/^\s*select\b/i, (leading) => `${leading} ${hint}`);
  }
  return text;
}
