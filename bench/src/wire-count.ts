/**
 * What one page of each Postgres cursor contender of the bench costs on the wire and in the event
 * loop, at `--depth` in `--ordering`:
 *
 * - counted over `--pages` pages each (after `--warm` untimed ones): socket writes (`write` calls
 *   and the `_writev`/`_write` they become, one syscall each), the protocol messages in them by type
 *   (a reused named statement sends no Parse), socket reads, pool checkouts, queries named or not
 *   and the async resources made (`WIRE_PROMISE_STACKS=1` also says where each promise is made);
 * - `--cpu-rounds N --cpu-pages P`: user and system CPU and wall time per page, contenders
 *   interleaved round by round (medians);
 * - `--iprofile N`: one V8 profile over N interleaved rounds, each sample given to the contender whose
 *   page was running: self time per page side by side under the same load;
 * - `--profile N`: N pages of each contender profiled alone (what the bench's profile does);
 * - `--rounds N [--passes K]`: the bench's round-robin sampling, medians and ratios to `raw`.
 *
 *   PG_URL=postgres://postgres@127.0.0.1:5432/test pnpm --filter @pagewise/bench exec \
 *     tsx src/wire-count.ts [--depth 500000] [--ordering uniform] [--kinds raw,pagewise-cursor] \
 *     [--pages 400] [--cpu-rounds 25] [--iprofile 4000] [--rounds 300 --passes 3]
 */
import { createHook } from 'node:async_hooks';
import { Session } from 'node:inspector/promises';
import { Socket } from 'node:net';
import { loadavg } from 'node:os';
import pg from 'pg';
import { COLUMNS } from './bench-table.js';
import { createContenders, type DepthPoint } from './contenders.js';
import { smallPool } from './database.js';
import { measureRoundRobin, median, type PageFetch, timePages } from './measure.js';
import { defaultDatabaseUrl } from './options.js';
import { ORDERINGS, type OrderingName } from './orderings.js';
import { areaOf, profilePages, shortFile } from './profile.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
};
const DEPTH = Number(option('--depth', '500000'));
const ORDERING = option('--ordering', 'uniform') as OrderingName;
const PAGES = Number(option('--pages', '400'));
const ROUNDS = Number(option('--rounds', '0'));
const PROFILE = Number(option('--profile', '0'));
const WARM = Number(option('--warm', '50'));
const PASSES = Number(option('--passes', '1'));
const IPROFILE = Number(option('--iprofile', '0'));
const CPU_ROUNDS = Number(option('--cpu-rounds', '0'));
const CPU_PAGES = Number(option('--cpu-pages', '100'));
const KINDS = option('--kinds', 'raw,raw-unnamed,kysely-hand,pagewise-cursor').split(',');
const TABLE = 'pagewise_bench_items';

const counts = new Map<string, number>();
let counting = false;
const bump = (key: string, by = 1) => {
  if (counting && Number.isFinite(by)) counts.set(key, (counts.get(key) ?? 0) + by);
};

const MESSAGE = new Map([
  [0x50, 'Parse'],
  [0x42, 'Bind'],
  [0x44, 'Describe'],
  [0x45, 'Execute'],
  [0x53, 'Sync'],
  [0x48, 'Flush'],
  [0x51, 'Query'],
  [0x43, 'Close'],
]);

type Methods = Record<string, (...a: unknown[]) => unknown>;

/** Replaces `target[method]` by `wrapper(original)`; returns the undo. */
function patch(
  target: Methods,
  method: string,
  wrapper: (original: (...a: unknown[]) => unknown) => (...a: unknown[]) => unknown,
) {
  const own = Object.hasOwn(target, method);
  const original = target[method]!;
  target[method] = wrapper(original);
  return () => {
    if (own) target[method] = original;
    else delete target[method];
  };
}

/**
 * Counts while `fn` runs: Socket.write (the calls pg makes; the messages in them), _writev/_write
 * (what reaches the handle, one syscall each), reads, pool checkouts, queries and async resources.
 * Nothing is patched outside it, so timing and profiles run on the stock prototypes.
 */
