import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import type { BenchRow } from './bench-table.js';
import { defaultSqliteFile } from './dialect-bench.js';
import { median } from './measure.js';
import type { BenchOptions } from './options.js';
import { pagewiseBuild } from './pagewise-build.js';

/** One autocannon run against one endpoint. */
export interface HttpRun {
  /** `kysely`: the hand-written Kysely handler of the minimal pairs. */
  readonly endpoint: 'subject' | 'bare' | 'kysely';
  readonly round: number;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly p50Ms: number;
  readonly requests: number;
  readonly errors: number;
  /** The server process's CPU time (user + system) per request over the run, in microseconds. */
  readonly serverCpuUs: number;
}

/** Requests per second (mean of the runs), the worst run's p99 and the median server CPU per request. */
export interface HttpSummary {
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly serverCpuUs: number;
}

/** A Pagewise endpoint against a bare handler on the same server. */
export interface HttpComparison {
  readonly id: 'pagewise' | 'demo' | 'pagewise-sqlite' | 'demo-sqlite';
  /** What the Pagewise side is. */
  readonly subject: string;
  /** What the bare side does. */
  readonly bare: string;
  /** The pages both sides (and the hand-written Kysely handler, when there is one) cycle through, as paths. */
  readonly paths: HttpPaths;
  readonly runs: readonly HttpRun[];
  readonly subjectSummary: HttpSummary;
  readonly bareSummary: HttpSummary;
  /** Subject req/s over the bare handler's. */
  readonly ratio: number;
  /**
   * The minimal pairs' third endpoint: the same keyset query written in Kysely by hand over
   * Pagewise's own Kysely instance (same prepared statements), with the bare side's token; `null`
   * for the demo pairs, whose bare side already runs through Kysely.
   */
  readonly kyselySummary: HttpSummary | null;
  /** The hand-written Kysely handler's req/s over the bare handler's. */
  readonly kyselyRatio: number | null;
}

/** The pages each endpoint of a comparison cycles through, as paths. */
export interface HttpPaths {
  readonly subject: readonly string[];
  readonly bare: readonly string[];
  readonly kysely?: readonly string[];
}

/** Both comparisons and how they were run. */
export interface HttpResult {
  readonly connections: number;
  readonly seconds: number;
  readonly comparisons: readonly HttpComparison[];
}

/**
 * Forks `file` under tsx and resolves once it listens. The child runs the Pagewise this process
 * runs: the packages' `dist` under `pnpm bench` (what users install), their sources under vitest.
 */
