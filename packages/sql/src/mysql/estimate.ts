import type { Row } from '../dialect/row.js';

interface ExplainedTable {
  readonly rows?: unknown;
  readonly rows_examined_per_scan?: unknown;
  readonly filtered?: unknown;
}

/** One step of a join: a table, or (MariaDB) a table read through the join buffer. */
interface JoinStep {
  readonly table?: ExplainedTable;
  readonly 'block-nl-join'?: { readonly table?: ExplainedTable };
}

interface QueryBlock {
  readonly table?: ExplainedTable;
  readonly nested_loop?: readonly JoinStep[];
  readonly [wrapper: string]: unknown;
}

/**
 * The steps a grouping, sort or DISTINCT wraps its tables in (MariaDB's `filesort` and
 * `temporary_table`, MySQL's `*_operation` and `duplicates_removal`): their rows are those read
 * before grouping, an upper bound on the groups.
 */
const WRAPPERS = [
  'filesort',
  'temporary_table',
  'grouping_operation',
  'ordering_operation',
  'duplicates_removal',
] as const;

/** The block that holds the tables, past the wrappers around them. */
function tablesBlock(block: QueryBlock | undefined): QueryBlock | undefined {
  for (let depth = 0; block !== undefined && depth < 8; depth += 1) {
    if (block.table !== undefined || block.nested_loop !== undefined) return block;
    const inner = WRAPPERS.map((name) => block![name]).find(
      (step) => typeof step === 'object' && step !== null,
    );
    block = inner as QueryBlock | undefined;
  }
  return undefined;
}

/**
 * The planner's row estimate from `EXPLAIN FORMAT=JSON`: each table's rows (MariaDB's `rows`,
 * MySQL's `rows_examined_per_scan`) times the share its condition keeps (`filtered`, percent),
 * multiplied along a join, as Postgres' top `Plan Rows` estimates the query's rows. Through a
 * grouping's or sort's wrappers, the rows read before them (so no estimate of groups: the
 * capabilities' `estimateGroups` is false). `null` for a plan of another shape (an impossible
 * WHERE's message): the count is then exact. The rows come from InnoDB's statistics, which a table's writes keep near its
 * size; a condition no index or histogram describes keeps every row (`filtered: 100`).
 *
 * @example
 * mysqlExplainEstimate([{ EXPLAIN: '{"query_block":{"table":{"rows":1000,"filtered":50}}}' }]) // 500
 */
export function mysqlExplainEstimate(rows: readonly Row[]): number | null {
  const row = rows[0];
  const raw = row === undefined ? undefined : Object.values(row)[0];
  if (typeof raw !== 'string') return null;
  let block: QueryBlock | undefined;
  try {
    block = tablesBlock((JSON.parse(raw) as { query_block?: QueryBlock }).query_block);
  } catch {
    return null;
  }
  const tables = block?.table
    ? [block.table]
    : (block?.nested_loop ?? []).map((step) => step.table ?? step['block-nl-join']?.table);
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
 * `readEstimate` for MySQL and MariaDB: the estimate of the first row of `EXPLAIN FORMAT=JSON`.
 * @example
 * mysqlEstimate({ EXPLAIN: '{"query_block":{"table":{"rows":40,"filtered":100}}}' }) // 40
 */
export function mysqlEstimate(row: Record<string, unknown>): number | null {
  return mysqlExplainEstimate([row]);
}
