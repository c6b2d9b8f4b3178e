import { configDefaults, defineConfig } from 'vitest/config';
import { KYSELY_HIGHEST } from './scripts/kysely-release.js';
import { installedKysely } from './tests/support/kysely-version.js';

// Workspace packages resolve to their TypeScript sources through the "@pagewise/source" export
// condition, so tests never need a build (or run a stale one); published packages point at dist.
// Setting conditions replaces Vite's defaults, so they are repeated after it.
const SOURCE = '@pagewise/source';

/**
 * Measures what survives the young-generation collector, so it runs in processes started without
 * V8's allocation-site pretenuring: once a site's objects have survived often enough, V8 allocates
 * them straight into old space, and whether it has decided so depends on what the process did
 * before. The test asks what stays reachable, which pretenuring does not change: 3 of 12 runs of
 * the file alone counted every request's objects (the floor's too) as survivors, 0 of 12 without it.
 */
const YOUNG_GARBAGE = 'tests/reliability/young-garbage.test.ts';

/**
 * The Kysely adapter's unit tests, conformance and plan suites, run once more on the highest Kysely
 * supported: the workspace's `kysely` is the lowest (every suite runs on it), `kysely-highest` in
 * tests/package.json is an npm alias of the highest. The rest of tests/kysely-adapter stays on the
 * lowest alone, to keep CI's time (the conformance suite covers the driver wrappers on each
 * database); CONTRIBUTING.md, "Supported Kysely versions", says how to move either end.
 */
const KYSELY_SUITES = [
  'packages/kysely-adapter/src/**/*.test.ts',
  'tests/conformance/**/*.test.ts',
  'tests/plans/**/*.test.ts',
  'tests/kysely-adapter/cancelled-queries.test.ts',
  'tests/kysely-versions/loaded-version.test.ts',
];
/** Every `kysely` import in the project resolves to its entry file, the adapter's included. */
const kyselyHighest = installedKysely(KYSELY_HIGHEST);

export default defineConfig({
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'pagewise',
          include: [
            'packages/*/src/**/*.test.ts',
            'tests/**/*.test.ts',
            'examples/*/test/**/*.test.ts',
            'bench/test/**/*.test.ts',
          ],
          // Cancelled queries exist from Kysely 0.29 on: that file runs in the highest Kysely's project.
          exclude: [
            ...configDefaults.exclude,
            YOUNG_GARBAGE,
            'tests/kysely-adapter/cancelled-queries.test.ts',
          ],
          // A folder for the one `pnpm release --dry-run` whose tarballs the packaging tests share.
          globalSetup: ['tests/support/release-run.global.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'young-garbage',
          include: [YOUNG_GARBAGE],
          execArgv: ['--no-allocation-site-pretenuring'],
        },
      },
      {
        extends: true,
        resolve: { alias: [{ find: /^kysely$/, replacement: kyselyHighest.entry }] },
        test: {
          name: `kysely-${kyselyHighest.version}`,
          include: KYSELY_SUITES,
          exclude: [
            ...configDefaults.exclude,
            // The memory adapter's conformance run touches no Kysely.
            'tests/conformance/memory.test.ts',
            // Each database's collations (PAD SPACE, ICU nondeterministic) under the same SQL shapes
            // the conformance suites send: the database's behaviour, not Kysely's, and a minute of CI.
            'tests/conformance/collations.test.ts',
          ],
          // tests/kysely-versions/loaded-version.test.ts checks that the alias took.
          env: { PAGEWISE_KYSELY: KYSELY_HIGHEST },
        },
      },
    ],
  },
});
