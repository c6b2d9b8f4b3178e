import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { type BenchRow, COLUMNS, ensureSeeded } from './bench-table.js';
import { renderChart } from './chart.js';
import {
  type ContenderFamily,
  type ContenderKind,
  type ContenderSet,
  createContenders,
  type DepthPoint,
  isScanning,
} from './contenders.js';
import { type CpuResult, measureCpuCost } from './cpu-cost.js';
import { ensureDatabase, serverInfo, smallPool } from './database.js';
import { type DialectResult, defaultSqliteFile, measureDialect } from './dialect-bench.js';
import { type HttpResult, httpOptionsOf, measureHttp } from './http-bench.js';
import { type LatencyStats, measureRoundRobin, type PageFetch, SCAN_REFERENCE } from './measure.js';
import { type BenchOptions, DEFAULT_DEPTHS } from './options.js';
import { ORDERINGS, type OrderingName } from './orderings.js';
import { pagewiseBuild } from './pagewise-build.js';
import { type ProfileSummary, profilePages } from './profile.js';
import { readPrevious, renderReport, withKeptSections } from './report.js';
import { evaluateTargets, type TargetResult } from './targets.js';

/** One contender's latency at one depth. */
export interface LatencyResult {
  readonly contender: string;
  readonly depth: number;
  readonly stats: LatencyStats;
}

/** The plan of a Pagewise page whose SQL is slower than the hand-written query's. */
export interface SlowSqlDiagnostic {
  readonly ordering: OrderingName;
  readonly depth: number;
  /** Median of Pagewise's SQL replayed through pg over the unnamed raw SQL's. */
  readonly sqlRatio: number;
  /** `EXPLAIN (ANALYZE, BUFFERS)` of each statement Pagewise sent for the page. */
  readonly plans: readonly string[];
}

/** Everything one run measured: what RESULTS.md, the chart and results.json are made from. */
export interface BenchResults {
  readonly meta: {
    readonly date: string;
    readonly command: string;
    readonly rows: number;
    readonly table: string;
    readonly pageSize: number;
    readonly seeded: boolean;
    readonly seedSeconds: number;
    readonly durationSeconds: number;
    readonly machine: {
      readonly cpus: number;
      readonly cpuModel: string;
      readonly memoryGiB: number;
      /** 1-minute load average when measuring started and when it ended (other work on the machine). */
      readonly load: readonly [number, number];
    };
    readonly node: string;
    /**
     * Which Pagewise the run timed: `dist` (the tsc output an install gets, as Kysely and the drivers
     * come from node_modules) or `source` (TypeScript through tsx, whose `keepNames` adds a
     * `__name` call per closure). Absent in results written before it was recorded.
     */
    readonly pagewiseBuild?: 'dist' | 'source';
    readonly postgres: string;
    readonly postgresSettings: Readonly<Record<string, string>>;
    readonly kyselyPaginate: { readonly kysely: string; readonly kyselyPaginate: string };
    readonly sampling: {
      readonly maxSamples: number;
      readonly minSamples: number;
      readonly budgetMs: number;
      readonly poolSize: number;
      /** Untimed rounds per depth; absent in results from before it was recorded. */
      readonly warmupRounds?: number;
    };
  };
  readonly depths: readonly number[];
  readonly contenders: ReadonlyArray<{
    readonly id: string;
    readonly kind: ContenderKind;
    readonly family: ContenderFamily;
    readonly ordering: OrderingName;
    readonly label: string;
  }>;
  readonly latency: readonly LatencyResult[];
  /** Each distinct statement Pagewise sent, per contender, with the depth it was first seen at. */
  readonly pagewiseSql: Readonly<Record<string, readonly string[]>>;
  /** Plans of the pages where Pagewise's SQL itself was slow (over 3x the raw SQL). */
  readonly diagnostics: readonly SlowSqlDiagnostic[];
  /** Pages whose rows differed from the raw SQL page (should be empty). */
  readonly mismatches: readonly string[];
  readonly cpu: readonly CpuResult[];
  readonly http: HttpResult | null;
  /** SQLite and MariaDB: raw, hand-written Kysely and Pagewise per ordering and depth. */
  readonly dialects: readonly DialectResult[];
  /** CPU profile of the Postgres Pagewise uniform cursor page at the middle depth. */
  readonly profile: ProfileSummary | null;
  readonly targets: readonly TargetResult[];
}

