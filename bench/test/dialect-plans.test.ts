import Database from 'better-sqlite3';
import { createPool } from 'mysql2';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEPTH_DEPENDENT,
  depthDependent,
  mysqlPlan,
  mysqlPlanSummary,
  sqlitePlan,
} from '../src/dialect-bench.js';
import type { LatencyStats } from '../src/measure.js';

describe('depthDependent', () => {
  const at = (contender: string, depth: number, medianMs: number) => ({
    contender,
    depth,
    stats: { medianMs } as LatencyStats,
  });
  it(`names the Pagewise pages over ${DEPTH_DEPENDENT}x their ordering's first page, and no other contender's`, () => {
    const latency = [
      at('pagewise-cursor:uniform', 0, 0.4),
      at('pagewise-cursor:uniform', 1000, 1.1),
      at('pagewise-cursor:uniform', 2000, 1.3),
      at('pagewise-cursor:nullable', 0, 0.5),
      at('pagewise-cursor:nullable', 1000, 0.6),
      at('pagewise-cursor:nullable', 2000, 5.2),
      at('raw:mixed', 0, 0.1),
      at('raw:mixed', 2000, 9),
    ];
    expect(depthDependent(latency, [0, 1000, 2000])).toEqual([
      { ordering: 'uniform', depth: 2000, medianMs: 1.3, firstMs: 0.4 },
      { ordering: 'nullable', depth: 2000, medianMs: 5.2, firstMs: 0.5 },
    ]);
    expect(depthDependent(latency, [1000, 2000])).toEqual([
      { ordering: 'nullable', depth: 2000, medianMs: 5.2, firstMs: 0.6 },
    ]);
  });
});

describe('sqlitePlan', () => {
  it("gives SQLite's plan of a keyset statement, its steps in a line", () => {
    const db = new Database(':memory:');
    db.exec(
      'CREATE TABLE items (id integer PRIMARY KEY, score integer); CREATE INDEX items_score_id ON items (score, id)',
    );
    expect(sqlitePlan(db, 'SELECT id FROM items WHERE id < ? ORDER BY id DESC LIMIT 5', [10])).toBe(
      'SEARCH items USING INTEGER PRIMARY KEY (rowid<?)',
    );
    expect(
      sqlitePlan(db, 'SELECT id FROM items WHERE score IS NULL AND id < ? ORDER BY id DESC LIMIT 5', [10]),
    ).toBe('SEARCH items USING COVERING INDEX items_score_id (score=? AND id<?)');
    db.close();
  });
});

describe('mysqlPlanSummary', () => {
  it('gives each table how it was read, through which index, the rows read and the time', () => {
    const json = JSON.stringify({
      query_block: {
        nested_loop: [
          {
            table: {
              table_name: 'items',
              access_type: 'ref',
              key: 'items_score_id',
              rows: 201366,
              r_rows: 51,
              r_engine_stats: { pages_accessed: 234 },
              r_table_time_ms: 5.2,
            },
          },
          { table: { table_name: 'authors', access_type: 'eq_ref', key: 'PRIMARY', r_rows: 1 } },
        ],
      },
    });
    expect(mysqlPlanSummary(json)).toBe(
      '`items`: `ref` on `items_score_id`, 201,366 rows estimated, 51 rows read, 234 pages accessed, 5.20 ms; `authors`: `eq_ref` on `PRIMARY`, 1 rows read',
    );
  });
});

const url = process.env.MYSQL_URL;
if (!url) console.warn('mysqlPlan on a real server skipped: MYSQL_URL is not set');

// A skipped suite says why in its name, as describeDatabase does, for the run's skip summary.
const title = `mysqlPlan on a real MariaDB/MySQL server${url ? '' : ' (skipped: MYSQL_URL is not set)'}`;
describe.skipIf(!url)(title, () => {
  const pool = url ? createPool({ uri: url, connectionLimit: 1 }).promise() : null;
  const table = `pagewise_plan_test_${process.pid}`;
  afterAll(async () => {
    await pool?.query(`DROP TABLE IF EXISTS ${table}`);
    await pool?.end();
  });

  it('sums up how the server ran a keyset statement', async () => {
    await pool!.query(`CREATE TABLE ${table} (id int PRIMARY KEY, score int NULL) ENGINE=InnoDB`);
    await pool!.query(`CREATE INDEX ${table}_score_id ON ${table} (score, id)`);
    const rows = Array.from({ length: 500 }, (_, i) => [i + 1, i % 5 === 0 ? null : i % 97]);
    await pool!.query(`INSERT INTO ${table} (id, score) VALUES ?`, [rows]);
    const summary = await mysqlPlan(
      pool!,
      `SELECT id, score FROM ${table} WHERE score IS NULL AND id < ? ORDER BY id DESC LIMIT 5`,
      [300],
    );
    const line = `^\`${table}\`: \`(ref|range|index|ALL|ref_or_null)\`( on \`\\w+\`)?, [\\d,]+ rows estimated(, [\\d,]+ rows read(, [\\d,]+ pages accessed)?, \\d+\\.\\d\\d ms)?$`;
    expect(summary).toMatch(new RegExp(line));
    // MariaDB runs the statement: what it read is known.
    const [[{ version }]] = (await pool!.query('SELECT version() AS version')) as unknown as [
      [{ version: string }],
    ];
    if (version.includes('MariaDB')) expect(summary).toContain('rows read');
  });
});
