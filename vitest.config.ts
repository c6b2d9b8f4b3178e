import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the "@pagewise/source" export
// condition, so tests never need a build (or run a stale one); published packages point at dist.
// Setting conditions replaces Vite's defaults, so they are repeated after it.
const SOURCE = '@pagewise/source';

export default defineConfig({
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'tests/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'bench/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