/** What a run wrote. */
export interface BenchOutput {
  readonly results: BenchResults;
  readonly files: { readonly report: string; readonly chart: string; readonly json: string };
}

/**
 * The depths measured: each requested depth clamped to the last page's first row and rounded
 * down to a page boundary (page-number pages must land on the same rows), without repeats.
 */
export function clampDepths(depths: readonly number[], rows: number, pageSize: number): number[] {
  const last = Math.floor((rows - 1) / pageSize) * pageSize;
  const out = depths.map((d) => Math.min(last, Math.floor(Math.min(d, last) / pageSize) * pageSize));
  return [...new Set(out)].sort((a, b) => a - b);
}

/**
 * The row just before `depth` in each ordering, and the Pagewise cursor of the page (untimed;
 * deep ones are slow OFFSET scans).
 */
async function depthPoint(
  pool: pg.Pool,
  set: ContenderSet,
  table: string,
  depth: number,
): Promise<DepthPoint> {
  const before = {} as Record<OrderingName, BenchRow | null>;
  const cursors = {} as Record<OrderingName, string | null>;
  for (const ordering of ORDERINGS) {
    if (depth === 0) {
      before[ordering.name] = null;
      cursors[ordering.name] = null;
      continue;
    }
    const { rows } = await pool.query<BenchRow>(
      `SELECT ${COLUMNS.join(', ')} FROM ${table} ORDER BY ${ordering.orderBy} OFFSET $1 LIMIT 1`,
      [depth - 1],
    );
    const row = rows[0];
    if (row === undefined) throw new Error(`No row at depth ${depth} of ${table}`);
    before[ordering.name] = row;
    cursors[ordering.name] = await set.cursorAfter(ordering, row);
  }
  return { depth, before, cursors };
}

function say(options: BenchOptions, line: string): void {
  options.log?.write(`${line}\n`);
}

/**
 * Runs the whole benchmark: seed (or reuse) the table, time every contender at every depth
 * round-robin, measure Pagewise's CPU cost and the HTTP endpoints, check the targets, and write
 * RESULTS.md, latency-vs-depth.svg and results.json into `options.outDir`.
 */
