/**
 * Many API processes: the demo's cursor feed under load with WORKERS=1, 2 and 4 (node:cluster
 * workers sharing one port and CURSOR_SECRET), on Postgres. Rounds are interleaved (1, 2, 4, 1,
 * 2, 4, ...) so that the machine's other load falls on every worker count alike; every cursor
 * was minted by some worker and is served by whichever worker the connection lands on.
 *
 *   PG_URL=postgres://postgres@127.0.0.1:5432/test pnpm bench:workers [-- --seconds 10 --rounds 2]
 *
 * Prints the table and writes it into bench/RESULTS.md between the "workers-bench" markers
 * (appended when the markers are absent).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startDemoProcess, stopDemoProcess } from '../../examples/demo/test/demo-process.js';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const START = '<!-- workers-bench:start -->';
const END = '<!-- workers-bench:end -->';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const databaseUrl = process.env.PG_URL;
if (!databaseUrl) {
  console.error('bench:workers needs Postgres: set PG_URL (the demo seeds its tables there once)');
  process.exit(1);
}
const seconds = option('seconds', 10);
const rounds = option('rounds', 2);
const connections = option('connections', 50);
const articles = option('articles', 100_000);
const workerCounts = [1, 2, 4];
const secret = 'bench: one secret for every worker';

interface Run {
  workers: number;
  round: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  served: number;
  /** CPU time (user + system) of the cluster primary and its workers per request, in ms. */
  cpuPerRequest: number;
  load: [number, number];
}

/** `[utime + stime in clock ticks, parent pid]` from /proc/<pid>/stat. */
function procStat(pid: string): [number, string] {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return [Number(fields[11]) + Number(fields[12]), fields[1]!];
}

/** CPU ms used so far by the serving processes: the workers and their cluster primary. */
function serverCpuMs(workerPids: ReadonlySet<string>): number {
  const pids = new Set(workerPids);
  for (const pid of workerPids) pids.add(procStat(pid)[1]);
  // Linux reports in USER_HZ ticks, 100 per second.
  return [...pids].reduce((total, pid) => total + procStat(pid)[0], 0) * 10;
}

/** The pids that answer 3N requests on fresh connections: all N workers take connections. */
function workersServing(origin: string, count: number): Promise<Set<string>> {
  const one = () =>
    new Promise<string>((resolve, reject) => {
      get(`${origin}/v1/articles/feed/?page_size=1`, { agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(String(response.headers['x-worker'] ?? 'none')));
      }).on('error', reject);
    });
  return (async () => {
    const pids = new Set<string>();
    for (let i = 0; i < count * 3; i += 1) pids.add(await one());
    return pids;
  })();
}

async function start(workers: number): Promise<{ origin: string; child: ChildProcess }> {
  const started = await startDemoProcess({
    WORKERS: String(workers),
    CURSOR_SECRET: secret,
    DATABASE_URL: databaseUrl!,
    SEED_ARTICLES: String(articles),
  });
  if (started.url === null) throw new Error(`the demo did not start: ${started.output}`);
  return { origin: new URL(started.url).origin, child: started.child };
}

/** Cursor paths at many depths, in two orderings, so the load is not one cached page. */
async function cursorPaths(origin: string): Promise<string[]> {
  const paths: string[] = [];
  for (const ordering of ['', '&ordering=rating']) {
    let url: string | null = `${origin}/v1/articles/feed/?page_size=50${ordering}`;
    for (let i = 0; i < 40 && url; i += 1) {
      paths.push(url.slice(origin.length));
      url = ((await (await fetch(url)).json()) as { next: string | null }).next;
    }
  }
  return paths;
}

async function measure(workers: number, round: number, paths: readonly string[]): Promise<Run> {
  const server = await start(workers);
  try {
    const served = await workersServing(server.origin, workers);
    if (served.has('none')) throw new Error('a response without X-Worker: is the demo running as a cluster?');
    // Warm-up: every worker's pool and plan cache.
    await autocannon({ url: server.origin, connections, duration: 2, requests: [{ path: paths[0]! }] });
    const before = loadavg()[0]!;
    const cpuBefore = serverCpuMs(served);
    let turn = 0;
    const result = await autocannon({
      url: server.origin,
      connections,
      duration: seconds,
      requests: [{ setupRequest: (request) => ({ ...request, path: paths[turn++ % paths.length]! }) }],
    });
    const cpuUsed = serverCpuMs(served) - cpuBefore;
    const run: Run = {
      workers,
      round,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: result.requests.total,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      served: served.size,
      cpuPerRequest: cpuUsed / result.requests.total,
      load: [before, loadavg()[0]!],
    };
    console.log(
      `WORKERS=${workers} round ${round}: ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ` +
        `errors ${run.errors}, timeouts ${run.timeouts}, non-2xx ${run.non2xx}, ${run.served} workers answering, ` +
        `server CPU ${run.cpuPerRequest.toFixed(2)} ms/request, ` +
        `load ${run.load[0].toFixed(2)} -> ${run.load[1].toFixed(2)}`,
    );
    return run;
  } finally {
    await stopDemoProcess(server.child);
  }
}

