import { Session } from 'node:inspector/promises';
import { type LatencyStats, measureRoundRobin, type PageFetch, type SamplingPlan } from './measure.js';

/** Where a sampled function lives. */
export type ProfileArea =
  | 'pagewise core'
  | 'pagewise sql'
  | 'pagewise rest'
  | 'kysely adapter'
  | 'drizzle adapter'
  | 'kysely'
  | 'drizzle'
  | 'driver'
  | 'node internals'
  | 'gc'
  | 'bench harness'
  | 'other';

/** Self time of one function, per page. */
export interface ProfileEntry {
  readonly area: ProfileArea;
  /** `name (file:line)`. */
  readonly fn: string;
  readonly usPerPage: number;
}

/** A CPU profile of many pages of one contender: self time per page, by area and by function. */
export interface ProfileSummary {
  readonly subject: string;
  readonly pages: number;
  /** Wall time per page while profiling (the profiler slows pages a little). */
  readonly wallUsPerPage: number;
  /** Sampled CPU time per page (everything but idle). */
  readonly cpuUsPerPage: number;
  readonly areas: ReadonlyArray<{ readonly area: ProfileArea; readonly usPerPage: number }>;
  /** The functions with the most self time, most first. */
  readonly top: readonly ProfileEntry[];
  /**
   * Pagewise's functions with the most time spent in them and the calls they make before they
   * return or await (their synchronous inclusive time), most first: where a page's phases go.
   */
  readonly inclusive: readonly ProfileEntry[];
}

export interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

export function areaOf(frame: CallFrame): ProfileArea | 'idle' {
  const { url, functionName } = frame;
  if (functionName === '(idle)' || functionName === '(program)') return 'idle';
  if (functionName === '(garbage collector)') return 'gc';
  if (url.includes('/packages/core/')) return 'pagewise core';
  if (url.includes('/packages/sql/')) return 'pagewise sql';
  if (url.includes('/packages/rest/')) return 'pagewise rest';
  if (url.includes('/packages/kysely-adapter/')) return 'kysely adapter';
  if (url.includes('/packages/drizzle-adapter/')) return 'drizzle adapter';
  if (/node_modules\/(\.pnpm\/)?kysely[@/]/.test(url)) return 'kysely';
  if (/node_modules\/(\.pnpm\/)?drizzle-orm[@/]/.test(url)) return 'drizzle';
  if (
    /node_modules\/(\.pnpm\/)?(pg|pg-[a-z-]+|postgres-[a-z-]+|mysql2|better-sqlite3|sqlstring|lru\.min)[@/]/.test(
      url,
    )
  )
    return 'driver';
  if (url.startsWith('node:') || url === '' || functionName.startsWith('(')) return 'node internals';
  if (url.includes('/bench/src/')) return 'bench harness';
  return 'other';
}

export function shortFile(url: string): string {
  const clean = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(clean);
  if (pkg) return `${pkg[1]}/${pkg[2]!.split('/').at(-1)}`;
  return clean.split('/').at(-1) || 'native';
}

/** Self time per area and per function of one profiled run. */
interface SelfTimes {
  readonly cpuUs: number;
  readonly byArea: ReadonlyMap<ProfileArea, number>;
  readonly byFn: ReadonlyMap<string, { readonly area: ProfileArea; readonly us: number }>;
  /** Pagewise's functions' synchronous inclusive time (`ProfileSummary.inclusive`). */
  readonly inclusiveByFn: ReadonlyMap<string, { readonly area: ProfileArea; readonly us: number }>;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[] | undefined;
}

/**
 * The time under each of Pagewise's functions in the call tree, its own and its callees', counted
 * once where it calls itself (the outermost call on a path). An `await` ends a call's subtree: the
 * profile roots what runs after it afresh.
 */
function inclusiveTimes(
  nodes: readonly ProfileNode[],
  selfUs: ReadonlyMap<number, number>,
): Map<string, { area: ProfileArea; us: number }> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const totals = new Map<string, { area: ProfileArea; us: number }>();
  const onPath = new Set<string>();
  const walk = (id: number): number => {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const fn = `${functionName || '(anonymous)'} (${shortFile(url)}:${lineNumber + 1})`;
    const outermost = !onPath.has(fn);
    if (outermost) onPath.add(fn);
    let us = selfUs.get(id) ?? 0;
    for (const child of node.children ?? []) us += walk(child);
    if (outermost) {
      onPath.delete(fn);
      const area = areaOf(node.callFrame);
      if (area !== 'idle' && PAGEWISE_AREAS.includes(area)) {
        const entry = totals.get(fn) ?? { area, us: 0 };
        entry.us += us;
        totals.set(fn, entry);
      }
    }
    return us;
  };
  if (nodes.length > 0) walk(nodes[0]!.id);
  return totals;
}

/** Runs `work` under the V8 sampling profiler (what `node --cpu-prof` records), summing self time per area and function. */
async function profiled(work: () => Promise<void>): Promise<SelfTimes> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    await work();
    const { profile } = await session.post('Profiler.stop');
    const byNode = new Map<number, number>();
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i += 1) {
      byNode.set(samples[i]!, (byNode.get(samples[i]!) ?? 0) + (deltas[i] ?? 0));
    }
    const byFn = new Map<string, { area: ProfileArea; us: number }>();
    const byArea = new Map<ProfileArea, number>();
    let cpuUs = 0;
    for (const node of profile.nodes) {
      const us = byNode.get(node.id) ?? 0;
      if (us === 0) continue;
      const area = areaOf(node.callFrame);
      if (area === 'idle') continue;
      cpuUs += us;
      byArea.set(area, (byArea.get(area) ?? 0) + us);
      const fn = `${node.callFrame.functionName || '(anonymous)'} (${shortFile(node.callFrame.url)}:${node.callFrame.lineNumber + 1})`;
      const entry = byFn.get(fn) ?? { area, us: 0 };
      entry.us += us;
      byFn.set(fn, entry);
    }
    return { cpuUs, byArea, byFn, inclusiveByFn: inclusiveTimes(profile.nodes, byNode) };
  } finally {
    await session.post('Profiler.disable').catch(() => {});
    session.disconnect();
  }
}

