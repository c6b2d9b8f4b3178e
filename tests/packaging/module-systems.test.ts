import { beforeAll, describe, expect, test } from 'vitest';
import { type ConsumerRun, dryRunRelease, type ReleaseReport } from '../support/release-run.js';

// A CommonJS app and an ES module app outside the workspace, both compiled by tsc with module
// nodenext and strict from the same source (./dual-consumer/feed.ts) against the tarballs of
// core, rest, kysely-adapter, memory-adapter and client, installed with npm beside kysely and
// better-sqlite3. The consumers step of this run's `pnpm release --dry-run` (scripts/release.mjs)
// builds and runs them; this file asserts what they answered.

interface Report {
  readonly moduleSystem: string;
  readonly first: number[];
  readonly second: number[];
  readonly titles: string[];
  readonly previous: boolean;
  readonly page: { ids: number[]; next: boolean; link: string | null };
  readonly memory: number[];
  readonly walked: number[];
  readonly refused: string;
  readonly restReexportsCore: boolean;
  readonly loaded: string[];
}

let release: ReleaseReport;

beforeAll(async () => {
  release = await dryRunRelease();
}, 900_000);

function answer(system: 'cjs' | 'esm'): Report {
  const run: ConsumerRun | undefined = release.consumers?.[system];
  if (!run?.report) throw new Error(`the ${system} app did not answer:\n${run?.error ?? release.log}`);
  return run.report as unknown as Report;
}

describe('the same program as CommonJS and as ES modules', () => {
  test.each(['cjs', 'esm'] as const)('compiles (%s, module nodenext, strict) and pages SQLite', (system) => {
    const report = answer(system);
    console.log(`${system}: compiled and ran in ${release.consumers?.[system]?.seconds} s`);
    expect(report.moduleSystem).toBe(system === 'cjs' ? 'commonjs' : 'esm');
    // score desc, then id desc as the tiebreaker: 3 (7, 5, 3, 1), 2 (8, 4), 1 (6, 2)
    expect(report.first).toEqual([7, 5, 3]);
    expect(report.second).toEqual([1, 8, 4]);
    expect(report.titles).toEqual(['Article 1', 'Article 8', 'Article 4']);
    expect(report.previous).toBe(true);
    expect(report.page).toMatchObject({ ids: [7, 5, 3], next: true });
    expect(report.page.link).toMatch(/^<http:\/\/localhost\/articles\/\?cursor=[\w-]+>; rel="next"$/);
    expect(report.memory).toEqual([7, 5, 3]);
    expect(report.walked).toEqual([7, 5, 3, 1, 8, 4, 6, 2]);
    expect(report.refused).toBe('ConfigurationError');
    expect(report.restReexportsCore).toBe(true);
  });

  test('a CommonJS app loads only CommonJS builds, one copy of core', () => {
    const { loaded } = answer('cjs');
    expect(loaded).toContain('@pagewise/core/dist/cjs/index.js');
    expect(loaded).toContain('@pagewise/kysely-adapter/dist/cjs/index.js');
    expect(loaded.filter((file) => !/^@pagewise\/[\w-]+\/dist\/cjs\//.test(file))).toEqual([]);
  });

  test('both builds answer alike', () => {
    const { moduleSystem: _cjs, loaded: _loaded, ...cjs } = answer('cjs');
    const { moduleSystem: _esm, loaded: _none, ...esm } = answer('esm');
    expect(cjs).toEqual(esm);
    expect(release.consumers?.problems).toEqual([]);
  });
});