const startedAt = new Date();
const loadAtStart = loadavg();
// One single-process server seeds the database (once) and mints the cursors every run replays.
const seeder = await start(1);
const paths = await cursorPaths(seeder.origin);
await stopDemoProcess(seeder.child);

const runs: Run[] = [];
for (let round = 1; round <= rounds; round += 1) {
  for (const workers of workerCounts) runs.push(await measure(workers, round, paths));
}
const loadAtEnd = loadavg();

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const single = mean(runs.filter((r) => r.workers === 1).map((r) => r.requestsPerSecond));
const rows = workerCounts.map((workers) => {
  const mine = runs.filter((r) => r.workers === workers);
  const rps = mean(mine.map((r) => r.requestsPerSecond));
  const sum = (key: 'errors' | 'timeouts' | 'non2xx') => mine.reduce((total, r) => total + r[key], 0);
  return (
    `| ${workers} | ${mine.map((r) => Math.round(r.requestsPerSecond)).join(' / ')} | **${Math.round(rps)}** | ` +
    `${(rps / single).toFixed(2)}x | ${Math.max(...mine.map((r) => r.p50))} | ${Math.max(...mine.map((r) => r.p99))} | ` +
    `${mean(mine.map((r) => r.cpuPerRequest)).toFixed(2)} | ` +
    `${sum('errors')} / ${sum('timeouts')} / ${sum('non2xx')} | ${Math.min(...mine.map((r) => r.served))} | ` +
    `${mine.map((r) => `${r.load[0].toFixed(2)}-${r.load[1].toFixed(2)}`).join(', ')} |`
  );
});
const busy = Math.max(loadAtStart[0]!, loadAtEnd[0]!, ...runs.flatMap((r) => r.load)) > 2 * cpus().length;
const totalErrors = runs.reduce((total, r) => total + r.errors + r.timeouts + r.non2xx, 0);

const section = `${START}
## Many API processes (WORKERS=1, 2, 4)

Generated by \`pnpm bench:workers\` on ${startedAt.toISOString()} (${cpus().length} CPUs ${cpus()[0]?.model ?? ''}; 1-min load average
${loadAtStart[0]!.toFixed(2)} at the start, ${loadAtEnd[0]!.toFixed(2)} at the end; the machine is shared, so compare the rows
with each other, not with other sections). The demo's cursor feed on Postgres (${articles.toLocaleString('en')} articles, \`page_size=50\`):
\`WORKERS=N\` starts a node:cluster primary and N workers sharing one port and \`CURSOR_SECRET\`;
autocannon sends ${connections} connections for ${seconds} s per run, replaying ${paths.length} cursors (40 depths x 2 orderings)
minted by an earlier process, so every page is decoded by a process that did not mint its cursor. Rounds interleave
the worker counts (${workerCounts.join(', ')}, then again) after a 2 s warm-up each. Postgres and autocannon run on the same 2 cores.

| workers | req/s per round | **mean req/s** | vs 1 worker | worst p50 ms | worst p99 ms | server CPU ms / request | errors / timeouts / non-2xx | workers answering | load avg during runs |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

${totalErrors === 0 ? 'Zero errors, timeouts and non-2xx answers in every run.' : `**${totalErrors} failed requests**: see the runs above.`}${busy ? `\n\n**The 1-minute load average exceeded twice the CPU count during this run** (other jobs on the machine): the req/s figures measure contention,\nnot the demo. On ${cpus().length} cores shared with Postgres and autocannon, more workers add no CPU, only processes and pool connections\ncompeting for it; rerun on a quiet machine before reading the ratios.` : ''}
"Workers answering": distinct \`X-Worker\` pids among 3N requests on fresh connections before each run.
"Server CPU": user + system time of the cluster primary and its workers (from /proc) during the run, per request: what one
request costs the API processes, less sensitive to other load than req/s (Postgres's share is not in it).
${END}`;

const current = await readFile(RESULTS, 'utf8');
const begin = current.indexOf(START);
const finish = current.indexOf(END);
const updated =
  begin !== -1 && finish > begin
    ? `${current.slice(0, begin)}${section}${current.slice(finish + END.length)}`
    : `${current.trimEnd()}\n\n${section}\n`;
await writeFile(RESULTS, updated);
console.log(`\n${section}\n\nwritten to ${RESULTS}`);
if (totalErrors > 0) process.exitCode = 1;
