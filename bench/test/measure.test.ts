import { describe, expect, it } from 'vitest';
import { measureRoundRobin, median, type PageFetch } from '../src/measure.js';

describe('measureRoundRobin', () => {
  it('lets no contender always run right after the same one (a slow count disturbs the next)', async () => {
    const names = ['exact', 'estimated', 'cached', 'none'];
    const calls: string[] = [];
    const fetches = new Map<string, PageFetch>(
      names.map((name) => [
        name,
        async () => {
          calls.push(name);
          return [];
        },
      ]),
    );
    const rounds = 400;
    const stats = await measureRoundRobin(fetches, {
      warmupRounds: 0,
      maxSamples: rounds,
      minSamples: rounds,
      budgetMs: Number.POSITIVE_INFINITY,
    });
    for (const name of names) expect(stats.get(name)!.samples).toBe(rounds);
    // How often each contender ran right after each other one.
    const after = new Map<string, number>();
    for (let i = 1; i < calls.length; i += 1) {
      const key = `${calls[i - 1]}>${calls[i]}`;
      after.set(key, (after.get(key) ?? 0) + 1);
    }
    for (const first of names) {
      for (const second of names) {
        if (first === second) continue;
        // Even chances would be about 1/3 of `rounds` each; a fixed cycle gives one pair ~3/4.
        const share = (after.get(`${first}>${second}`) ?? 0) / rounds;
        expect(share, `${second} right after ${first}`).toBeGreaterThan(0.15);
        expect(share, `${second} right after ${first}`).toBeLessThan(0.5);
      }
    }
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones, of unsorted values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([10, 1, 4, 2])).toBe(3);
    expect(median([5])).toBe(5);
    expect(median([])).toBeNaN();
  });
});
