/**
 * Cursor pages on a table range-partitioned by month (12 partitions, 1M rows) against the same
 * rows in a plain table, at depths from the first page to the last, for the compiled keyset
 * shapes: Postgres's default (`created <= $1 AND (created, id) < ($1, $2)`) and the bare row
 * comparison (`rowValueLeadingBound: false`). Writes bench/PARTITIONS.md.
 *
 *   PARTITIONS_BENCH_URL=postgres://postgres@127.0.0.1:5432/test_partitions \
 *     pnpm --filter @pagewise/bench exec tsx --conditions=@pagewise/source src/partitions-bench.ts
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { KeyTerm, PositionValue } from '@pagewise/core';
import { type DialectCapabilities, fromKysely, postgresCapabilities } from '@pagewise/kysely-adapter';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { ensureDatabase, serverInfo, smallPool } from './database.js';
import { type LatencyStats, measureRoundRobin, type PageFetch } from './measure.js';

const URL_ = process.env.PARTITIONS_BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/pagewise_bench';
const ROWS = Number(process.env.PARTITIONS_BENCH_ROWS ?? 1_000_000);
const MONTHS = 12;
const PAGE = 50;
const DEPTHS = [0, 10_000, 100_000, 500_000, ROWS - PAGE - 1];
const PARTITIONED = 'pw_bench_part_events';
const PLAIN = 'pw_bench_plain_events';

const order: readonly KeyTerm[] = [
  { field: 'created', direction: 'desc', nulls: 'first' },
  { field: 'id', direction: 'desc', nulls: 'last', unique: true },
];
const shapes: ReadonlyArray<readonly [string, DialectCapabilities]> = [
  ['leading bound + row (default)', postgresCapabilities],
  ['bare row comparison', { ...postgresCapabilities, name: 'postgres-bare', rowValueLeadingBound: false }],
];

const load = () =>
  execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/^.*load/, 'load');

async function seed(pool: ReturnType<typeof smallPool>): Promise<string> {
  const counts = await pool
    .query<{ p: string | null; q: string | null }>(
      `select (select count(*) from ${PARTITIONED}) as p, (select count(*) from ${PLAIN}) as q`,
    )
    .catch(() => null);
  if (counts && Number(counts.rows[0]!.p) === ROWS && Number(counts.rows[0]!.q) === ROWS) return 'reused';
  await pool.query(`drop table if exists ${PARTITIONED}; drop table if exists ${PLAIN}`);
  await pool.query(
    `create table ${PARTITIONED} (id integer not null, created timestamptz(3) not null, grp integer not null, title text not null)
     partition by range (created)`,
  );
  for (let m = 0; m < MONTHS; m += 1) {
    await pool.query(
      `create table ${PARTITIONED}_m${m} partition of ${PARTITIONED} for values
       from (timestamptz '2024-01-01 00:00:00+00' + interval '${m} month')
       to (timestamptz '2024-01-01 00:00:00+00' + interval '${m + 1} month')`,
    );
  }
  // Pairs of rows share an instant: ties at every bound.
  const rows = `select n, timestamptz '2024-01-01 00:00:00+00' + ((n / 2) * 2) * (interval '365 days' / ${ROWS + 2}),
    n % 50, 'event ' || n from generate_series(1, ${ROWS}) n`;
  await pool.query(`insert into ${PARTITIONED} ${rows}`);
  await pool.query(
    `create table ${PLAIN} (id integer primary key, created timestamptz(3) not null, grp integer not null, title text not null)`,
  );
  await pool.query(`insert into ${PLAIN} ${rows}`);
  await pool.query(`create index on ${PARTITIONED} (created, id)`);
  await pool.query(`alter table ${PARTITIONED} add primary key (id, created)`);
  await pool.query(`create index on ${PLAIN} (created, id)`);
  await pool.query(`vacuum analyze ${PARTITIONED}`);
  await pool.query(`vacuum analyze ${PLAIN}`);
  return 'seeded by this run';
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadBefore = load();
  await ensureDatabase(URL_);
  const pool = smallPool(URL_, 2);
  const info = await serverInfo(pool);
  const seeded = await seed(pool);
  const statements: CompiledQuery[] = [];
  const db = new Kysely<Record<string, Record<string, unknown>>>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });
  const median = new Map<string, number>();
  const lines: string[] = [];
  const plans: string[] = [];
  // Every depth and shape of one table in one round-robin: load drift on this shared machine falls
  // on all of them alike, so ratios across depths and shapes are side by side.
  const fetches = new Map<string, PageFetch>();
  for (const depth of DEPTHS) {
    const depthFetches: PageFetch[] = [];
    for (const table of [PARTITIONED, PLAIN]) {
      const [at] = await fromKysely(db.selectFrom(table).selectAll(), { db }).fetch({
        order,
        after: null,
        offset: depth,
        limit: 1,
      });
      const bound: PositionValue[] = [...at!.position];
      for (const [name, dialect] of shapes) {
        const query = fromKysely(db.selectFrom(table).selectAll(), { db, dialect });
        const fetch: PageFetch = async () =>
          (await query.fetch({ order, after: bound, offset: 0, limit: PAGE + 1 })).map((r) =>
            Number(r.row.id),
          );
        fetches.set(`${table === PARTITIONED ? 'partitioned' : 'plain'} | ${name}@${depth}`, fetch);
        depthFetches.push(fetch);
        {
          statements.length = 0;
          await fetch();
          const s = statements[0]!;
          const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain (analyze, buffers, costs off, timing off) ${s.sql}`, [
              ...s.parameters,
            ]),
          );
          const text = rows.map((r) => r['QUERY PLAN']);
          const scans = text.filter((l) => /Index (Only )?Scan/.test(l)).length;
          const buffers = /Buffers: shared hit=(\d+)(?: read=(\d+))?/.exec(text.join('\n'));
          plans.push(
            `| ${table === PARTITIONED ? 'partitioned' : 'plain'} | ${name} | ${depth.toLocaleString('en')} | ${scans} | ${buffers ? Number(buffers[1]) + Number(buffers[2] ?? 0) : '?'} |`,
          );
        }
      }
    }
    // Every contender returns the same page before any is timed.
    const pages = await Promise.all(depthFetches.map((f) => f()));
    for (const page of pages) {
      if (JSON.stringify(page) !== JSON.stringify(pages[0]))
        throw new Error(`pages differ at depth ${depth}`);
    }
  }
  // One round-robin per table: a page on 12 partitions just before a plain-table page slowed the
  // latter by ~1 ms in a mixed round-robin (an isolated A/B of the two shapes on the plain table
  // showed 3.74 vs 3.72 ms).
  const stats = new Map<string, LatencyStats>();
  for (const table of ['partitioned', 'plain']) {
    const mine = new Map([...fetches].filter(([key]) => key.startsWith(`${table} |`)));
    const measured = await measureRoundRobin(mine, {
      warmupRounds: 3,
      maxSamples: 300,
      minSamples: 10,
      budgetMs: 3_000,
    });
    for (const [key, value] of measured) stats.set(key, value);
  }
  for (const [key, s] of stats) {
    const [id, depth] = key.split('@') as [string, string];
    median.set(key, s.medianMs);
    lines.push(
      `| ${id} | ${Number(depth).toLocaleString('en')} | ${s.medianMs.toFixed(3)} | ${s.p95Ms.toFixed(3)} | ${s.samples} |`,
    );
  }
  lines.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const ratios = [...new Set([...median.keys()].map((k) => k.split('@')[0]!))].map((id) => {
    const values = DEPTHS.map((d) => median.get(`${id}@${d}`)!);
    const first = values[0]!;
    return `| ${id} | ${(Math.max(...values) / Math.min(...values)).toFixed(2)} | ${(values.at(-1)! / first).toFixed(2)} |`;
  });
  const side = DEPTHS.map((d) => {
    const r = (table: string) =>
      (
        median.get(`${table} | ${shapes[0]![0]}@${d}`)! / median.get(`${table} | ${shapes[1]![0]}@${d}`)!
      ).toFixed(2);
    return `| ${d.toLocaleString('en')} | ${r('plain')} | ${r('partitioned')} |`;
  });
  const report = `# Cursor pages on a partitioned table

Generated by \`bench/src/partitions-bench.ts\` on ${new Date().toISOString()} (rerun: see the file's header).

|  |  |
| --- | --- |
| Machine | ${cpus().length} CPUs, shared with other work |
| Load | ${loadBefore} at the start; ${load()} at the end |
| Postgres | ${info.version}, ${Object.entries(info.settings)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')} |
| Tables | \`${PARTITIONED}\`: ${ROWS.toLocaleString('en')} rows range-partitioned by month of \`created\` into ${MONTHS} partitions, index \`(created, id)\` declared on the parent; \`${PLAIN}\`: the same rows in one table, same index (${seeded}) |
| Page | ${PAGE} rows + 1 look-ahead, ordering \`-created, -id\`, every second row shares its instant with another |
| Sampling | one round-robin per table over both shapes at every depth (10 cells each), up to 300 samples each, 3 s budget; pg pool of 2; a page is \`fromKysely(...).fetch\` (compiled SQL, one round trip) |
| Run time | ${Math.round((Date.now() - started) / 1000)} s |

## Median / p95 per page (ms)

| table | keyset shape | depth | median | p95 | samples |
| --- | --- | --- | --- | --- | --- |
${lines.join('\n')}

## Depth invariance (median over depths)

| contender | slowest / fastest depth | last page / first page |
| --- | --- | --- |
${ratios.join('\n')}

## Side by side (median ratios at each depth)

Within one table's round-robin only: the two tables are timed one after the other, and on this
shared machine the load between the two differs more than the tables do (compare buffers below).

| depth | plain: default / bare row | partitioned: default / bare row |
| --- | --- | --- |
${side.join('\n')}

## Plans (EXPLAIN ANALYZE, BUFFERS; custom plans as the pg driver gets them)

| table | keyset shape | depth | index scans in the plan | shared buffers |
| --- | --- | --- | --- | --- |
${plans.join('\n')}
`;
  writeFileSync(new URL('../PARTITIONS.md', import.meta.url), report);
  console.log(report);
  await db.destroy();
}

await main();