async function startServer(
  file: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const source = pagewiseBuild() === 'source';
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: [...(source ? ['--conditions=@pagewise/source'] : []), '--import', loader],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    // The demo seeds its articles on first start: allow for it.
    const timer = setTimeout(() => reject(new Error(`${file} did not start in 180 s`)), 180_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve((message as { port: number }).port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}`));
    });
  });
  return { child, port };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.disconnect();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function run(
  url: string,
  paths: readonly string[],
  connections: number,
  seconds: number | { amount: number },
) {
  return autocannon({
    url,
    connections,
    ...(typeof seconds === 'number' ? { duration: seconds } : seconds),
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
  });
}

function summarize(runs: readonly HttpRun[], endpoint: HttpRun['endpoint']): HttpSummary {
  const mine = runs.filter((r) => r.endpoint === endpoint);
  return {
    // The median round: one round caught cold (a collector growing the heap, another process)
    // moves a mean of few rounds by up to a third.
    requestsPerSecond: median(mine.map((r) => r.requestsPerSecond)),
    p99Ms: Math.max(...mine.map((r) => r.p99Ms)),
    serverCpuUs: median(mine.map((r) => r.serverCpuUs)),
  };
}

/**
 * The server child's CPU time so far (user + system, microseconds), from `/proc` (Linux ticks of
 * 10 ms; a run's seconds of CPU make that fine enough).
 */
function serverCpu(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is the 3rd, utime the 14th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Timing options shared by both comparisons. */
interface HttpTiming {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

/** Throws unless every endpoint answers each page with the subject's `results`, before any timing. */
async function checkSameRows(
  url: string,
  paths: HttpPaths,
  endpoints: ReadonlyArray<HttpRun['endpoint']>,
): Promise<void> {
  const resultsOf = async (path: string) => {
    const response = await fetch(`${url}${path}`);
    if (!response.ok) throw new Error(`${url}${path} answered ${response.status}`);
    return JSON.stringify(((await response.json()) as { results: unknown }).results);
  };
  for (let i = 0; i < paths.subject.length; i += 1) {
    const expected = await resultsOf(paths.subject[i]!);
    for (const endpoint of endpoints) {
      const path = paths[endpoint]![i]!;
      if ((await resultsOf(path)) !== expected)
        throw new Error(`${path}: other rows than ${paths.subject[i]}`);
    }
  }
}

/**
 * Warms every endpoint, then runs subject, bare (, kysely), subject, bare... so that none always
 * runs on a warmer machine.
 */
async function alternate(
  url: string,
  paths: HttpPaths,
  timing: HttpTiming,
  child: ChildProcess,
): Promise<HttpRun[]> {
  // Short runs (the smoke test) warm up by a request count instead of seconds.
  const warmup = timing.seconds >= 2 ? Math.min(2, timing.seconds / 2) : { amount: timing.connections * 25 };
  const endpoints: Array<HttpRun['endpoint']> = ['subject', 'bare'];
  if (paths.kysely !== undefined) endpoints.push('kysely');
  await checkSameRows(url, paths, endpoints);
  for (const endpoint of endpoints) {
    await run(url, paths[endpoint]!, timing.connections, warmup);
  }
  const runs: HttpRun[] = [];
  for (let round = 1; round <= timing.rounds; round += 1) {
    for (const endpoint of endpoints) {
      const cpuBefore = serverCpu(child);
      const result = await run(url, paths[endpoint]!, timing.connections, timing.seconds);
      const cpu = serverCpu(child) - cpuBefore;
      runs.push({
        endpoint,
        round,
        requestsPerSecond: result.requests.total / (result.duration || timing.seconds),
        p99Ms: result.latency.p99,
        p50Ms: result.latency.p50,
        requests: result.requests.total,
        errors: result.errors + result.non2xx + result.timeouts,
        serverCpuUs: result.requests.total === 0 ? 0 : cpu / result.requests.total,
      });
    }
  }
  return runs;
}

function compare(
  id: HttpComparison['id'],
  subject: string,
  bare: string,
  paths: HttpPaths,
  runs: HttpRun[],
): HttpComparison {
  const subjectSummary = summarize(runs, 'subject');
  const bareSummary = summarize(runs, 'bare');
  const kyselySummary = paths.kysely === undefined ? null : summarize(runs, 'kysely');
  return {
    id,
    subject,
    bare,
    paths,
    runs,
    subjectSummary,
    bareSummary,
    ratio: subjectSummary.requestsPerSecond / bareSummary.requestsPerSecond,
    kyselySummary,
    kyselyRatio:
      kyselySummary === null ? null : kyselySummary.requestsPerSecond / bareSummary.requestsPerSecond,
  };
}

/** The hand-written Kysely handler's paths: the bare side's, on `/kysely/items`. */
function withKysely(paths: HttpPaths): HttpPaths {
  return { ...paths, kysely: paths.bare.map((path) => path.replace('/bare/items', '/kysely/items')) };
}

function bareToken(created: Date, id: number): string {
  return Buffer.from(JSON.stringify([created.getTime(), id])).toString('base64url');
}

/**
 * The minimal pair on SQLite: the same two endpoints over the SQLite benchmark file. The pages
 * are found by following the Pagewise endpoint's own `next` links (the bare side starts after
 * the last row of the page before).
 */
async function measureMinimalSqlite(
  options: MeasureHttpOptions,
  sqliteFile: string,
): Promise<HttpComparison> {
  const { child, port } = await startServer('./http-server.ts', {
    BENCH_SQLITE_FILE: sqliteFile,
    BENCH_TABLE: options.table,
    BENCH_PAGE_SIZE: String(options.pageSize),
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    const paths = withKysely(
      await followPages(origin, '/pagewise/items', '/bare/items', (last) =>
        Buffer.from(JSON.stringify([last.created, last.id])).toString('base64url'),
      ),
    );
    const runs = await alternate(origin, paths, options, child);
    return compare(
      'pagewise-sqlite',
      '`fromKysely` (`SqliteDialect` over `reusePreparedStatements(database)`) + `CursorPagination` + `getPaginatedResponse` in a plain Hono handler',
      'one better-sqlite3 statement prepared once, `stmt.all()`, `c.json({ next, results })`',
      paths,
      runs,
    );
  } finally {
    await stopServer(child);
  }
}

/** Pages 0, 1, 10, 100 and 1000 of a Pagewise endpoint by its `next` links, and the bare paths of the same pages. */
async function followPages(
  origin: string,
  first: string,
  bareBase: string,
  bareToken: (last: { id: number; created: unknown }) => string,
  key: 'created' | 'published_at' = 'created',
): Promise<HttpPaths & { subject: string[]; bare: string[] }> {
  const wanted = new Set([0, 1, 10, 100, 1000]);
  const paths: { subject: string[]; bare: string[] } = { subject: [], bare: [] };
  let next: string | null = first;
  let bare = bareBase;
  for (let page = 0; next !== null && page <= Math.max(...wanted); page += 1) {
    if (wanted.has(page)) {
      paths.subject.push(next);
      paths.bare.push(bare);
    }
    const response = await fetch(`${origin}${next}`);
    if (!response.ok) throw new Error(`${origin}${next} answered ${response.status}`);
    const body = (await response.json()) as { next: string | null; results: Array<Record<string, unknown>> };
    const last = body.results.at(-1);
    if (last) bare = `${bareBase}?after=${bareToken({ id: last.id as number, created: last[key] })}`;
    next = body.next === null ? null : new URL(body.next).pathname + new URL(body.next).search;
  }
  return paths;
}

/** The minimal pair: Pagewise's cursor endpoint and a bare pg handler over the benchmark table. */
async function measureMinimal(options: MeasureHttpOptions): Promise<HttpComparison> {
  const { child, port } = await startServer('./http-server.ts', {
    BENCH_DATABASE_URL: options.databaseUrl,
    BENCH_TABLE: options.table,
    BENCH_PAGE_SIZE: String(options.pageSize),
    BENCH_POOL_SIZE: '4',
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    const paths = withKysely({
      subject: options.pages.map(({ cursor }) =>
        cursor === null ? '/pagewise/items' : `/pagewise/items?cursor=${cursor}`,
      ),
      bare: options.pages.map(({ before }) =>
        before === null ? '/bare/items' : `/bare/items?after=${bareToken(before.created, before.id)}`,
      ),
    });
    const runs = await alternate(origin, paths, options, child);
    return compare(
      'pagewise',
      '`fromKysely` (`PostgresDialect` over `nameStatements(pool)`) + `CursorPagination` + `getPaginatedResponse` in a plain Hono handler',
      'the prepared keyset statement through `pg`, `c.json({ next, results })`',
      paths,
      runs,
    );
  } finally {
    await stopServer(child);
  }
}

/**
 * The demo pair: the demo's article feed (`/v1/articles/feed/`, ListView + CursorPagination +
 * versioning + serializer) against a bare handler on the same app. The demo's tables live in
 * their own schema of the benchmark database; the pages measured are found by following the
 * feed's own `next` links.
 */
async function measureDemo(
  options: MeasureHttpOptions,
  sqliteFile: string | null = null,
): Promise<HttpComparison> {
  let env: Record<string, string>;
  if (sqliteFile === null) {
    const schema = options.demoSchema;
    const admin = new pg.Client({ connectionString: options.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await admin.end();
    }
    const url = new URL(options.databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env = { BENCH_DATABASE_URL: url.toString() };
  } else {
    env = { BENCH_DATABASE_URL: '', BENCH_SQLITE_FILE: sqliteFile };
  }
  const { child, port } = await startServer('./demo-http-server.ts', {
    ...env,
    BENCH_DEMO_ARTICLES: String(options.demoArticles),
    BENCH_PAGE_SIZE: String(options.pageSize),
  });
  try {
    const origin = `http://127.0.0.1:${port}`;
    const paths = await followPages(
      origin,
      `/v1/articles/feed/?page_size=${options.pageSize}`,
      '/bare/articles/feed/',
      (last) => bareToken(new Date(last.created as string), last.id),
      'published_at',
    );
    const runs = await alternate(origin, paths, options, child);
    return compare(
      sqliteFile === null ? 'demo' : 'demo-sqlite',
      sqliteFile === null
        ? "the demo's article feed `/v1/articles/feed/` (ListView, CursorPagination, URL-path versioning, serializer), its Kysely instance over `nameStatements` (`BENCH_DEMO_UNNAMED=1`: without)"
        : "the demo's article feed `/v1/articles/feed/` (ListView, CursorPagination, URL-path versioning, serializer)",
      'the same keyset query through the same Kysely instance, the v1 article JSON written by hand',
      paths,
      runs,
    );
  } finally {
    await stopServer(child);
  }
}

