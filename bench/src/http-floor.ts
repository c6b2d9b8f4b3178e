/**
 * Where a minimal endpoint's time goes on SQLite, in-process (no sockets, no autocannon): the three
 * handlers of `minimal-app.ts` (Pagewise, the bare better-sqlite3 handler, the hand-written Kysely
 * handler) called through the Hono app's `fetch`, body read, interleaved round by round, CPU time
 * per request. Each handler runs twice: with SQLite's real step, and with the statement answering
 * copies of rows it answered before ("JS only"), so the JavaScript side and SQLite's side separate.
 * The time spent inside better-sqlite3's `all` is timed per handler too, beside the same statement
 * run in a tight loop: a step that follows a handler's JavaScript runs slower than a repeated one.
 * The garbage collector's pauses per request are the last column (PerformanceObserver `gc` entries).
 *
 *   pnpm --filter @pagewise/bench exec tsx src/http-floor.ts [--sqlite FILE] [--page 20] [--rounds 15] [--requests 300] [--profile N]
 *
 * `--profile N` then samples N requests of each JS-only variant (V8's profiler) and prints its top self time.
 *
 * The SQLite file is the benchmark's (`pnpm bench` or `src/http-cli.ts` seeds it).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { defaultSqliteFile } from './dialect-bench.js';
import { median } from './measure.js';
import { minimalApp } from './minimal-app.js';
import { profilePages } from './profile.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const file = flag('--sqlite', defaultSqliteFile(1_000_000));
const PAGE = Number(flag('--page', '20'));
const ROUNDS = Number(flag('--rounds', '15'));
const REQUESTS = Number(flag('--requests', '300'));
const PROFILE = Number(flag('--profile', '0'));
const TABLE = 'pagewise_bench_items';
const PAGE_SIZE = 50;
if (!existsSync(file)) throw new Error(`${file} not found: seed it with pnpm bench or src/http-cli.ts`);

const { app, sqlite, close } = minimalApp({ sqliteFile: file }, TABLE, PAGE_SIZE);
type Statement = Database.Statement;

// Every better-sqlite3 statement shares one prototype: its `all` is wrapped once, to time the step
// and, while `answerCopies` is on, to answer copies of rows it answered before for the same
// statement and values (fresh objects, as the driver makes them).
const statementProto = Object.getPrototypeOf(sqlite!.bare.prepare('select 1')) as Statement;
const realAll = statementProto.all;
const answered = new Map<string, unknown[]>();
let answerCopies = false;
let stepNs = 0;
statementProto.all = function all(this: Statement, ...values: unknown[]) {
  if (answerCopies) {
    const key = `${this.source}\u0000${JSON.stringify(values)}`;
    const rows = answered.get(key);
    if (rows !== undefined) return rows.map((row) => ({ ...(row as object) }));
  }
  const start = process.hrtime.bigint();
  const rows = realAll.apply(this, values as never) as unknown[];
  stepNs += Number(process.hrtime.bigint() - start);
  if (answerCopies) answered.set(`${this.source}\u0000${JSON.stringify(values)}`, rows);
  return rows;
} as Statement['all'];

async function body(
  path: string,
): Promise<{ next: string | null; results: Array<{ id: number; created: string }> }> {
  const response = await app.fetch(new Request(`http://127.0.0.1${path}`));
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as never;
}

// Page PAGE by Pagewise's own links; the hand-written handlers start after the last row before it.
let path = '/pagewise/items';
let before: { id: number; created: string } | undefined;
for (let page = 0; page < PAGE; page += 1) {
  const page0 = await body(path);
  before = page0.results.at(-1);
  path = new URL(page0.next!).pathname + new URL(page0.next!).search;
}
const after = Buffer.from(JSON.stringify([before!.created, before!.id])).toString('base64url');
const paths = { pagewise: path, bare: `/bare/items?after=${after}`, kysely: `/kysely/items?after=${after}` };
const expected = JSON.stringify((await body(paths.bare)).results);
for (const [name, p] of Object.entries(paths)) {
  if (JSON.stringify((await body(p)).results) !== expected) throw new Error(`${name}: other rows than bare`);
}

interface Variant {
  readonly name: string;
  readonly path: string;
  readonly copies: boolean;
}
const variants: Variant[] = Object.entries(paths).flatMap(([name, p]) => [
  { name, path: p, copies: false },
  { name: `${name}, JS only`, path: p, copies: true },
]);
const once = async (v: Variant) => {
  answerCopies = v.copies;
  await (await app.fetch(new Request(`http://127.0.0.1${v.path}`))).text();
};
const cpu = new Map<string, number[]>(variants.map((v) => [v.name, []]));
// Garbage collection pauses per request: objects a request leaves reachable past a scavenge show here.
const gc = new Map<string, number[]>(variants.map((v) => [v.name, []]));
let gcMs = 0;
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
});
gcObserver.observe({ entryTypes: ['gc'] });
const step = new Map<string, number[]>(variants.map((v) => [v.name, []]));
for (const v of variants) for (let i = 0; i < REQUESTS; i += 1) await once(v);
const load = loadavg()[0]!;
// The statement alone in a tight loop: SQLite's step with nothing between.
const tight: number[] = [];
const rawAfter = sqlite!.bare.prepare(
  `SELECT id, created, score, title FROM ${TABLE} WHERE (created, id) < (?, ?) ORDER BY created DESC, id DESC LIMIT ?`,
);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const v of [...variants].sort(() => Math.random() - 0.5)) {
    stepNs = 0;
    // Entries arrive on a later turn of the event loop: let earlier ones land before counting.
    await new Promise((resolve) => setTimeout(resolve, 5));
    gcMs = 0;
    const start = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i += 1) await once(v);
    const used = process.cpuUsage(start);
    await new Promise((resolve) => setTimeout(resolve, 5));
    gc.get(v.name)!.push((gcMs * 1000) / REQUESTS);
    cpu.get(v.name)!.push((used.user + used.system) / REQUESTS);
    step.get(v.name)!.push(stepNs / REQUESTS / 1000);
  }
  answerCopies = false;
  stepNs = 0;
  for (let i = 0; i < REQUESTS; i += 1) rawAfter.all(before!.created, before!.id, PAGE_SIZE + 1);
  tight.push(stepNs / REQUESTS / 1000);
}
const bare = median(cpu.get('bare')!);
const bareJs = median(cpu.get('bare, JS only')!);
console.log(
  `SQLite ${file}, page ${PAGE} (after row ${PAGE * PAGE_SIZE}), ${ROUNDS} rounds of ${REQUESTS} requests; load ${load.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)}`,
);
gcObserver.disconnect();
console.log(
  'handler                 CPU us/request  bare/this  JS over bare JS  step inside all (us)  GC us/request',
);
for (const v of variants) {
  const c = median(cpu.get(v.name)!);
  const s = v.copies ? '-' : median(step.get(v.name)!).toFixed(1);
  const js = v.copies ? (c - bareJs).toFixed(1) : '';
  console.log(
    `${v.name.padEnd(24)}${c.toFixed(1).padStart(14)}${(bare / c).toFixed(2).padStart(11)}${js.padStart(17)}${s.padStart(21)}${median(gc.get(v.name)!).toFixed(1).padStart(15)}`,
  );
}
console.log(`the statement alone in a tight loop: ${median(tight).toFixed(1)} us per step`);
for (const v of PROFILE > 0 ? variants.filter((v) => v.copies) : []) {
  const summary = await profilePages(
    v.name,
    async () => {
      await once(v);
      return [];
    },
    PROFILE,
  );
  console.log(
    `profile ${v.name}: ${summary.cpuUsPerPage.toFixed(1)} us sampled per request; ${summary.areas.map((a) => `${a.area} ${a.usPerPage.toFixed(1)}`).join(', ')}`,
  );
  for (const entry of summary.top) console.log(`  ${entry.usPerPage.toFixed(1).padStart(6)} us  ${entry.fn}`);
}
await close();
