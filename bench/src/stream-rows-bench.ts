// streamRows over a million rows (issue 13): peak RSS and throughput against a hand-written
// Kysely keyset loop, each contender in its own child process so peak RSS is its own, run
// alternately (a b a b ...) so the load of the shared machine falls on both alike.
//
//   pnpm --filter @pagewise/bench run bench:stream [-- --rows 1000000 --batch 1000 --rounds 3]
//   database: STREAM_BENCH_URL, else PG_URL (postgres://postgres@127.0.0.1:5432/postgres)
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { streamRows } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { median } from './measure.js';

interface StreamTable {
  pagewise_stream_bench: { id: number; created: Date; title: string; body: string };
}

const TABLE = 'pagewise_stream_bench';
const CONTENDERS = ['streamRows', 'hand-written keyset loop'] as const;
type Contender = (typeof CONTENDERS)[number];

interface RunResult {
  readonly contender: Contender;
  readonly rows: number;
  readonly checksum: number;
  readonly seconds: number;
  readonly peakRssMiB: number;
  readonly startRssMiB: number;
  /** RSS at 10%, 50% and 90% of the rows: flat memory is the same three numbers. */
  readonly rssAtMiB: readonly number[];
}

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    child: { type: 'string' },
  },
});
const ROWS = Number(values.rows);
const BATCH = Number(values.batch);
const URL_ =
  process.env.STREAM_BENCH_URL ?? process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function database(): Kysely<StreamTable> {
  return new Kysely<StreamTable>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: URL_, max: 2 }) }),
  });
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function ensureTable(db: Kysely<StreamTable>): Promise<void> {
  const found = await sql<{ n: string }>`select count(*) as n from pg_class where relname = ${TABLE}`.execute(
    db,
  );
  if (Number(found.rows[0]?.n) > 0) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(TABLE)}`.execute(db);
    if (Number(rows[0]?.n) === ROWS) return;
    await sql`drop table ${sql.table(TABLE)}`.execute(db);
  }
  console.error(`seeding ${ROWS} rows into ${TABLE}...`);
  await sql`create table ${sql.table(TABLE)} (id integer primary key, created timestamptz not null, title text not null, body text not null)`.execute(
    db,
  );
  await sql`insert into ${sql.table(TABLE)} select g, timestamptz '2024-01-01' + g * interval '1 second', 'title ' || g, repeat(md5(g::text), 4) from generate_series(1, ${ROWS}) g`.execute(
    db,
  );
  await sql`analyze ${sql.table(TABLE)}`.execute(db);
}

/** One walk over the whole table, in this process, sampling RSS as it goes. */
async function runChild(contender: Contender): Promise<RunResult> {
  const db = database();
  // Warm the pool and the adapter's catalog reads outside the timing.
  await db.selectFrom(TABLE).select('id').limit(1).execute();
  if (contender === 'streamRows') {
    for await (const _row of streamRows(fromKysely(db.selectFrom(TABLE).selectAll(), { db }), {
      batchSize: 1,
    }))
      break;
  }
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const marks = [0.1, 0.5, 0.9].map((f) => Math.floor(ROWS * f));
  const rssAt: number[] = [];
  let rows = 0;
  let checksum = 0;
  const take = (row: { id: number; body: string }) => {
    rows += 1;
    checksum = (checksum + row.id + row.body.length) % 1_000_000_007;
    if (rows === marks[rssAt.length]) rssAt.push(mib(process.memoryUsage().rss));
  };
  const started = performance.now();
  if (contender === 'streamRows') {
    const query = fromKysely(db.selectFrom(TABLE).selectAll(), { db });
    for await (const row of streamRows(query, { ordering: 'id', batchSize: BATCH })) take(row);
  } else {
    let last: number | null = null;
    for (;;) {
      let builder = db.selectFrom(TABLE).selectAll().orderBy('id').limit(BATCH);
      if (last !== null) builder = builder.where('id', '>', last);
      const batch = await builder.execute();
      for (const row of batch) take(row);
      if (batch.length < BATCH) break;
      last = batch.at(-1)!.id;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await db.destroy();
  return {
    contender,
    rows,
    checksum,
    seconds,
    peakRssMiB: mib(peak),
    startRssMiB: mib(startRss),
    rssAtMiB: rssAt,
  };
}

function child(contender: Contender): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1]!,
        '--child',
        contender,
        '--rows',
        String(ROWS),
        '--batch',
        String(BATCH),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as RunResult) : reject(new Error(`${contender} exited ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  if (values.child !== undefined) {
    process.stdout.write(JSON.stringify(await runChild(values.child as Contender)));
    return;
  }
  const db = database();
  await ensureTable(db);
  await db.destroy();
  const loadBefore = loadavg()[0]!;
  const results: RunResult[] = [];
  for (let round = 0; round < Number(values.rounds); round += 1) {
    for (const contender of round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse()) {
      const result = await child(contender);
      console.error(
        `${contender}: ${result.rows} rows in ${result.seconds.toFixed(2)} s, peak RSS ${result.peakRssMiB} MiB (at 10/50/90%: ${result.rssAtMiB.join(' / ')})`,
      );
      results.push(result);
    }
  }
  const loadAfter = loadavg()[0]!;
  const checksums = new Set(results.map((r) => `${r.rows}:${r.checksum}`));
  if (checksums.size !== 1) throw new Error(`contenders disagree on the rows: ${[...checksums].join(', ')}`);
  const lines = [
    `### streamRows over ${ROWS.toLocaleString('en-US')} rows`,
    '',
    `Postgres table \`${TABLE}\` (id integer primary key, ~170 bytes a row), ordering \`id\`, batches of ${BATCH}; each run is a fresh child process (peak RSS sampled every 20 ms), ${values.rounds} rounds alternating the order. ${cpus().length} CPUs, 1-min load ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end. Both read the same rows (checked).`,
    '',
    '| contender | median time | rows/s | peak RSS (max over runs) | RSS at 10% / 50% / 90% of rows (last run) |',
    '| --- | --- | --- | --- | --- |',
  ];
  const byContender = new Map<Contender, RunResult[]>();
  for (const r of results) byContender.set(r.contender, [...(byContender.get(r.contender) ?? []), r]);
  const medians = new Map<Contender, number>();
  for (const [contender, runs] of byContender) {
    const seconds = median(runs.map((r) => r.seconds));
    medians.set(contender, seconds);
    const last = runs.at(-1)!;
    lines.push(
      `| ${contender} | ${seconds.toFixed(2)} s | ${Math.round(ROWS / seconds).toLocaleString('en-US')} | ${Math.max(...runs.map((r) => r.peakRssMiB))} MiB | ${last.rssAtMiB.join(' / ')} MiB |`,
    );
  }
  const ratio = medians.get('streamRows')! / medians.get('hand-written keyset loop')!;
  lines.push(
    '',
    `streamRows / hand-written loop time: **${ratio.toFixed(2)}x** (median of ${values.rounds} runs each).`,
  );
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