export async function runBenchmark(options: BenchOptions): Promise<BenchOutput> {
  const started = performance.now();
  await ensureDatabase(options.databaseUrl);
  const admin = smallPool(options.databaseUrl, 1);
  const set = createContenders(options);
  try {
    const seedStart = performance.now();
    const seeded = await ensureSeeded(admin, options.table, options.rows, options.log);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    say(
      options,
      seeded ? `Seeded in ${seedSeconds.toFixed(1)} s` : `Reusing the seeded table ${options.table}`,
    );
    const server = await serverInfo(admin);
    // Past 1M rows the table's own middle and 90% are measured too (5M and 9M on 10M rows).
    const scaled =
      options.rows > 1_000_000 && options.depths === DEFAULT_DEPTHS
        ? [...DEFAULT_DEPTHS.slice(0, -1), options.rows / 2, options.rows * 0.9, Number.POSITIVE_INFINITY]
        : options.depths;
    const depths = clampDepths(scaled, options.rows, options.pageSize);
    const load = loadavg();
    await set.warm();

    const latency: LatencyResult[] = [];
    const mismatches: string[] = [];
    const diagnostics: SlowSqlDiagnostic[] = [];
    const pagewiseSql: Record<string, string[]> = {};
    const points: DepthPoint[] = [];
    for (const depth of depths) {
      const point = await depthPoint(admin, set, options.table, depth);
      points.push(point);
      // Past --slow-max-depth the scanning contenders sit out: only cursor pages are measured.
      const measured = set.contenders.filter((c) => depth <= options.slowMaxDepth || !isScanning(c));
      const fetches = new Map<string, PageFetch>(measured.map((c) => [c.id, c.prepare(point)]));

      // Every contender must serve the raw SQL page's rows before its time counts.
      const reference = new Map<OrderingName, readonly number[]>();
      for (const c of set.contenders.filter((c) => c.kind === 'raw')) {
        reference.set(c.ordering, await fetches.get(c.id)!());
      }
      for (const c of measured) {
        const { result: got, queries } = await set.capture(c.id, () => fetches.get(c.id)!());
        const want = reference.get(c.ordering)!;
        if (got.length !== want.length || got.some((id, i) => id !== want[i])) {
          mismatches.push(
            `${c.id} at depth ${depth}: first ids ${got.slice(0, 3)} instead of ${want.slice(0, 3)}`,
          );
        }
        // Each distinct statement shape once, with the depth it first appeared at.
        const seen = pagewiseSql[c.id] ?? [];
        pagewiseSql[c.id] = seen;
        for (const q of queries) {
          if (seen.some((text) => text.startsWith(`${q.sql}\n`))) continue;
          seen.push(`${q.sql}\n-- depth ${depth}, parameters: ${JSON.stringify(q.parameters)}`);
        }
      }

      // The scanning contenders (OFFSET, counts, kysely-paginate: 10 to 800 ms a page past the first
      // pages) get a round-robin of their own. Sharing rounds with sub-millisecond keyset pages, a
      // scan occupying Postgres (a parallel count(*) both cores) slows whichever page runs next, and
      // the pages with more JavaScript the most: at depth 10k, where the scans take ~10 ms and so
      // run in every round, the hand-written Kysely page read 0.91 ms among them and 0.61 ms without.
      // Their ratios are taken against the Pagewise cursor pages sampled in their round-robin
      // (`SCAN_REFERENCE`), so every ratio still compares pages sampled side by side.
      const scanIds = new Set(measured.filter(isScanning).map((c) => c.id));
      const stats = await measureRoundRobin(
        new Map([...fetches].filter(([id]) => !scanIds.has(id))),
        options,
      );
      const scans = [...fetches].filter(([id]) => scanIds.has(id));
      if (scans.length > 0) {
        const beside = measured.filter((c) => c.kind === 'pagewise-cursor');
        const scanStats = await measureRoundRobin(
          new Map([
            ...scans,
            ...beside.map((c) => [`${c.id}${SCAN_REFERENCE}`, fetches.get(c.id)!] as const),
          ]),
          options,
        );
        for (const [contender, s] of scanStats) stats.set(contender, s);
      }
      for (const [contender, s] of stats) latency.push({ contender, depth, stats: s });
      for (const ordering of ORDERINGS) {
        const sqlRatio =
          stats.get(`pagewise-sql:${ordering.name}`)!.medianMs /
          stats.get(`raw-unnamed:${ordering.name}`)!.medianMs;
        if (!(sqlRatio > 3)) continue;
        const plans: string[] = [];
        for (const q of set.sentSql(`pagewise-cursor:${ordering.name}`)) {
          const { rows } = await admin.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`,
            [...q.parameters],
          );
          plans.push(
            `${q.sql}\n-- parameters: ${JSON.stringify(q.parameters)}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`,
          );
        }
        diagnostics.push({ ordering: ordering.name, depth, sqlRatio, plans });
      }
      const cursor = stats.get('pagewise-cursor:uniform');
      const raw = stats.get('raw:uniform');
      say(
        options,
        `depth ${depth}: Pagewise cursor ${cursor?.medianMs.toFixed(3)} ms, raw ${raw?.medianMs.toFixed(3)} ms, ` +
          (stats.has('raw-offset:uniform')
            ? `OFFSET ${stats.get('raw-offset:uniform')!.medianMs.toFixed(2)} ms`
            : 'OFFSET not run (past --slow-max-depth)'),
      );
    }

    let profile: ProfileSummary | null = null;
    const middle = points[Math.floor(points.length / 2)]!;
    if (options.profilePages > 0) {
      say(
        options,
        `Profiling ${options.profilePages} Pagewise cursor pages (postgres, depth ${middle.depth})`,
      );
      const subject = set.contenders.find((c) => c.id === 'pagewise-cursor:uniform')!;
      profile = await profilePages(
        `postgres Pagewise cursor page, uniform, depth ${middle.depth}`,
        subject.prepare(middle),
        options.profilePages,
      );
    }
    const dialects: DialectResult[] = [];
    for (const dialect of options.dialects) {
      say(options, `Measuring ${dialect}: raw, hand-written Kysely and Pagewise cursor pages`);
      const result = await measureDialect({
        ...options,
        dialect,
        depths,
        sqliteFile: options.sqliteFile ?? defaultSqliteFile(options.rows),
      });
      if (result.skipped !== null) say(options, `${dialect} skipped: ${result.skipped}`);
      mismatches.push(...result.mismatches);
      dialects.push(result);
    }

    say(options, 'Measuring Pagewise CPU cost (tinybench)');
    const cursored = points.filter((p) => p.cursors.uniform !== null);
    const recordedCursor = cursored[Math.floor(cursored.length / 2)]?.cursors.uniform;
    if (!recordedCursor) throw new Error('The CPU benchmark needs a depth past the first page');
    const cpu = await measureCpuCost({
      pageSize: options.pageSize,
      timeMs: options.cpuTimeMs,
      recorded: { pool: admin, table: options.table, cursor: recordedCursor },
    });

    let http: HttpResult | null = null;
    if (options.httpSeconds > 0) {
      say(
        options,
        `Measuring HTTP: minimal endpoint and demo feed, each ${options.httpRounds} x 2 runs of ${options.httpSeconds} s (autocannon)`,
      );
      http = await measureHttp(
        httpOptionsOf(
          options,
          points.map((p) => ({ before: p.before.uniform, cursor: p.cursors.uniform })),
        ),
      );
    }

    const partial = {
      meta: {
        date: new Date().toISOString(),
        command: options.command,
        rows: options.rows,
        table: options.table,
        pageSize: options.pageSize,
        seeded,
        seedSeconds,
        durationSeconds: 0,
        machine: {
          cpus: cpus().length,
          cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
          memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
          load: [load[0] ?? 0, loadavg()[0] ?? 0] as const,
        },
        node: process.version,
        pagewiseBuild: pagewiseBuild(),
        postgres: server.version,
        postgresSettings: server.settings,
        kyselyPaginate: set.kyselyPaginateVersions,
        sampling: {
          warmupRounds: options.warmupRounds,
          maxSamples: options.maxSamples,
          minSamples: options.minSamples,
          budgetMs: options.budgetMs,
          poolSize: options.poolSize,
        },
      },
      depths,
      contenders: set.contenders.map(({ id, kind, family, ordering, label }) => ({
        id,
        kind,
        family,
        ordering,
        label,
      })),
      latency,
      pagewiseSql,
      diagnostics,
      mismatches,
      cpu,
      http,
      dialects,
      profile,
    };
    const results: BenchResults = {
      ...partial,
      meta: { ...partial.meta, durationSeconds: (performance.now() - started) / 1000 },
      targets: evaluateTargets(partial),
    };
    await mkdir(options.outDir, { recursive: true });
    const files = {
      report: join(options.outDir, 'RESULTS.md'),
      chart: join(options.outDir, 'latency-vs-depth.svg'),
      json: join(options.outDir, 'results.json'),
    };
    await writeFile(files.chart, renderChart(results));
    await writeFile(
      files.report,
      withKeptSections(renderReport(results, 'latency-vs-depth.svg'), await readPrevious(files.report)),
    );
    await writeFile(files.json, `${JSON.stringify(results, null, 2)}\n`);
    return { results, files };
  } finally {
    await Promise.all([set.close(), admin.end()]);
  }
}
