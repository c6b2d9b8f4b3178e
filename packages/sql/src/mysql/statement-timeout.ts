import type { Row } from '../dialect/row.js';
import { errorCode, type StatementTimeout } from '../dialect/statement-timeout.js';

/** MariaDB's ER_STATEMENT_TIMEOUT (max_statement_time exceeded) and MySQL's ER_QUERY_TIMEOUT. */
const TIMED_OUT: ReadonlySet<string | number> = new Set<string | number>([
  1969,
  3024,
  'ER_STATEMENT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
]);

interface ExplainedTable {
  readonly rows?: unknown;
  readonly rows_examined_per_scan?: unknown;
  readonly filtered?: unknown;
}

/**
 * The planner's row estimate from `EXPLAIN FORMAT=JSON`: each table's rows (MariaDB's `rows`,
 * MySQL's `rows_examined_per_scan`) times the share its condition keeps (`filtered`, percent),
 * multiplied along a join.
 *
 * @example
 * mysqlExplainEstimate([{ EXPLAIN: '{"query_block":{"table":{"rows":1000,"filtered":50}}}' }]) // 500
 */
export function mysqlExplainEstimate(rows: readonly Row[]): number | null {
  const row = rows[0];
  const raw = row === undefined ? undefined : Object.values(row)[0];
  if (typeof raw !== 'string') return null;
  let block: { table?: ExplainedTable; nested_loop?: Array<{ table?: ExplainedTable }> } | undefined;
  try {
    block = (JSON.parse(raw) as { query_block?: typeof block }).query_block;
  } catch {
    return null;
  }
  const tables = block?.table ? [block.table] : (block?.nested_loop ?? []).map((step) => step.table);
  if (tables.length === 0) return null;
  let estimate = 1;
  for (const table of tables) {
    const scanned = Number(table?.rows ?? table?.rows_examined_per_scan);
    const kept = table?.filtered === undefined ? 100 : Number(table.filtered);
    if (!Number.isFinite(scanned) || !Number.isFinite(kept)) return null;
    estimate *= (scanned * kept) / 100;
  }
  return Math.round(estimate);
}

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
  readEstimate: mysqlExplainEstimate,
});