/** What `measureHttp` needs. */
export interface MeasureHttpOptions extends HttpTiming {
  readonly databaseUrl: string;
  readonly table: string;
  readonly pageSize: number;
  /** Each page measured on the benchmark table (uniform ordering): the row before it and its cursor. */
  readonly pages: ReadonlyArray<{ readonly before: BenchRow | null; readonly cursor: string | null }>;
  /** Schema of the benchmark database that holds the demo's tables. */
  readonly demoSchema: string;
  /** Articles the demo seeds (reused when already there). */
  readonly demoArticles: number;
  /** SQLite: the benchmark table's file and a file for the demo's own tables; `null` skips SQLite. */
  readonly sqlite: { readonly benchFile: string; readonly demoFile: string } | null;
}

/**
 * What `measureHttp` takes from the bench's options: the database, table and timing, and the
 * SQLite files (the benchmark table's and the demo's beside it) when SQLite is measured.
 */
export function httpOptionsOf(options: BenchOptions, pages: MeasureHttpOptions['pages']): MeasureHttpOptions {
  const sqliteFile = options.sqliteFile ?? defaultSqliteFile(options.rows);
  return {
    databaseUrl: options.databaseUrl,
    table: options.table,
    pageSize: options.pageSize,
    seconds: options.httpSeconds,
    rounds: options.httpRounds,
    connections: options.httpConnections,
    demoSchema: options.demoSchema,
    demoArticles: options.demoArticles,
    pages,
    sqlite: options.dialects.includes('sqlite')
      ? {
          benchFile: sqliteFile,
          demoFile: join(dirname(sqliteFile), `pagewise-bench-demo-${options.demoArticles}.sqlite`),
        }
      : null,
  };
}

/**
 * Requests per second and p99 on loopback (autocannon), servers in child processes so that
 * autocannon and the server do not share an event loop: the minimal Pagewise endpoint and the
 * demo's feed, each against a bare handler on the same Hono server returning the same rows.
 */
export async function measureHttp(options: MeasureHttpOptions): Promise<HttpResult> {
  const comparisons: HttpComparison[] = [await measureMinimal(options), await measureDemo(options)];
  if (options.sqlite !== null) {
    comparisons.push(await measureMinimalSqlite(options, options.sqlite.benchFile));
    comparisons.push(await measureDemo(options, options.sqlite.demoFile));
  }
  return { connections: options.connections, seconds: options.seconds, comparisons };
}
