import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** The databases and backends test names start with (`[mariadb] ...`), in the order printed. */
const BACKENDS = [
  'memory',
  'sqlite',
  'sqlite-safe-integers',
  'sqlite-reused-statements',
  'pglite',
  'postgres',
  'postgres-named-statements',
  'mariadb',
  'mariadb-recorded-timestamps',
];
const BACKEND = new RegExp(`\\[(${BACKENDS.join('|')})[\\] ]`);
/** The reason a skipped suite carries in its name (`describeDatabase`, `describeWithReason`). */
const REASON = /\(skipped: (.+)\)$/;

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** The server a project's Postgres cases ran on, as tests/support/postgres-server.global.ts gave it. */
function postgresLabel(module: TestModule): string {
  const provided = module.project.getProvidedContext().postgresServer;
  const major = /^postgres-(\d+)$/.exec(module.project.name)?.[1];
  if (provided !== undefined && 'version' in provided) {
    return `postgres ${provided.major} (npm ${provided.version}${major === undefined ? ', no PG_URL' : ''})`;
  }
  return major === undefined ? 'postgres (PG_URL)' : `postgres ${major}`;
}

/** Where a case ran: the backend its name or its suites' names start with, the project's server for Postgres. */
function backendOf(test: TestCase, module: TestModule): string | undefined {
  const backend = BACKEND.exec(test.fullName)?.[1];
  if (backend === 'postgres') return postgresLabel(module);
  if (backend !== undefined) return backend;
  if (/^postgres-\d+$/.test(module.project.name)) return postgresLabel(module);
  return undefined;
}

/** Why a case was skipped: its note (`ctx.skip(note)`), or the reason in an enclosing suite's name. */
function skipReason(test: TestCase): string | undefined {
  const result = test.result();
  if (result.state === 'skipped' && result.note) return result.note;
  for (let suite = test.parent; suite.type === 'suite'; suite = suite.parent) {
    const reason = REASON.exec(suite.name)?.[1];
    if (reason !== undefined) return reason;
  }
  return REASON.exec(test.name)?.[1];
}

/** The database a skip reason names, for cases whose names name none. */
function databaseOfReason(reason: string): string {
  if (/MYSQL_URL|MariaDB|mariadb|MySQL/.test(reason)) return 'mariadb';
  if (/PG_URL|Postgres|postgres/.test(reason)) return 'postgres';
  if (/chromium|Chromium/.test(reason)) return 'chromium';
  if (/pgbouncer|PgBouncer/.test(reason)) return 'pgbouncer';
  return 'other';
}

/** The cases of each suite file on each Postgres major's project (tests/README.md records it). */
function majorMatrix(testModules: ReadonlyArray<TestModule>): string[] {
  const cells = new Map<string, Map<string, Counts>>();
  for (const module of testModules) {
    const major = /^postgres-(\d+)$/.exec(module.project.name)?.[1];
    if (major === undefined) continue;
    const file = module.relativeModuleId.replace(/^tests\//, '');
    const row = cells.get(major) ?? new Map<string, Counts>();
    const cell = row.get(file) ?? { passed: 0, failed: 0, skipped: 0 };
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') cell.passed += 1;
      else if (state === 'failed') cell.failed += 1;
      else cell.skipped += 1;
    }
    row.set(file, cell);
    cells.set(major, row);
  }
  if (cells.size === 0) return [];
  const files = [...new Set([...cells.values()].flatMap((row) => [...row.keys()]))].sort();
  const lines = [` Postgres majors (cases passed/failed): | major | ${files.join(' | ')} |`];
  for (const major of [...cells.keys()].sort((a, b) => Number(a) - Number(b))) {
    const row = cells.get(major)!;
    const text = files.map((file) => {
      const c = row.get(file);
      return c === undefined
        ? 'not run'
        : `${c.passed}/${c.failed}${c.skipped ? ` (${c.skipped} skipped)` : ''}`;
    });
    lines.push(`   | ${major} | ${text.join(' | ')} |`);
  }
  return lines;
}

/**
 * One summary at the end of a run: the cases per database (test names start with `[backend]`;
 * Postgres is told apart by the server each project ran on, a major's npm build or `PG_URL`'s),
 * then every skipped case counted once, by database and reason, so a run that skipped something
 * says what and why in one place. It is in vitest.config.ts's reporters, so a plain `pnpm test`
 * prints it; `.ci/run` names it beside the JSON reporter.
 */
export default class PerDatabaseReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = new Map<string, Counts>();
    const skips = new Map<string, Map<string, number>>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        const backend = backendOf(test, module);
        if (backend !== undefined) {
          const entry = counts.get(backend) ?? { passed: 0, failed: 0, skipped: 0 };
          if (state === 'passed') entry.passed += 1;
          else if (state === 'failed') entry.failed += 1;
          else entry.skipped += 1;
          counts.set(backend, entry);
        }
        if (state !== 'skipped' && state !== 'pending') continue;
        const reason = skipReason(test) ?? `no reason given (${module.relativeModuleId})`;
        const database = backend?.split(' ')[0] ?? databaseOfReason(reason);
        const reasons = skips.get(database) ?? new Map<string, number>();
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        skips.set(database, reasons);
      }
    }
    const rank = (name: string) => {
      const i = BACKENDS.indexOf(name.split(' ')[0]!);
      return i < 0 ? BACKENDS.length : i;
    };
    const lines: string[] = [];
    if (counts.size > 0) {
      const sorted = [...counts].sort(
        ([a], [b]) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }),
      );
      const parts = sorted.map(([backend, c]) =>
        [
          `${backend} ${c.passed} passed`,
          c.failed ? `${c.failed} failed` : '',
          c.skipped ? `${c.skipped} skipped` : '',
        ]
          .filter(Boolean)
          .join(', '),
      );
      lines.push(` Cases per database: ${parts.join(' | ')}`);
    }
    if (skips.size > 0) {
      const total = [...skips.values()].reduce(
        (n, reasons) => n + [...reasons.values()].reduce((a, b) => a + b, 0),
        0,
      );
      lines.push(` Skipped: ${total}, by database and why:`);
      for (const [database, reasons] of [...skips].sort(
        ([a], [b]) => rank(a) - rank(b) || a.localeCompare(b),
      )) {
        for (const [reason, n] of [...reasons].sort(([, a], [, b]) => b - a)) {
          lines.push(`   ${database}: ${n} (${reason})`);
        }
      }
    } else if (counts.size > 0) {
      lines.push(' Skipped: none');
    }
    lines.push(...majorMatrix(testModules));
    if (lines.length > 0) console.log(`\n${lines.join('\n')}\n`);
  }
}
