/**
 * `pnpm --filter @pagewise/bench run counts [-- --runs 3]`: the first
 * page-number page of the seeded table with `count: 'exact'`, `'estimated'`, `'estimated'` +
 * `countCacheTtl` and `'none'`, round-robin in a random order each round, in `runs` fresh
 * processes; prints each run's medians, p95s and ratios and their spread. Needs the table
 * `pnpm bench` seeds (BENCH_DATABASE_URL, else PG_URL's server, database pagewise_bench).
 *
 * Before any timing every variant must serve the same rows, the exact count must be the table's
 * `count(*)`, and the estimated ones must say `countMode: 'estimated'` with a positive count.
 * Beside them, the floor: the same page through `pg` alone (`raw`) and with the same EXPLAIN on
 * the pool's other connection (`raw+explain`), what a second statement costs on this machine.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { CountMode } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, PageNumberPagination } from '@pagewise/rest';
import { Kysely, PostgresDialect } from 'kysely';
import { COLUMNS } from './bench-table.js';
import type { BenchDatabase } from './contenders.js';
import { smallPool } from './database.js';
import { type LatencyStats, measureRoundRobin, type PageFetch } from './measure.js';
import { defaultDatabaseUrl } from './options.js';

const table = process.env.BENCH_TABLE ?? 'pagewise_bench_items';
const args = process.argv.slice(2);
const VARIANTS: ReadonlyArray<readonly [string, CountMode, number | null]> = [
  ['exact', 'exact', null],
  ['estimated', 'estimated', null],
  ['cached', 'estimated', 60_000],
  ['none', 'none', null],
];

/** What one variant answered, checked before its time counts. */
interface Answer {
  readonly ids: readonly number[];
  readonly body: { count?: number | null; countMode?: string; countAge?: number };
}

/** Why `answer` of `name` is not what `reference` and the table's `total` say it must be. */
export function answerProblem(
  name: string,
  answer: Answer,
  reference: readonly number[],
  total: number,
): string | null {
  const { ids, body } = answer;
  if (ids.length !== reference.length || ids.some((id, i) => id !== reference[i])) {
    return `${name}: first ids ${ids.slice(0, 3)} instead of ${reference.slice(0, 3)}`;
  }
  const count = VARIANTS.find(([n]) => n === name)?.[1];
  if (count === 'exact' && (body.count !== total || body.countMode !== undefined)) {
    return `${name}: count ${body.count} (${body.countMode}) instead of the exact ${total}`;
  }
  if (count === 'estimated' && !(body.countMode === 'estimated' && (body.count ?? 0) > 0)) {
    return `${name}: count ${body.count} (${body.countMode}) is no estimate`;
  }
  if (count === 'none' && (body.count !== null || body.countMode !== 'none')) {
    return `${name}: count ${body.count} (${body.countMode}) where none was asked for`;
  }
  return null;
}

async function oneRun(): Promise<Record<string, LatencyStats>> {
  const pool = smallPool(defaultDatabaseUrl(), 2);
  const db = new Kysely<BenchDatabase>({ dialect: new PostgresDialect({ pool }) });
  const { rows } = await pool.query<{ n: string }>(`select count(*) as n from ${table}`);
  const total = Number(rows[0]!.n);
  const fetches = new Map<string, PageFetch>();
  const problems: string[] = [];
  let reference: readonly number[] | null = null;
  const query = () =>
    fromKysely(
      db
        .selectFrom(table)
        .select([...COLUMNS])
        .orderBy('created', 'desc')
        .orderBy('id', 'desc'),
      { db, uniqueKey: 'id' },
    );
  for (const [variant, count, countCacheTtl] of VARIANTS) {
    const pagination = new PageNumberPagination({ pageSize: 50, count, countCacheTtl });
    const page = async (): Promise<Answer> => {
      const rows = (await pagination.paginateQueryset(
        query(),
        new ApiRequest({ url: 'http://127.0.0.1/items' }),
      ))!;
      const body = pagination.getPaginatedResponse(rows).data as Answer['body'];
      return { ids: rows.map((r) => r.id), body };
    };
    const answer = await page();
    reference ??= answer.ids;
    const problem = answerProblem(variant, answer, reference, total);
    if (problem !== null) problems.push(problem);
    fetches.set(variant, async () => (await page()).ids);
  }
  // The floor under the Pagewise variants: the same page through pg alone, and with the same
  // EXPLAIN beside it on the pool's other connection (what a second statement costs here).
  const rawPage = `select ${COLUMNS.map((c) => `"${c}"`).join(', ')} from "${table}" order by "created" desc, "id" desc limit $1`;
  const explain = `explain (format json) select ${COLUMNS.map((c) => `"${c}"`).join(', ')} from "${table}"`;
  const raw = async () =>
    (await pool.query<{ id: number }>(rawPage, [51])).rows.slice(0, 50).map((r) => r.id);
  const rawIds = await raw();
  if (
    reference !== null &&
    (rawIds.length !== reference.length || rawIds.some((id, i) => id !== reference![i]))
  ) {
    problems.push(`raw: first ids ${rawIds.slice(0, 3)} instead of ${reference.slice(0, 3)}`);
  }
  fetches.set('raw', raw);
  fetches.set('raw+explain', async () => (await Promise.all([raw(), pool.query(explain)]))[0]);
  if (problems.length > 0) throw new Error(`variants disagree before timing:\n${problems.join('\n')}`);
  const stats = await measureRoundRobin(fetches, {
    warmupRounds: 5,
    maxSamples: 300,
    minSamples: 30,
    budgetMs: 4000,
  });
  await db.destroy();
  return Object.fromEntries(stats);
}

if (args.includes('--child')) {
  process.stdout.write(JSON.stringify(await oneRun()));
} else if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
  const load = loadavg()[0]!;
  const results: Array<Record<string, LatencyStats>> = [];
  const f = (x: number) => x.toFixed(3);
  for (let i = 0; i < runs; i += 1) {
    const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, ...args, '--child'], {
      encoding: 'utf8',
    });
    const r = JSON.parse(out) as Record<string, LatencyStats>;
    results.push(r);
    const m = (key: string) => r[key]!.medianMs;
    const p95 = (key: string) => f(r[key]!.p95Ms);
    process.stdout.write(
      `run ${i + 1}: exact ${f(m('exact'))} ms (p95 ${p95('exact')}), ` +
        `estimated ${f(m('estimated'))} ms (p95 ${p95('estimated')}, ${(m('exact') / m('estimated')).toFixed(1)}x), ` +
        `estimated+cache ${f(m('cached'))} ms (p95 ${p95('cached')}, ${(m('exact') / m('cached')).toFixed(1)}x), ` +
        `none ${f(m('none'))} ms (p95 ${p95('none')})\n`,
    );
  }
  const spread = (key: string) => {
    const xs = results.map((r) => r.exact!.medianMs / r[key]!.medianMs);
    return `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}x`;
  };
  process.stdout.write(
    `exact/estimated ${spread('estimated')}; exact/estimated+cache ${spread('cached')}; ` +
      `exact/none ${spread('none')} over ${runs} runs\n`,
  );
  const floor = (key: string) => results.map((r) => f(r[key]!.medianMs)).join(', ');
  process.stdout.write(
    `floor through pg alone: page ${floor('raw')} ms; page + EXPLAIN on the other connection ${floor('raw+explain')} ms\n`,
  );
  process.stdout.write(
    `1-min load ${load.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end (2 cores)\n`,
  );
}
