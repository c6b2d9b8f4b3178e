import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  judgeRelease,
  type KyselyTargets,
  kyselyTargets,
  targetProblems,
} from '../../scripts/kysely-release.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TARGETS: KyselyTargets = { peerRange: '^0.28.18 || ^0.29.0', lowest: '0.28.18', highest: '0.29.9' };

describe('the Kysely versions the repository claims and tests', () => {
  test('the lowest version tested is the peer range lower bound, the highest its top minor', () => {
    expect(targetProblems(kyselyTargets(ROOT))).toEqual([]);
  });

  test('a range wider or narrower than the versions tested is a problem', () => {
    expect(targetProblems(TARGETS)).toEqual([]);
    expect(targetProblems({ ...TARGETS, peerRange: '>=0.27 <0.30' })).toEqual([
      'the peer range >=0.27 <0.30 starts at 0.27.0, but the lowest version tested is 0.28.18',
    ]);
    expect(targetProblems({ ...TARGETS, peerRange: '^0.28.18 || ^0.29.0 || ^0.30.0' })).toEqual([
      'the peer range ^0.28.18 || ^0.29.0 || ^0.30.0 reaches past the highest minor tested (0.29.9): it admits 0.30.0',
    ]);
    expect(targetProblems({ ...TARGETS, peerRange: '^0.28.18' })).toEqual([
      'the highest version tested, 0.29.9, is outside the peer range ^0.28.18',
    ]);
    expect(targetProblems({ ...TARGETS, peerRange: '>=0.28.18' })).toEqual([
      'the peer range >=0.28.18 reaches past the highest minor tested (0.29.9): it admits 0.30.0',
    ]);
  });
});

describe('pnpm kysely:latest judges a release', () => {
  test('the highest version tested', () => {
    expect(judgeRelease('0.29.9', TARGETS).kind).toBe('tested');
  });

  test('a newer patch inside the range is covered but untested: bump the alias', () => {
    const verdict = judgeRelease('0.29.10', TARGETS);
    expect(verdict.kind).toBe('untested');
    expect(verdict.message).toContain('"kysely-highest": "npm:kysely@0.29.10"');
  });

  test('a new minor is outside the range: users get ERESOLVE', () => {
    const verdict = judgeRelease('0.30.0', TARGETS);
    expect(verdict.kind).toBe('unsupported');
    expect(verdict.message).toContain('ERESOLVE');
    expect(verdict.message).toContain('"|| ^0.30.0"');
    expect(judgeRelease('1.0.0', TARGETS).kind).toBe('unsupported');
  });

  test('an older latest (a dist-tag moved back) is said as such', () => {
    expect(judgeRelease('0.29.1', TARGETS).kind).toBe('older');
    expect(judgeRelease('0.28.19', TARGETS).kind).toBe('older');
  });

  test('what is not a version is refused', () => {
    expect(() => judgeRelease('latest', TARGETS)).toThrow('not a version: "latest"');
  });
});
