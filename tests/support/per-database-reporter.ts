import type { Reporter, TestModule } from 'vitest/node';

const BACKENDS = ['memory', 'sqlite', 'sqlite-safe-integers', 'pglite', 'postgres', 'mariadb'];
const BACKEND = new RegExp(`^\\[(${BACKENDS.join('|')})\\]`);

/**
 * Adds one summary line counting the cases per database (test names start with `[backend]`):
 * `vitest run --reporter=default --reporter=./tests/support/per-database-reporter.ts`.
 */
export default class PerDatabaseReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = new Map<string, { passed: number; failed: number; skipped: number }>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const backend = BACKEND.exec(test.name)?.[1];
        if (backend === undefined) continue;
        const entry = counts.get(backend) ?? { passed: 0, failed: 0, skipped: 0 };
        const state = test.result().state;
        if (state === 'passed') entry.passed += 1;
        else if (state === 'failed') entry.failed += 1;
        else entry.skipped += 1;
        counts.set(backend, entry);
      }
    }
    if (counts.size === 0) return;
    const sorted = [...counts].sort(([a], [b]) => BACKENDS.indexOf(a) - BACKENDS.indexOf(b));
    const parts = sorted.map(([backend, c]) =>
      [
        `${backend} ${c.passed} passed`,
        c.failed ? `${c.failed} failed` : '',
        c.skipped ? `${c.skipped} skipped` : '',
      ]
        .filter(Boolean)
        .join(', '),
    );
    console.log(`\n Cases per database: ${parts.join(' | ')}\n`);
  }
}
