/**
 * `pnpm --filter @pagewise/bench run render [-- DIR]`: rewrites RESULTS.md and the chart from the
 * `results.json` of a run (after a change to the report's wording; the numbers stay that run's).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderChart } from './chart.js';
import { BENCH_DIR } from './options.js';
import { readPrevious, renderReport, withKeptSections } from './report.js';
import type { BenchResults } from './run-benchmark.js';
import { evaluateTargets } from './targets.js';

const dir = process.argv.slice(2).find((a) => a !== '--') ?? BENCH_DIR;
const stored = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as BenchResults;
const results: BenchResults = { ...stored, targets: evaluateTargets(stored) };
await writeFile(join(dir, 'latency-vs-depth.svg'), renderChart(results));
const report = join(dir, 'RESULTS.md');
await writeFile(
  report,
  withKeptSections(renderReport(results, 'latency-vs-depth.svg'), await readPrevious(report)),
);
process.stdout.write(`Rewrote ${join(dir, 'RESULTS.md')} from ${join(dir, 'results.json')}\n`);
