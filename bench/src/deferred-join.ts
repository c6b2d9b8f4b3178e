// Deferred-join offsets (issue 38 §5): a deep OFFSET page with and without `deferredJoin`, on
// Postgres and MariaDB, at 1M and 10M rows (BENCH_DEFERRED_ROWS, comma-separated). Each table is
// `h_deferred_bench_<rows>` (id primary key, created NOT NULL, a 100-character body), indexed
// (created, id), seeded in one INSERT ... SELECT (generate_series / seq_1_to_N) and dropped at the
// end. The page is `-created` (ties broken by id) at 90% of the table, 20 rows (the page's own
// statement: the count, the same for both, is left out); RUNS samples of each (default 7), the two
// alternating so that both see the same load, after one warm-up each; the median, and the ratio.
//
//   PG_URL=postgres://postgres@127.0.0.1:5432/test MYSQL_URL=mysql://root@127.0.0.1:3306/test \
//     pnpm --filter @pagewise/bench exec tsx --conditions=@pagewise/source src/deferred-join.ts
import { loadavg } from 'node:os';
import { parseOrdering } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';

const SIZES = (process.env.BENCH_DEFERRED_ROWS ?? '1000000,10000000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PAGE = 20;
const DEPTH = 0.9;

// biome-ignore lint/suspicious/noExplicitAny: the tables are made here.
type Db = Kysely<any>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function seed(db: Db, dialect: 'postgres' | 'mysql', table: string, rows: number): Promise<number> {
  const started = performance.now();
  const t = sql.table(table);
  await sql`drop table if exists ${t}`.execute(db);
  const created = dialect === 'postgres' ? sql.raw('timestamptz') : sql.raw('datetime');
  await sql`create table ${t} (id integer primary key, created ${created} not null, body varchar(100) not null)`.execute(
    db,
  );
  // `created` a permutation of the seconds (7919 is prime to 10^k), so the index order is not the key's.
  if (dialect === 'postgres') {
    await sql`insert into ${t} select g, timestamptz '2024-01-01 00:00:00+00' + ((g::bigint * 7919) % ${rows}) * interval '1 second',
      repeat('x', 100) from generate_series(1, ${sql.lit(rows)}) g`.execute(db);
  } else {
    await sql`insert into ${t} select seq, timestamp '2024-01-01 00:00:00' + interval ((seq * 7919) % ${rows}) second,
      repeat('x', 100) from ${sql.raw(`seq_1_to_${rows}`)}`.execute(db);
  }
  await sql`create index ${sql.id(`${table}_created_id`)} on ${t} (created, id)`.execute(db);
  await sql
    .raw(dialect === 'postgres' ? `vacuum analyze "${table}"` : `analyze table \`${table}\``)
    .execute(db);
  return (performance.now() - started) / 1000;
}

async function bench(name: string, dialect: 'postgres' | 'mysql', db: Db): Promise<void> {
  for (const rows of SIZES) {
    const table = `h_deferred_bench_${rows}`;
    try {
      const seconds = await seed(db, dialect, table, rows);
      const ordering = parseOrdering('-created');
      const query = (deferredJoin: boolean) =>
        fromKysely(db.selectFrom(table).selectAll(), { db, deferredJoin }).orderBy(ordering);
      const window = { order: null, after: null, offset: Math.floor(rows * DEPTH), limit: PAGE + 1 };
      const time = async (deferredJoin: boolean) => {
        const started = performance.now();
        const page = await query(deferredJoin).fetch(window);
        if (page.length !== PAGE + 1) throw new Error(`a page of ${page.length} rows`);
        return performance.now() - started;
      };
      // The same rows both ways, then one warm-up each (the buffer pool holds what it can).
      const plainRows = await query(false).fetch(window);
      const deferredRows = await query(true).fetch(window);
      if (
        JSON.stringify(plainRows.map((r) => r.row.id)) !== JSON.stringify(deferredRows.map((r) => r.row.id))
      )
        throw new Error('deferred and plain pages differ');
      const plain: number[] = [];
      const deferred: number[] = [];
      const load: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        plain.push(await time(false));
        deferred.push(await time(true));
        load.push(loadavg()[0]!);
      }
      const [p, d] = [median(plain), median(deferred)];
      console.log(
        `| ${name} | ${rows.toLocaleString('en')} | ${window.offset.toLocaleString('en')} | ${p.toFixed(1)} | ${d.toFixed(1)} | ${(p / d).toFixed(1)}x | ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} | ${seconds.toFixed(0)} s |`,
      );
      console.log(
        `<!-- ${name} ${rows}: plain ${plain.map((v) => v.toFixed(0)).join(' ')}; deferred ${deferred.map((v) => v.toFixed(0)).join(' ')} -->`,
      );
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
    }
  }
}

console.log(
  `Deep OFFSET page (-created, ${PAGE} rows at 90% depth), median of ${RUNS} alternating samples; load = 1-minute load average (2 cores) during the samples.\n`,
);
console.log('| database | rows | offset | plain OFFSET ms | deferredJoin ms | speed-up | load | seed |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
if (process.env.PG_URL) {
  const db: Db = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.PG_URL, max: 2 }) }),
  });
  try {
    await bench('Postgres', 'postgres', db);
  } finally {
    await db.destroy();
  }
}
if (process.env.MYSQL_URL) {
  const db: Db = new Kysely({
    dialect: new MysqlDialect({
      pool: createPool({ uri: process.env.MYSQL_URL, connectionLimit: 2, timezone: 'Z' }),
    }),
  });
  try {
    const { rows } = await sql<{ v: string }>`select version() as v`.execute(db);
    await bench(rows[0]?.v.includes('MariaDB') ? 'MariaDB' : 'MySQL', 'mysql', db);
  } finally {
    await db.destroy();
  }
}
