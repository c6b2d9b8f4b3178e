import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { KIND_LABELS } from '../src/contenders.js';
import { SCAN_REFERENCE } from '../src/measure.js';
import { benchOptions, parseArgs } from '../src/options.js';
import { pagewiseBuildOf } from '../src/pagewise-build.js';
import { clampDepths, runBenchmark } from '../src/run-benchmark.js';

const PG_URL = process.env.PG_URL;
if (!PG_URL) console.warn('bench smoke run skipped: it needs Postgres, and PG_URL is not set');

describe('bench options', () => {
  it('reads the row count after the `--` pnpm forwards', () => {
    const options = parseArgs(['--', '--rows', '10_000_000']);
    expect(options).not.toBe('help');
    expect(options !== 'help' && options.rows).toBe(10_000_000);
    expect(options !== 'help' && options.command).toBe('pnpm bench -- --rows 10_000_000');
  });

  it('tells a run of the built packages from one of their sources', () => {
    expect(pagewiseBuildOf('file:///w/packages/core/dist/index.js')).toBe('dist');
    expect(pagewiseBuildOf('file:///w/packages/core/src/index.ts')).toBe('source');
    expect(pagewiseBuildOf(import.meta.resolve('@pagewise/core'))).toBe('source');
  });

  it('clamps depths to the last page and adds no duplicates', () => {
    expect(clampDepths(benchOptions().depths, 1_000_000, 50)).toEqual([
      0, 10_000, 100_000, 500_000, 900_000, 999_950,
    ]);
    expect(clampDepths(benchOptions().depths, 3000, 50)).toEqual([0, 2950]);
  });
});