async function counted(fn: () => Promise<void>): Promise<void> {
  const socket = Socket.prototype as unknown as Methods;
  const undo = [
    patch(
      socket,
      'write',
      (original) =>
        function (this: Socket, chunk: unknown, ...rest: unknown[]) {
          bump('socket.write calls');
          if (Buffer.isBuffer(chunk)) {
            bump('bytes written', chunk.length);
            let at = 0;
            while (chunk.length - at >= 5) {
              bump(`msg ${MESSAGE.get(chunk[at]!) ?? chunk[at]}`);
              at += chunk.readInt32BE(at + 1) + 1;
            }
          }
          return original.call(this, chunk, ...rest);
        },
    ),
    ...(['_writev', '_write'] as const).map((method) =>
      patch(
        socket,
        method,
        (original) =>
          function (this: Socket, ...a: unknown[]) {
            bump(`handle ${method}`);
            return original.apply(this, a);
          },
      ),
    ),
    patch(
      socket,
      'push',
      (original) =>
        function (this: Socket, chunk: unknown, ...rest: unknown[]) {
          if (Buffer.isBuffer(chunk)) {
            bump('socket reads');
            bump('bytes read', chunk.length);
          }
          return original.call(this, chunk, ...rest);
        },
    ),
    patch(
      pg.Pool.prototype as unknown as Methods,
      'connect',
      (original) =>
        function (this: pg.Pool, ...a: unknown[]) {
          bump('pool.connect');
          return original.apply(this, a);
        },
    ),
    patch(
      pg.Client.prototype as unknown as Methods,
      'query',
      (original) =>
        function (this: pg.Client, config: unknown, ...a: unknown[]) {
          const named = typeof config === 'object' && config !== null && 'name' in config && config.name;
          bump(named ? 'client.query named' : 'client.query unnamed');
          return original.call(this, config, ...a);
        },
    ),
  ];
  const hook = createHook({
    init(_id, type) {
      bump(`async ${type}`);
      if (type === 'PROMISE' && process.env.WIRE_PROMISE_STACKS) {
        // Where each promise is made: the first two frames outside the hook.
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 30;
        const stack = new Error().stack ?? '';
        Error.stackTraceLimit = limit;
        const frames = stack
          .split('\n')
          .slice(1)
          .filter((f) => !f.includes('node:internal') && !f.includes('wire-count'))
          .slice(0, 3)
          .map((f) =>
            f
              .trim()
              .replace(/^at /, '')
              .replace(/\/.*\/(node_modules|packages)\/(\.pnpm\/[^/]+\/node_modules\/)?/, ''),
          );
        bump(`  promise @ ${frames.join(' < ')}`);
      }
    },
  }).enable();
  counting = true;
  try {
    await fn();
  } finally {
    counting = false;
    hook.disable();
    for (const u of undo) u();
  }
}

const databaseUrl = defaultDatabaseUrl();
const set = createContenders({ databaseUrl, table: TABLE, pageSize: 50, poolSize: 2 });
const admin = smallPool(databaseUrl, 1);
try {
  await set.warm();
  const before = {} as Record<OrderingName, never>;
  const cursors = {} as Record<OrderingName, string | null>;
  for (const ordering of ORDERINGS) {
    if (DEPTH === 0) {
      (before as Record<string, unknown>)[ordering.name] = null;
      cursors[ordering.name] = null;
      continue;
    }
    const { rows } = await admin.query(
      `SELECT ${COLUMNS.join(', ')} FROM ${TABLE} ORDER BY ${ordering.orderBy} OFFSET $1 LIMIT 1`,
      [DEPTH - 1],
    );
    (before as Record<string, unknown>)[ordering.name] = rows[0];
    cursors[ordering.name] = await set.cursorAfter(ordering, rows[0]);
  }
  const point = { depth: DEPTH, before, cursors } as DepthPoint;
  const chosen = set.contenders.filter((c) => c.ordering === ORDERING && KINDS.includes(c.kind));
  const fetches = new Map<string, PageFetch>(chosen.map((c) => [c.id, c.prepare(point)]));
  const table: Record<string, Record<string, string>> = {};
  for (const [id, fetch] of fetches) {
    for (let i = 0; i < WARM; i += 1) await fetch();
    counts.clear();
    await counted(async () => {
      for (let i = 0; i < PAGES; i += 1) await fetch();
    });
    for (const [key, n] of [...counts].sort()) {
      table[key] ??= {};
      table[key]![id] = (n / PAGES).toFixed(2);
    }
  }
  if (PAGES > 0) {
    console.log(`per page, depth ${DEPTH}, ${ORDERING}, ${PAGES} pages each`);
    console.table(table);
  }
  if (CPU_ROUNDS > 0) {
    // Interleaved: each round runs every contender for CPU_PAGES pages, user and system CPU apart.
    const per = new Map<string, { user: number[]; system: number[]; wall: number[] }>(
      [...fetches.keys()].map((id) => [id, { user: [], system: [], wall: [] }]),
    );
    for (let round = 0; round < CPU_ROUNDS; round += 1) {
      for (const [id, fetch] of fetches) {
        const used = await timePages(fetch, CPU_PAGES);
        const m = per.get(id)!;
        m.user.push(used.user);
        m.system.push(used.system);
        m.wall.push(used.wall);
      }
    }
    const base = per.get(`raw:${ORDERING}`);
    console.log(
      `CPU per page (us), median of ${CPU_ROUNDS} interleaved rounds of ${CPU_PAGES} pages; load ${loadavg()[0]!.toFixed(2)}`,
    );
    for (const [id, m] of per) {
      const wall = median(m.wall);
      console.log(
        `${id.padEnd(28)} user ${median(m.user).toFixed(0).padStart(4)}  system ${median(m.system).toFixed(0).padStart(4)}  wall ${wall.toFixed(0).padStart(4)}` +
          (base ? `  wall/raw ${(wall / median(base.wall)).toFixed(2)}x` : ''),
      );
    }
  }
  if (IPROFILE > 0) await interleavedProfile(fetches, IPROFILE);
  if (PROFILE > 0) {
    for (const [id, fetch] of fetches) {
      const summary = await profilePages(id, fetch, PROFILE);
      console.log(
        `${id}: wall ${summary.wallUsPerPage.toFixed(0)} us, cpu ${summary.cpuUsPerPage.toFixed(0)} us/page; ` +
          summary.areas.map((a) => `${a.area} ${a.usPerPage.toFixed(0)}`).join(', '),
      );
      for (const e of summary.top)
        console.log(`    ${e.usPerPage.toFixed(1).padStart(6)} ${e.area.padEnd(15)} ${e.fn}`);
    }
  }
  for (let pass = 1; ROUNDS > 0 && pass <= PASSES; pass += 1) {
    // As the bench samples a depth: 5 untimed rounds, then round-robin.
    const stats = await measureRoundRobin(fetches, {
      warmupRounds: 5,
      maxSamples: ROUNDS,
      minSamples: ROUNDS,
      budgetMs: 1e9,
    });
    const raw = stats.get(`raw:${ORDERING}`)!.medianMs;
    for (const [id, s] of stats)
      console.log(
        `pass ${pass} ${id.padEnd(28)} median ${s.medianMs.toFixed(3)} ms  ${(s.medianMs / raw).toFixed(2)}x`,
      );
  }
} finally {
  await admin.end();
  await set.close();
}

