/** Fetches one full page and resolves to the ids of its rows (to check contenders agree). */
export type PageFetch = () => Promise<readonly number[]>;

/** Latency statistics of one contender at one depth, in milliseconds. */
export interface LatencyStats {
  readonly samples: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly meanMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

/** When a contender has sampled enough at one depth. */
export interface SamplingPlan {
  /** Untimed rounds first: plans cached, connections and JIT warm. */
  readonly warmupRounds: number;
  readonly maxSamples: number;
  /** Fewest samples, even when the budget is spent (slow OFFSET pages). */
  readonly minSamples: number;
  /** Time after which a contender with `minSamples` stops. */
  readonly budgetMs: number;
}

/** The value below which `q` of the sorted samples fall (linear interpolation between ranks). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (sorted.length - 1) * q;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/** The median of `values` (the mean of the two middle ones for an even count), unsorted. */
export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Median, p95, mean, min and max of `samples` (milliseconds). */
export function summarize(samples: readonly number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    medianMs: quantile(sorted, 0.5),
    p95Ms: quantile(sorted, 0.95),
    meanMs: sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length),
    minMs: sorted[0] ?? Number.NaN,
    maxMs: sorted.at(-1) ?? Number.NaN,
  };
}

/** `items` in a fresh random order (Fisher-Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The suffix of a Pagewise cursor page's id in the scanning contenders' round-robin
 * (`pagewise-cursor:uniform~beside-scans`): what their ratios are taken against.
 */
export const SCAN_REFERENCE = '~beside-scans';

/** One contender's latency at one depth, as a run's results list them. */
export interface LatencyEntry {
  readonly contender: string;
  readonly depth: number;
  readonly stats: LatencyStats;
}

/**
 * The stats of `contender` at `depth` in `latency`. A `SCAN_REFERENCE` id missing from results
 * made before the scans had a round-robin of their own answers the plain id's stats: those were
 * sampled beside the scans.
 */
export function statsAt(
  latency: readonly LatencyEntry[],
  contender: string,
  depth: number,
): LatencyStats | undefined {
  const find = (id: string) => latency.find((l) => l.contender === id && l.depth === depth)?.stats;
  return (
    find(contender) ??
    (contender.endsWith(SCAN_REFERENCE) ? find(contender.slice(0, -SCAN_REFERENCE.length)) : undefined)
  );
}

/**
 * Times every fetch round-robin: each round runs every contender that still needs samples once,
 * in a fresh random order, so drift (autovacuum, cache, CPU frequency) falls on all contenders
 * alike instead of on whichever ran last, and no contender always runs right after the same one
 * (a fixed cycle put the estimated page after the exact count's parallel workers in three rounds
 * of four). Fast contenders stop at `maxSamples`; slow ones at their time budget once they have
 * `minSamples`.
 */
export async function measureRoundRobin(
  fetches: ReadonlyMap<string, PageFetch>,
  plan: SamplingPlan,
): Promise<Map<string, LatencyStats>> {
  const entries = [...fetches];
  const samples = new Map<string, number[]>(entries.map(([id]) => [id, []]));
  const spent = new Map<string, number>(entries.map(([id]) => [id, 0]));
  const needsMore = (id: string) => {
    const n = samples.get(id)!.length;
    return n < plan.minSamples || (n < plan.maxSamples && spent.get(id)! < plan.budgetMs);
  };
  // Warm-up is bounded by a tenth of the budget, so a slow OFFSET page warms up once, not 300 times.
  const warmed = new Map<string, number>(entries.map(([id]) => [id, 0]));
  for (let round = 0; round < plan.warmupRounds; round += 1) {
    for (const [id, fetch] of entries) {
      if (round > 0 && warmed.get(id)! >= plan.budgetMs / 10) continue;
      const start = performance.now();
      await fetch();
      warmed.set(id, warmed.get(id)! + performance.now() - start);
    }
  }
  while (entries.some(([id]) => needsMore(id))) {
    for (const [id, fetch] of shuffled(entries)) {
      if (!needsMore(id)) continue;
      const start = performance.now();
      await fetch();
      const elapsed = performance.now() - start;
      samples.get(id)!.push(elapsed);
      spent.set(id, spent.get(id)! + elapsed);
    }
  }
  return new Map(entries.map(([id]) => [id, summarize(samples.get(id)!)]));
}
