import { describe, expect, it } from 'vitest';
import { mysqlEstimate, mysqlExplainEstimate } from './estimate.js';

const explained = (plan: unknown) => ({ EXPLAIN: JSON.stringify({ query_block: plan }) });

describe('the planner estimate of EXPLAIN FORMAT=JSON', () => {
  it('is one table’s rows times the share its condition keeps', () => {
    expect(mysqlEstimate(explained({ select_id: 1, table: { rows: 1000, filtered: 50 } }))).toBe(500);
    // MariaDB 10.11 writes one table as a nested loop of one step.
    expect(mysqlEstimate(explained({ nested_loop: [{ table: { rows: 40, filtered: 100 } }] }))).toBe(40);
    // MySQL: rows_examined_per_scan, and `filtered` as text.
    expect(mysqlEstimate(explained({ table: { rows_examined_per_scan: 200, filtered: '10.00' } }))).toBe(20);
  });

  it('multiplies along a join, the join buffer’s tables included', () => {
    const plan = {
      nested_loop: [
        { table: { rows: 100, filtered: 100 } },
        { 'block-nl-join': { table: { rows: 30, filtered: 10 } } },
      ],
    };
    expect(mysqlEstimate(explained(plan))).toBe(300);
  });

  it('reads through a grouping’s wrappers: the rows before grouping, an upper bound', () => {
    const mariadb = {
      filesort: { sort_key: 'k', temporary_table: { nested_loop: [{ table: { rows: 400 } }] } },
    };
    expect(mysqlEstimate(explained(mariadb))).toBe(400);
    const mysql = {
      grouping_operation: { using_temporary_table: true, table: { rows_examined_per_scan: 90 } },
    };
    expect(mysqlEstimate(explained(mysql))).toBe(90);
  });

  it('is null for a plan of another shape, so the count is exact', () => {
    expect(mysqlEstimate(explained({ table: { message: 'Impossible WHERE' } }))).toBeNull();
    expect(mysqlEstimate(explained({ filesort: { temporary_table: { nested_loop: [] } } }))).toBeNull();
    expect(mysqlEstimate(explained({ filesort: { sort_key: 'k' } }))).toBeNull();
    expect(mysqlEstimate({ EXPLAIN: 'not json' })).toBeNull();
    expect(mysqlExplainEstimate([])).toBeNull();
  });
});