/**
 * One V8 sampling profile over `rounds` rounds that run one page of every contender each, every
 * sample given to the contender whose page was running when it was taken (the profiler's clock
 * is the monotonic clock of `process.hrtime`): self time per page side by side, under the same load.
 */
async function interleavedProfile(fetches: ReadonlyMap<string, PageFetch>, rounds: number): Promise<void> {
  const ids = [...fetches.keys()];
  const spans: Array<[number, bigint, bigint]> = [];
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let round = 0; round < rounds; round += 1) {
    for (let c = 0; c < ids.length; c += 1) {
      const start = process.hrtime.bigint();
      await fetches.get(ids[c]!)!();
      spans.push([c, start, process.hrtime.bigint()]);
    }
  }
  const { profile } = await session.post('Profiler.stop');
  await session.post('Profiler.disable');
  session.disconnect();
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = ids.map(() => new Map<string, number>());
  const areas = ids.map(() => new Map<string, number>());
  let at = profile.startTime;
  let span = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i += 1) {
    at += deltas[i] ?? 0;
    // The sample covers the interval before it; it belongs to the span holding its time.
    const ns = BigInt(Math.round(at * 1000));
    while (span < spans.length && spans[span]![2] < ns) span += 1;
    if (span >= spans.length || spans[span]![1] > ns) continue;
    const frame = frames.get(samples[i]!)!;
    const area = areaOf(frame);
    if (area === 'idle') continue;
    const c = spans[span]![0];
    const us = (i + 1 < deltas.length ? deltas[i + 1]! : 0) || 100;
    const fn = `${frame.functionName || '(anonymous)'} (${shortFile(frame.url)}:${frame.lineNumber + 1})`;
    self[c]!.set(fn, (self[c]!.get(fn) ?? 0) + us);
    areas[c]!.set(area, (areas[c]!.get(area) ?? 0) + us);
  }
  console.log(`interleaved profile, ${rounds} pages each, self time per page (us)`);
  for (let c = 0; c < ids.length; c += 1) {
    const total = [...areas[c]!.values()].reduce((a, b) => a + b, 0);
    console.log(
      `${ids[c]}: ${(total / rounds).toFixed(0)} us; ` +
        [...areas[c]!]
          .sort((a, b) => b[1] - a[1])
          .map(([a, us]) => `${a} ${(us / rounds).toFixed(1)}`)
          .join(', '),
    );
    const top = [...self[c]!]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(process.env.BENCH_PROFILE_TOP ?? 12));
    for (const [fn, us] of top) console.log(`    ${(us / rounds).toFixed(1).padStart(6)} ${fn}`);
  }
}
