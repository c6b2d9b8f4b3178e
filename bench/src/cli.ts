/**
 * `pnpm bench [-- options]`: seeds (or reuses) the benchmark table, measures every contender and
 * rewrites bench/RESULTS.md and bench/latency-vs-depth.svg.
 */
import { parseArgs, USAGE } from './options.js';
import { runBenchmark } from './run-benchmark.js';

const options = parseArgs(process.argv.slice(2));
if (options === 'help') {
  process.stdout.write(`${USAGE}\n`);
} else {
  const { results, files } = await runBenchmark(options);
  for (const t of results.targets) {
    const verdict = t.met === null ? 'not measured' : t.met ? 'met' : 'NOT MET';
    process.stdout.write(`${verdict.padEnd(12)} ${t.target}: ${t.measured}\n`);
  }
  if (results.mismatches.length > 0) {
    process.stdout.write(`${results.mismatches.length} row mismatches, see ${files.report}\n`);
    process.exitCode = 1;
  }
  process.stdout.write(
    `Wrote ${files.report}, ${files.chart} and ${files.json} in ${results.meta.durationSeconds.toFixed(0)} s\n`,
  );
}
