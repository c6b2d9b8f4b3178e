import { errorCode, type StatementTimeout } from '../dialect/statement-timeout.js';
import { sql } from '../fragment/fragment.js';

/**
 * Postgres: `statement_timeout` set for the count's transaction alone (`set_config(..., true)`
 * is `SET LOCAL`, which takes no parameter); the server cancels the count with SQLSTATE 57014.
 * PGlite runs statements in-process and never fires the timeout: its counts stay exact.
 *
 * @example
 * postgresStatementTimeout.setting!(250) // select set_config('statement_timeout', $1, true)
 */
export const postgresStatementTimeout: StatementTimeout = Object.freeze({
  setting: (ms: number) => sql`select set_config('statement_timeout', ${String(ms)}, true) as "set"`,
  timedOut: (error: unknown) => errorCode(error) === '57014',
});
