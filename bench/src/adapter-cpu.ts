/**
 * CPU cost of one Kysely-adapter cursor page without I/O, as a quick before/after check of
 * adapter changes: seeds a small table (10,000 rows, the benchmark table's shape) in the database
 * at PG_URL, records one page there, then replays it through `measureCpuCost`.
 *
 *   PG_URL=postgres://postgres@127.0.0.1:5432/mydb pnpm --filter @pagewise/bench exec \
 *     tsx --conditions=@pagewise/source src/adapter-cpu.ts [timeMs]
 */
import { fromKysely } from '@pagewise/kysely-adapter';
import { Kysely, PostgresDialect } from 'kysely';
import { ensureSeeded } from './bench-table.js';
import type { BenchDatabase } from './contenders.js';
import { measureCpuCost } from './cpu-cost.js';
import { smallPool } from './database.js';
import { pagewiseCursorAfter } from './orderings.js';

const url = process.env.PG_URL;
if (!url) throw new Error('set PG_URL to a Postgres database the script may create a table in');
const table = 'pagewise_cpu_items';
const pool = smallPool(url, 2);
await ensureSeeded(pool, table, 10_000, null);
const db = new Kysely<BenchDatabase>({ dialect: new PostgresDialect({ pool }) });
const cursor = await pagewiseCursorAfter(
  fromKysely(db.selectFrom(table).selectAll().where('id', '=', 5000), { db }),
  ['-created', '-id'],
);
const timeMs = Number(process.argv[2] ?? 3000);
const results = await measureCpuCost({ pageSize: 50, timeMs, recorded: { pool, table, cursor } });
const { loadavg } = await import('node:os');
for (const r of results) {
  console.log(
    `${r.id.padEnd(22)} median ${r.medianUs.toFixed(1).padStart(7)} us  mean ${r.meanUs.toFixed(1).padStart(7)} us  (${r.samples} samples)`,
  );
}
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await db.destroy();