/** Areas and heaviest functions of `times`, per page of `pages`. */
function perPage(times: Pick<SelfTimes, 'byArea' | 'byFn' | 'inclusiveByFn'>, pages: number) {
  return {
    inclusive: [...times.inclusiveByFn]
      .map(([fn, { area, us }]) => ({ area, fn, usPerPage: us / pages }))
      .sort((a, b) => b.usPerPage - a.usPerPage),
    areas: [...times.byArea]
      .map(([area, us]) => ({ area, usPerPage: us / pages }))
      .sort((a, b) => b.usPerPage - a.usPerPage),
    top: topEntries(
      [...times.byFn].map(([fn, { area, us }]) => ({ area, fn, usPerPage: us / pages })),
      Number(process.env.BENCH_PROFILE_TOP ?? 12),
    ),
  };
}

/**
 * Runs `fetch` `pages` times under the V8 sampling profiler and sums self time per function and
 * per area. The profile is taken in every bench run, so the "why / plan" notes quote this run's
 * numbers, never an old profile. One contender alone keeps its code warm: `profileRoundRobin`
 * shows what the same code costs between others' pages.
 */
export async function profilePages(
  subject: string,
  fetch: PageFetch,
  pages: number,
): Promise<ProfileSummary> {
  for (let i = 0; i < Math.min(200, pages); i += 1) await fetch();
  let wallMs = 0;
  const times = await profiled(async () => {
    const start = performance.now();
    for (let i = 0; i < pages; i += 1) await fetch();
    wallMs = performance.now() - start;
  });
  return {
    subject,
    pages,
    wallUsPerPage: (wallMs * 1000) / pages,
    cpuUsPerPage: times.cpuUs / pages,
    ...perPage(times, pages),
  };
}

/** The areas whose code is Pagewise's own. */
export const PAGEWISE_AREAS: readonly ProfileArea[] = Object.freeze([
  'pagewise core',
  'pagewise sql',
  'pagewise rest',
  'kysely adapter',
  'drizzle adapter',
]);

/**
 * `measureRoundRobin` of `fetches` under the profiler: each contender's pages run between the
 * others', as in the bench's tables, so its code runs as cold as it does there (a page's driver
 * and server work evicts it). Pagewise's areas are given per page of the contenders whose ids
 * start with `pagewise` (only they run that code); the other areas per page of any contender.
 */
export async function profileRoundRobin(
  subject: string,
  fetches: ReadonlyMap<string, PageFetch>,
  plan: SamplingPlan,
): Promise<{ readonly stats: Map<string, LatencyStats>; readonly profile: ProfileSummary }> {
  let pages = 0;
  let pagewisePages = 0;
  const counted = new Map<string, PageFetch>();
  for (const [id, fetch] of fetches) {
    const pagewise = id.startsWith('pagewise');
    counted.set(id, () => {
      pages += 1;
      if (pagewise) pagewisePages += 1;
      return fetch();
    });
  }
  let stats = new Map<string, LatencyStats>();
  const start = performance.now();
  const times = await profiled(async () => {
    stats = await measureRoundRobin(counted, plan);
  });
  const wallMs = performance.now() - start;
  const own = perPage(
    {
      byArea: new Map([...times.byArea].filter(([area]) => PAGEWISE_AREAS.includes(area))),
      byFn: new Map([...times.byFn].filter(([, { area }]) => PAGEWISE_AREAS.includes(area))),
      inclusiveByFn: times.inclusiveByFn,
    },
    Math.max(1, pagewisePages),
  );
  const all = perPage(times, Math.max(1, pages));
  return {
    stats,
    profile: {
      subject,
      pages,
      wallUsPerPage: (wallMs * 1000) / Math.max(1, pages),
      cpuUsPerPage: times.cpuUs / Math.max(1, pages),
      areas: [...own.areas, ...all.areas.filter((a) => !PAGEWISE_AREAS.includes(a.area))],
      top: own.top,
      inclusive: own.inclusive,
    },
  };
}

/**
 * The `count` heaviest functions, and Pagewise's six heaviest per area (`PAGEWISE_AREAS`) below them:
 * a plan names Pagewise's own functions even where drivers and node fill the overall top.
 */
function topEntries(entries: ProfileEntry[], count: number): ProfileEntry[] {
  const sorted = entries.sort((a, b) => b.usPerPage - a.usPerPage);
  const perArea = new Map<ProfileArea, number>();
  return sorted.filter((entry, i) => {
    const seen = perArea.get(entry.area) ?? 0;
    perArea.set(entry.area, seen + 1);
    return i < count || (PAGEWISE_AREAS.includes(entry.area) && seen < 6);
  });
}

/** `pagewise core 60 us (decodeCursor 9, ...)`: an area with its three heaviest functions. */
export function describeArea(summary: ProfileSummary, area: ProfileArea): string {
  const us = summary.areas.find((a) => a.area === area)?.usPerPage ?? 0;
  const fns = summary.top
    .filter((e) => e.area === area)
    .slice(0, 3)
    .map((e) => `\`${e.fn.split(' (')[0]}\` ${e.usPerPage.toFixed(0)}`);
  return `${area} ${us.toFixed(0)} us${fns.length > 0 ? ` (${fns.join(', ')})` : ''}`;
}
