import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import type { BenchRow } from './bench-table.js';

/** One autocannon run against one endpoint. */
export interface HttpRun {
  readonly endpoint: 'pagewise' | 'bare';
  readonly round: number;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly p50Ms: number;
  readonly requests: number;
  readonly errors: number;
}

/** Both endpoints, every round, and the summary the target reads. */
export interface HttpResult {
  readonly runs: readonly HttpRun[];
  readonly connections: number;
  readonly seconds: number;
  readonly paths: { readonly pagewise: readonly string[]; readonly bare: readonly string[] };
  readonly pagewise: { readonly requestsPerSecond: number; readonly p99Ms: number };
  readonly bare: { readonly requestsPerSecond: number; readonly p99Ms: number };
  /** Pagewise req/s over the bare handler's. */
  readonly ratio: number;
}

/** Forks `http-server.ts` under tsx and resolves once it listens. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = fork(fileURLToPath(new URL('./http-server.ts', import.meta.url)), [], {
    execArgv: ['--import', loader],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('HTTP benchmark server did not start in 30 s')), 30_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve((message as { port: number }).port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`HTTP benchmark server exited with ${code}`));
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

function run(url: string, paths: readonly string[], connections: number, seconds: number) {
  return autocannon({
    url,
    connections,
    duration: seconds,
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
  });
}

/**
 * Requests per second and p99 of the Pagewise cursor endpoint against a bare Hono handler running
 * the same SQL, on loopback. Both endpoints cycle through the same pages (one per depth); runs
 * alternate Pagewise, bare, Pagewise, bare so that neither always runs on a warmer machine.
 */
export async function measureHttp(options: {
  readonly databaseUrl: string;
  readonly table: string;
  readonly pageSize: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
  /** Each page measured (uniform ordering): the row before it and its Pagewise cursor. */
  readonly pages: ReadonlyArray<{ readonly before: BenchRow | null; readonly cursor: string | null }>;
}): Promise<HttpResult> {
  const paths = {
    pagewise: options.pages.map(({ cursor }) =>
      cursor === null ? '/pagewise/items' : `/pagewise/items?cursor=${cursor}`,
    ),
    bare: options.pages.map(({ before: row }) =>
      row === null
        ? '/bare/items'
        : `/bare/items?after=${Buffer.from(JSON.stringify([row.created.getTime(), row.id])).toString('base64url')}`,
    ),
  };
  const { child, port } = await startServer({
    BENCH_DATABASE_URL: options.databaseUrl,
    BENCH_TABLE: options.table,
    BENCH_PAGE_SIZE: String(options.pageSize),
    BENCH_POOL_SIZE: '4',
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    const warmup = Math.max(1, Math.min(2, options.seconds / 2));
    for (const endpoint of ['pagewise', 'bare'] as const) {
      await run(url, paths[endpoint], options.connections, warmup);
    }
    const runs: HttpRun[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const endpoint of ['pagewise', 'bare'] as const) {
        const result = await run(url, paths[endpoint], options.connections, options.seconds);
        runs.push({
          endpoint,
          round,
          requestsPerSecond: result.requests.total / (result.duration || options.seconds),
          p99Ms: result.latency.p99,
          p50Ms: result.latency.p50,
          requests: result.requests.total,
          errors: result.errors + result.non2xx + result.timeouts,
        });
      }
    }
    const summary = (endpoint: 'pagewise' | 'bare') => {
      const mine = runs.filter((r) => r.endpoint === endpoint);
      return {
        requestsPerSecond: mine.reduce((sum, r) => sum + r.requestsPerSecond, 0) / mine.length,
        p99Ms: Math.max(...mine.map((r) => r.p99Ms)),
      };
    };
    const pagewise = summary('pagewise');
    const bare = summary('bare');
    return {
      runs,
      connections: options.connections,
      seconds: options.seconds,
      paths,
      pagewise,
      bare,
      ratio: pagewise.requestsPerSecond / bare.requestsPerSecond,
    };
  } finally {
    await stopServer(child);
  }
}
