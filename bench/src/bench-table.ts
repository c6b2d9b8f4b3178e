import type pg from 'pg';
import { progressBar } from './progress.js';

/** A row of the seeded table, as `pg` returns it. */
export interface BenchRow {
  id: number;
  created: Date;
  score: number | null;
  title: string;
}

/** The columns every contender selects, in this order. */
export const COLUMNS = ['id', 'created', 'score', 'title'] as const;

/** Bumped when the table's shape or data changes, so an older seeded table is rebuilt. */
const SEED_VERSION = 1;
const CHUNK = 100_000;
/** 2024-01-01T00:00:00Z. */
const EPOCH_SECONDS = 1_704_067_200;

function marker(rows: number): string {
  return `pagewise-bench v${SEED_VERSION} rows=${rows}`;
}

/**
 * The indexes a user would create for the orderings measured: one per ordering, matching its
 * directions and NULL placement so that every keyset page is an index range scan.
 */
export function indexDefinitions(table: string): string[] {
  return [
    `CREATE INDEX ${table}_created_id_desc ON ${table} (created DESC, id DESC)`,
    `CREATE INDEX ${table}_created_desc_id_asc ON ${table} (created DESC, id ASC)`,
    `CREATE INDEX ${table}_score_id_desc ON ${table} (score DESC NULLS LAST, id DESC)`,
  ];
}

/**
 * Seeds `table` with `rows` rows unless it already holds exactly that seed (a marker in the
 * table's comment, written last, says so). Rows are made set-based by `generate_series` in
 * chunks, with a progress bar on stderr.
 *
 * Data: `id` 1..rows (primary key); `created` whole seconds from 2024-01-01, about eight rows per
 * second and scattered across ids (multiplicative hashing), so ties and random heap order are
 * everywhere; `score` NULL for every fifth row, otherwise one of 1000 values.
 *
 * @returns whether it seeded (false: reused).
 */
export async function ensureSeeded(
  pool: pg.Pool,
  table: string,
  rows: number,
  log: NodeJS.WritableStream | null,
): Promise<boolean> {
  const { rows: found } = await pool.query<{ comment: string | null }>(
    'SELECT obj_description(to_regclass($1), $2) AS comment',
    [table, 'pg_class'],
  );
  if (found[0]?.comment === marker(rows)) return false;

  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.query(
    `CREATE TABLE ${table} (
       id integer PRIMARY KEY,
       created timestamptz NOT NULL,
       score integer,
       title text NOT NULL
     )`,
  );
  const report = progressBar(log, `Seeding ${table}`, rows);
  report(0);
  for (let from = 1; from <= rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK - 1);
    await pool.query(
      `INSERT INTO ${table} (id, created, score, title)
       SELECT i,
              to_timestamp(${EPOCH_SECONDS} + ((i::bigint * 2654435761) % $3) / 8),
              CASE WHEN i % 5 = 0 THEN NULL ELSE ((i::bigint * 48271) % 1000)::integer END,
              'item ' || i
       FROM generate_series($1::integer, $2::integer) AS i`,
      [from, to, rows],
    );
    report(to);
  }
  const indexes = indexDefinitions(table);
  const steps = progressBar(log, `Indexing ${table}`, indexes.length + 1);
  steps(0);
  for (const [i, ddl] of indexes.entries()) {
    await pool.query(ddl);
    steps(i + 1);
  }
  // VACUUM sets the visibility map, as on a settled production table; ANALYZE feeds the planner
  // and the `estimated` count.
  await pool.query(`VACUUM (ANALYZE) ${table}`);
  steps(indexes.length + 1);
  await pool.query(`COMMENT ON TABLE ${table} IS '${marker(rows)}'`);
  return true;
}
