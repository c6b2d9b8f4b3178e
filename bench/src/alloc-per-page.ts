/**
 * Bytes a Kysely-adapter cursor page allocates, beside the same keyset page hand-written in Kysely:
 * both over Postgres results recorded once and replayed without I/O (so the driver's rows are not
 * counted, only what Kysely and Pagewise make of them), the bench table's uniform ordering, a page
 * inside it, a fresh `fromKysely` per page and both links built. Allocation is a count, not a
 * timing: it does not move with the machine's load, and it is what the young-generation collector
 * pays for.
 *
 *   pnpm --filter @pagewise/bench run alloc [-- --pages 500 --top 25]
 *
 * Prints, per contender and round, the new-space bytes one page leaves (no collection may run
 * while it counts: a round that saw one says so), then the functions that allocated them (V8's
 * sampling heap profiler, objects collected since included). Needs the table `pnpm bench` seeds
 * (BENCH_DATABASE_URL, else PG_URL's server, database pagewise_bench).
 */
import { Session } from 'node:inspector/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { fromKysely, nameStatements } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import { Kysely } from 'kysely';
import { type BenchRow, COLUMNS } from './bench-table.js';
import type { BenchDatabase } from './contenders.js';
import { RecordingDialect, ReplayDialect, type Tape } from './cpu-cost.js';
import { smallPool } from './database.js';
import { kyselyKeysetPage } from './kysely-keyset.js';
import { defaultDatabaseUrl } from './options.js';
import { ORDERINGS, UNIQUE_KEY } from './orderings.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const PAGES = option('--pages', 500);
const TOP = option('--top', 25);
const TABLE = 'pagewise_bench_items';
const PAGE_SIZE = 50;
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with node --expose-gc (see the header)');

const uniform = ORDERINGS[0]!;
const pool = smallPool(defaultDatabaseUrl(), 2);
const tape: Tape = new Map();
// Recorded through `nameStatements`, as the bench's Pagewise pages run: positions from recorded text.
const recorder = new Kysely<BenchDatabase>({
  dialect: new RecordingDialect({ pool: nameStatements(pool) }, tape),
});
const pagination = new CursorPagination({ pageSize: PAGE_SIZE, ordering: uniform.pagewise });
const query = (db: Kysely<BenchDatabase>) =>
  fromKysely(db.selectFrom(TABLE).select([...COLUMNS]), { db, uniqueKey: UNIQUE_KEY });
const first = (await pagination.paginateQueryset(
  query(recorder),
  new ApiRequest({ url: 'http://127.0.0.1/items' }),
))!;
const next = (pagination.getPaginatedResponse(first).data as { next: string }).next;
await pagination.paginateQueryset(query(recorder), new ApiRequest({ url: next }));
const after = first.at(-1) as BenchRow;
const handPage = (db: Kysely<BenchDatabase>) =>
  kyselyKeysetPage(db, TABLE, 'uniform', after, PAGE_SIZE + 1, { rowValues: true, nullsLast: true });
await handPage(recorder).execute();
await pool.end();

const db = new Kysely<BenchDatabase>({ dialect: new ReplayDialect(tape) });
const contenders: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
  [
    'Pagewise cursor page',
    async () =>
      pagination.getPaginatedResponse(
        (await pagination.paginateQueryset(query(db), new ApiRequest({ url: next })))!,
      ),
  ],
  ['hand-written Kysely page', async () => (await handPage(db).execute()).slice(0, PAGE_SIZE)],
];
const newSpace = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_used_size;

for (const [, page] of contenders) for (let i = 0; i < 3000; i += 1) await page();
for (let round = 1; round <= 3; round += 1) {
  for (const [name, page] of contenders) {
    collect();
    const before = newSpace();
    for (let i = 0; i < PAGES; i += 1) await page();
    const used = newSpace() - before;
    console.log(
      `round ${round}  ${name.padEnd(26)} ${used > 0 ? `${Math.round(used / PAGES)} bytes/page` : 'a collection ran: rerun with a larger --max-semi-space-size'}`,
    );
  }
}

interface HeapNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
for (const [name, page] of contenders) {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 32,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  const pages = PAGES * 4;
  for (let i = 0; i < pages; i += 1) await page();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
  const bytes = new Map<string, number>();
  const walk = (node: HeapNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = `${functionName || '(anonymous)'} (${url.split('/').slice(-2).join('/')}:${lineNumber + 1})`;
    bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${name}: ${Math.round(total / pages)} bytes/page sampled; by function:`);
  for (const [where, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${String(Math.round(size / pages)).padStart(6)}  ${where}`);
}
session.disconnect();
