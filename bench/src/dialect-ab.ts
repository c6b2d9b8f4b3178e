/**
 * The MariaDB (or SQLite) cursor-page table of `pnpm bench` for this checkout and for others
 * (`--against DIR`, a `git worktree add` with its `pnpm install` and `pnpm run build`), run one
 * after the other in alternating order, round after round, in one process: each run's Pagewise /
 * hand-written Kysely ratio is taken within the run, and the median of the rounds is printed per
 * ordering and depth, so a before/after comparison sees the same machine load.
 *
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/pagewise_bench pnpm --filter @pagewise/bench exec \
 *     tsx src/dialect-ab.ts --against /tmp/base [--rounds 4] [--dialect mariadb|sqlite] [--budget-ms 1500]
 *
 * Run without `--conditions=@pagewise/source`: each checkout's bench times its built packages.
 * Compare two `--against` checkouts, not this one with another: the checkout the process runs from
 * measured 4-6% lower ratios than another checkout of the very same code (SQLite, 3 rounds); the
 * others are loaded alike.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DialectResult, measureDialect } from './dialect-bench.js';
import { defaultSqliteFile } from './dialect-bench.js';
import { median } from './measure.js';
import { ORDERINGS } from './orderings.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
};
const rounds = Number(option('--rounds', '4'));
const dialect = option('--dialect', 'mariadb') as 'mariadb' | 'sqlite';
const budgetMs = Number(option('--budget-ms', '1500'));
const rows = 1_000_000;
const depths = [0, 10_000, 500_000, rows - 50];
const mysqlUrl = process.env.BENCH_MYSQL_URL || process.env.MYSQL_URL || null;

const checkouts: Array<{ name: string; measure: typeof measureDialect }> = [
  { name: 'this', measure: (await import('./dialect-bench.js')).measureDialect },
];
for (const [i, arg] of args.entries()) {
  if (args[i - 1] !== '--against') continue;
  const dir = resolve(arg);
  const module = await import(pathToFileURL(`${dir}/bench/src/dialect-bench.ts`).href);
  checkouts.push({ name: dir, measure: module.measureDialect });
}

/** Pagewise / hand-written Kysely per `ordering@depth`, one list per checkout. */
const ratios = new Map<string, Map<string, number[]>>(checkouts.map((c) => [c.name, new Map()]));
const cells = ORDERINGS.flatMap((o) => depths.map((d) => `${o.name}@${d}`));
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
  for (const checkout of order) {
    const load = loadavg()[0]!;
    const result: DialectResult = await checkout.measure({
      dialect,
      rows,
      table: 'pagewise_bench_items',
      pageSize: 50,
      depths,
      sqliteFile: defaultSqliteFile(rows),
      mysqlUrl,
      profilePages: 0,
      log: null,
      warmupRounds: 5,
      maxSamples: 300,
      minSamples: 5,
      budgetMs,
    });
    if (result.skipped !== null) throw new Error(result.skipped);
    if (result.mismatches.length > 0) throw new Error(result.mismatches.join('\n'));
    const line: string[] = [];
    for (const cell of cells) {
      const [ordering, depth] = cell.split('@') as [string, string];
      const medianOf = (kind: string) =>
        result.latency.find((l) => l.contender === `${kind}:${ordering}` && l.depth === Number(depth))!.stats
          .medianMs;
      const ratio = medianOf('pagewise-cursor') / medianOf('kysely-hand');
      const list = ratios.get(checkout.name)!;
      list.set(cell, [...(list.get(cell) ?? []), ratio]);
      line.push(ratio.toFixed(2));
    }
    console.log(`round ${round} ${checkout.name} (load ${load.toFixed(1)}): ${line.join(' ')}`);
  }
}

console.log(`\n${dialect}: Pagewise / hand-written Kysely, median of ${rounds} rounds`);
console.log(['cell'.padEnd(18), ...checkouts.map((c) => c.name)].join('  '));
for (const cell of cells) {
  console.log(
    [cell.padEnd(18), ...checkouts.map((c) => median(ratios.get(c.name)!.get(cell)!).toFixed(3))].join('  '),
  );
}
process.exit(0);
