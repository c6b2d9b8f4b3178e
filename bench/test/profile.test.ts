import { encodeCursor, parseOrdering } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import type { PageFetch } from '../src/measure.js';
import { areaOf, PAGEWISE_AREAS, profileRoundRobin } from '../src/profile.js';

describe('areaOf', () => {
  it("names each Pagewise package's code and each ORM's", () => {
    const at = (url: string) => areaOf({ functionName: 'f', url, lineNumber: 1 });
    expect(at('file:///w/packages/core/dist/cursor/cursor-codec.js')).toBe('pagewise core');
    expect(at('file:///w/packages/sql/dist/planner/keyset-window.js')).toBe('pagewise sql');
    expect(at('file:///w/packages/rest/dist/pagination/page-style.js')).toBe('pagewise rest');
    expect(at('file:///w/packages/kysely-adapter/dist/kysely-query.js')).toBe('kysely adapter');
    expect(at('file:///w/packages/drizzle-adapter/dist/statements.js')).toBe('drizzle adapter');
    expect(
      at('file:///w/node_modules/.pnpm/drizzle-orm@0.45.0/node_modules/drizzle-orm/pg-core/session.js'),
    ).toBe('drizzle');
    expect(at('file:///w/node_modules/.pnpm/kysely@0.28.18/node_modules/kysely/dist/esm/kysely.js')).toBe(
      'kysely',
    );
  });
});

describe('profileRoundRobin', () => {
  it("times every contender and gives Pagewise's areas per page of the Pagewise contenders", async () => {
    const order = parseOrdering(['-created', 'id']).map((t) => ({ ...t, nulls: 'last' as const }));
    const calls = new Map<string, number>();
    const counting =
      (id: string, work: () => void): PageFetch =>
      async () => {
        calls.set(id, (calls.get(id) ?? 0) + 1);
        work();
        return [];
      };
    const spin = () => {
      let x = 0;
      for (let i = 0; i < 20_000; i += 1) x += Math.sqrt(i);
      return x;
    };
    const cursors = () => {
      for (let i = 0; i < 200; i += 1)
        encodeCursor({ offset: 0, reverse: false, position: [`t${i}`, i] }, { order });
    };
    const fetches = new Map<string, PageFetch>([
      ['raw', counting('raw', spin)],
      ['pagewise-cursors', counting('pagewise-cursors', cursors)],
    ]);
    const { stats, profile } = await profileRoundRobin('test', fetches, {
      warmupRounds: 5,
      maxSamples: 300,
      minSamples: 300,
      budgetMs: 10_000,
    });
    expect([...stats.keys()]).toEqual(['raw', 'pagewise-cursors']);
    expect(stats.get('raw')!.samples).toBe(300);
    // Every page is counted, warm-up rounds included.
    expect(profile.pages).toBe(calls.get('raw')! + calls.get('pagewise-cursors')!);
    const core = profile.areas.find((a) => a.area === 'pagewise core');
    expect(core?.usPerPage).toBeGreaterThan(0);
    expect(profile.top.length).toBeGreaterThan(0);
    expect(profile.top.every((entry) => PAGEWISE_AREAS.includes(entry.area))).toBe(true);
  });
});