describe.skipIf(!PG_URL)('bench smoke run against PG_URL', () => {
  it('measures every contender on a few thousand rows and writes the report elsewhere', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'pagewise-bench-'));
    // Per-process names: parallel runs sharing one server do not drop each other's tables.
    const table = `pagewise_bench_smoke_${process.pid}`;
    const demoSchema = `pagewise_bench_smoke_demo_${process.pid}`;
    try {
      const { results, files } = await runBenchmark(
        benchOptions({
          databaseUrl: PG_URL!,
          table,
          rows: 3000,
          depths: [0, 1000, Number.POSITIVE_INFINITY],
          maxSamples: 3,
          minSamples: 1,
          budgetMs: 50,
          warmupRounds: 1,
          httpSeconds: 1,
          httpRounds: 1,
          httpConnections: 2,
          demoSchema,
          demoArticles: 300,
          cpuTimeMs: 20,
          profilePages: 20,
          sqliteFile: join(outDir, 'smoke.sqlite'),
          outDir,
          command: 'vitest bench-smoke',
          log: null,
        }),
      );
      expect(results.mismatches).toEqual([]);
      const kinds = new Set(results.contenders.map((c) => c.kind));
      expect([...kinds].sort()).toEqual(Object.keys(KIND_LABELS).sort());
      expect(results.depths).toEqual([0, 1000, 2950]);
      for (const contender of results.contenders) {
        for (const depth of results.depths) {
          const entry = results.latency.find((l) => l.contender === contender.id && l.depth === depth);
          expect(entry?.stats.samples, `${contender.id} at ${depth}`).toBeGreaterThan(0);
          expect(Number.isFinite(entry?.stats.medianMs)).toBe(true);
          expect(Number.isFinite(entry?.stats.p95Ms)).toBe(true);
        }
      }
      // The scanning contenders' ratios are taken against Pagewise pages sampled in their round-robin.
      for (const ordering of ['uniform', 'mixed', 'nullable']) {
        for (const depth of results.depths) {
          const beside = results.latency.find(
            (l) => l.contender === `pagewise-cursor:${ordering}${SCAN_REFERENCE}` && l.depth === depth,
          );
          expect(beside?.stats.samples, `${ordering} beside the scans at ${depth}`).toBeGreaterThan(0);
        }
      }
      for (const id of ['kysely-paginate', 'offset']) {
        expect(results.targets.find((t) => t.id === id)?.measured, id).toMatch(/^(raw OFFSET )?\d+x/);
      }
      expect(results.cpu.length).toBeGreaterThan(0);
      for (const cpu of results.cpu) expect(Number.isFinite(cpu.medianUs)).toBe(true);
      expect(results.http?.comparisons.map((c) => c.id)).toEqual([
        'pagewise',
        'demo',
        'pagewise-sqlite',
        'demo-sqlite',
      ]);
      for (const c of results.http?.comparisons ?? []) {
        expect(c.subjectSummary.requestsPerSecond).toBeGreaterThan(0);
        expect(c.bareSummary.requestsPerSecond).toBeGreaterThan(0);
        // The minimal pairs measure the hand-written Kysely handler too; the demo pairs do not.
        if (c.id.startsWith('pagewise')) expect(c.kyselySummary?.requestsPerSecond).toBeGreaterThan(0);
        else expect(c.kyselySummary).toBeNull();
        expect(c.runs.every((r) => r.errors === 0)).toBe(true);
      }
      // SQLite always runs; MariaDB when MYSQL_URL is set (otherwise its section says why not).
      const sqlite = results.dialects.find((d) => d.dialect === 'sqlite')!;
      expect(sqlite.skipped).toBeNull();
      for (const d of results.dialects.filter((x) => x.skipped === null)) {
        expect(d.depths).toEqual([0, 1000, 2950]);
        // Every contender served the raw statement's rows, Pagewise's statements through Kysely included.
        expect(d.mismatches).toEqual([]);
        for (const kind of ['raw', 'kysely-hand', 'pagewise-sql-kysely', 'pagewise-cursor']) {
          for (const ordering of ['uniform', 'mixed', 'nullable']) {
            for (const depth of d.depths) {
              const entry = d.latency.find((l) => l.contender === `${kind}:${ordering}` && l.depth === depth);
              expect(entry?.stats.samples, `${d.dialect} ${kind}:${ordering} at ${depth}`).toBeGreaterThan(0);
            }
          }
        }
        expect(d.profile?.cpuUsPerPage).toBeGreaterThan(0);
        // Pages that grew with depth carry how the database ran each of their statements.
        expect(Array.isArray(d.slowPlans)).toBe(true);
        for (const slow of d.slowPlans ?? []) {
          expect(slow.medianMs).toBeGreaterThan(slow.firstMs);
          expect(slow.statements.length).toBeGreaterThan(0);
          for (const s of slow.statements) expect(s.plan.length, s.sql).toBeGreaterThan(0);
        }
      }
      expect(results.profile?.areas.length).toBeGreaterThan(0);
      expect(results.targets.map((t) => t.id)).toEqual([
        'cursor-vs-raw',
        'cursor-vs-kysely',
        'sqlite-vs-kysely',
        'sqlite-vs-raw',
        'mariadb-vs-kysely',
        'depth-invariance',
        'kysely-paginate',
        'offset',
        'estimated-count',
        'cpu',
        'http',
      ]);
      expect(files.report.startsWith(outDir)).toBe(true);
      expect(await readFile(files.report, 'utf8')).toContain('## Targets');
      // Vitest resolves the workspace packages to their sources: the report says so.
      expect(results.meta.pagewiseBuild).toBe('source');
      expect(await readFile(files.report, 'utf8')).toContain(
        '| Pagewise build | TypeScript sources through tsx',
      );
      expect(await readFile(files.chart, 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
    } finally {
      await rm(outDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP TABLE IF EXISTS ${table}`);
      await client.query(`DROP SCHEMA IF EXISTS ${demoSchema} CASCADE`);
      await client.end();
      if (process.env.MYSQL_URL) {
        const mysql = await createConnection(process.env.MYSQL_URL);
        await mysql.query(`DROP TABLE IF EXISTS ${table}`);
        await mysql.end();
      }
    }
  }, 120_000); // Seconds on an idle machine; minutes' margin for a loaded CI runner.
});
