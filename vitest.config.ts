import { configDefaults, defineConfig } from 'vitest/config';

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
          exclude: [...configDefaults.exclude, YOUNG_GARBAGE],
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
    ],
  },
});
