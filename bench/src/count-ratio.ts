/**
 * `pnpm --filter @pagewise/bench run counts [-- --runs 3]`: the first page-number page of the
 * seeded table with `count: 'exact'`, `'estimated'`, `'estimated'` + `countCacheTtl` and `'none'`,
 * round-robin, in `runs` fresh processes; prints each run's ratios and their spread. Needs the
 * table `pnpm bench` seeds (BENCH_DATABASE_URL, else PG_URL's server, database pagewise_bench).
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { ApiRequest, type CountMode, PageNumberPagination } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { Kysely, PostgresDialect } from 'kysely';
import { COLUMNS } from './bench-table.js';
import type { BenchDatabase } from './contenders.js';
import { smallPool } from './database.js';
import { measureRoundRobin, type PageFetch } from './measure.js';
import { defaultDatabaseUrl } from './options.js';

const table = process.env.BENCH_TABLE ?? 'pagewise_bench_items';

async function oneRun(): Promise<Record<string, number>> {
  const db = new Kysely<BenchDatabase>({
    dialect: new PostgresDialect({ pool: smallPool(defaultDatabaseUrl(), 2) }),
  });
  const query = () =>
    fromKysely(
      db
        .selectFrom(table)
        .select([...COLUMNS])
        .orderBy('created', 'desc')
        .orderBy('id', 'desc'),
      { db, uniqueKey: 'id' },
    );
  const variants: Array<[string, CountMode, number | null]> = [
    ['exact', 'exact', null],
    ['estimated', 'estimated', null],
    ['cached', 'estimated', 60_000],
    ['none', 'none', null],
  ];
  const fetches = new Map<string, PageFetch>();
  for (const [name, count, countCacheTtl] of variants) {
    const pagination = new PageNumberPagination({ pageSize: 50, count, countCacheTtl });
    fetches.set(name, async () => {
      const rows = (await pagination.paginateQueryset(
        query(),
        new ApiRequest({ url: 'http://127.0.0.1/items' }),
      ))!;
      pagination.getPaginatedResponse(rows);
      return rows.map((r) => r.id);
    });
  }
  const stats = await measureRoundRobin(fetches, {
    warmupRounds: 5,
    maxSamples: 300,
    minSamples: 30,
    budgetMs: 4000,
  });
  await db.destroy();
  return Object.fromEntries([...stats].map(([k, s]) => [k, s.medianMs]));
}

if (process.argv.includes('--child')) {
  process.stdout.write(JSON.stringify(await oneRun()));
} else {
  const runsAt = process.argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(process.argv[runsAt + 1]) : 3;
  const load = loadavg()[0]!;
  const results: Array<Record<string, number>> = [];
  for (let i = 0; i < runs; i += 1) {
    const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child'], {
      encoding: 'utf8',
    });
    const r = JSON.parse(out) as Record<string, number>;
    results.push(r);
    const f = (x: number) => x.toFixed(3);
    process.stdout.write(
      `run ${i + 1}: exact ${f(r.exact!)} ms, estimated ${f(r.estimated!)} ms (${(r.exact! / r.estimated!).toFixed(1)}x), ` +
        `estimated+cache ${f(r.cached!)} ms (${(r.exact! / r.cached!).toFixed(1)}x), none ${f(r.none!)} ms\n`,
    );
  }
  const spread = (key: string) => {
    const xs = results.map((r) => r.exact! / r[key]!);
    return `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}x`;
  };
  process.stdout.write(
    `exact/estimated ${spread('estimated')}; exact/estimated+cache ${spread('cached')} over ${runs} runs; ` +
      `1-min load ${load.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end\n`,
  );
}
