/**
 * The HTTP comparison on its own (issue 15, item 3), without the latency tables of `pnpm bench`:
 *
 *   pnpm build && pnpm --filter @pagewise/bench exec tsx src/http-cli.ts \
 *     [--database URL] [--rows N] [--seconds N] [--rounds N] [--connections N] \
 *     [--only pagewise,demo,pagewise-sqlite,demo-sqlite] [--cpu-prof DIR] [--server-root DIR]
 *
 * Seeds (or reuses) the benchmark table in Postgres and SQLite (1M rows unless --rows says otherwise), then runs the chosen comparisons
 * and prints req/s, p50/p99 per run and the ratios, with the load average at start and end.
 * `--cpu-prof DIR` makes each server child write a V8 CPU profile there. `--server-root DIR` runs
 * the servers of another checkout (`/work/main`) under this harness, for before/after figures
 * with the server CPU per request measured alike (that checkout built too).
 * The servers run the Pagewise this process resolves: the built packages, as `pnpm bench` times
 * them; with `tsx --conditions=@pagewise/source` their TypeScript sources instead.
 */
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { ensureSeeded } from './bench-table.js';
import { ensureDatabase, smallPool } from './database.js';
import { defaultSqliteFile, measureDialect } from './dialect-bench.js';
import { type HttpComparison, httpOptionsOf, measureHttp } from './http-bench.js';
import { benchOptions } from './options.js';

const IDS: ReadonlyArray<HttpComparison['id']> = ['pagewise', 'demo', 'pagewise-sqlite', 'demo-sqlite'];

function parse(argv: readonly string[]) {
  const flags = new Map<string, string>();
  const args = argv.filter((arg) => arg !== '--');
  for (let i = 0; i < args.length; i += 1) {
    const [flag, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    flags.set(flag, value);
  }
  const number = (flag: string, fallback: number) => {
    const n = Number((flags.get(flag) ?? String(fallback)).replaceAll('_', '').replace(/k$/i, '000'));
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${flag} needs a whole number`);
    return n;
  };
  const only = (flags.get('--only') ?? IDS.join(',')).split(',') as Array<HttpComparison['id']>;
  for (const id of only)
    if (!IDS.includes(id)) throw new Error(`--only: unknown "${id}" (${IDS.join(', ')})`);
  for (const flag of flags.keys()) {
    if (
      ![
        '--database',
        '--rows',
        '--seconds',
        '--rounds',
        '--connections',
        '--only',
        '--cpu-prof',
        '--server-root',
      ].includes(flag)
    )
      throw new Error(`Unknown option ${flag}`);
  }
  const cpuProf = flags.get('--cpu-prof');
  return {
    base: benchOptions({
      ...(flags.has('--database') ? { databaseUrl: flags.get('--database')! } : {}),
      // The main bench's default, so a bare run never re-seeds (drops) its 1M-row table.
      ...(flags.has('--rows') ? { rows: number('--rows', 0) } : {}),
      httpSeconds: number('--seconds', 5),
      httpRounds: number('--rounds', 3),
      httpConnections: number('--connections', 10),
    }),
    only,
    cpuProfDir: cpuProf === undefined ? null : resolve(cpuProf),
    serverRoot: flags.has('--server-root') ? resolve(flags.get('--server-root')!) : null,
  };
}

const { base: options, only, cpuProfDir, serverRoot } = parse(process.argv.slice(2));
if (cpuProfDir !== null) mkdirSync(cpuProfDir, { recursive: true });
const sqliteFile = options.sqliteFile ?? defaultSqliteFile(options.rows);
if (only.includes('pagewise')) {
  await ensureDatabase(options.databaseUrl);
  const admin = smallPool(options.databaseUrl, 1);
  try {
    await ensureSeeded(admin, options.table, options.rows, options.log);
  } finally {
    await admin.end();
  }
}
if (only.includes('pagewise-sqlite')) {
  // Seeds (or reuses) the SQLite file: one sample of the first page is all it measures.
  await measureDialect({
    ...options,
    dialect: 'sqlite',
    depths: [0],
    sqliteFile,
    warmupRounds: 0,
    maxSamples: 1,
    minSamples: 1,
    profilePages: 0,
  });
}
const load = loadavg()[0]!;
const result = await measureHttp({
  ...httpOptionsOf({ ...options, sqliteFile }, []),
  only,
  cpuProfDir,
  serverRoot,
});
const out: string[] = [
  `${serverRoot === null ? 'servers of this checkout' : `servers of ${serverRoot}`}, ${result.connections} connections, ${result.seconds} s runs, load ${load.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)}`,
];
for (const c of result.comparisons) {
  // Each round's subject over its bare run, the middle of them: steadier than the mean ratio
  // when the machine's load changes between rounds.
  const ratios = c.runs
    .filter((r) => r.endpoint === 'subject')
    .map(
      (s) =>
        s.requestsPerSecond /
        c.runs.find((b) => b.endpoint === 'bare' && b.round === s.round)!.requestsPerSecond,
    )
    .sort((a, b) => a - b);
  const medianRatio = ratios[ratios.length >> 1]!;
  out.push(
    `${c.id.padEnd(16)} ratio ${c.ratio.toFixed(2)}x (median of rounds ${medianRatio.toFixed(2)}x)  subject ${c.subjectSummary.requestsPerSecond.toFixed(0)} req/s p99 ${c.subjectSummary.p99Ms} ms cpu ${c.subjectSummary.serverCpuUs.toFixed(0)} us/req  bare ${c.bareSummary.requestsPerSecond.toFixed(0)} req/s p99 ${c.bareSummary.p99Ms} ms cpu ${c.bareSummary.serverCpuUs.toFixed(0)} us/req`,
  );
  if (c.kyselySummary) {
    out.push(
      `${''.padEnd(16)} hand-written Kysely ${c.kyselySummary.requestsPerSecond.toFixed(0)} req/s (${(c.kyselySummary.requestsPerSecond / c.bareSummary.requestsPerSecond).toFixed(2)}x bare) p99 ${c.kyselySummary.p99Ms} ms cpu ${c.kyselySummary.serverCpuUs.toFixed(0)} us/req`,
    );
  }
  for (const r of c.runs) {
    out.push(
      `  round ${r.round} ${r.endpoint.padEnd(7)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  server cpu ${r.serverCpuUs.toFixed(0)} us/req  errors ${r.errors}`,
    );
  }
}
process.stdout.write(`${out.join('\n')}\n`);
