import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dryRunRelease, tarballOf } from '../support/release-run.js';
import { manifestOf, sh } from '../support/scratch-packages.js';

// What a user gets: the tarballs of this run's `pnpm release --dry-run` (./release.test.ts checks
// them with attw and publint) installed by npm into a scratch app outside the workspace, a strict
// consumer type-checked there and run with plain Node against SQLite, once with one copy of core
// and once with a second copy nested under each adapter.

const _run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = ['core', 'rest', 'sql', 'kysely-adapter', 'memory-adapter', 'client'] as const;
type PackageDir = (typeof PACKAGES)[number];
const fromTests = createRequire(join(ROOT, 'tests', 'package.json'));
const fromRoot = createRequire(join(ROOT, 'package.json'));

/** The installed version of a workspace dependency, so the scratch app runs what the tests run. */
function versionOf(specifier: string, from = fromTests): string {
  return (JSON.parse(readFileSync(manifestOf(specifier, from), 'utf8')) as { version: string }).version;
}

let scratch = '';
const tarballs = new Map<PackageDir, string>();

const TSCONFIG_BASE = { strict: true, target: 'ES2022', lib: ['ES2023'], types: ['node'] };
const TSCONFIGS = {
  // Checks the shipped declarations too (skipLibCheck: false), then emits what Node runs.
  'tsconfig.nodenext.json': {
    compilerOptions: {
      ...TSCONFIG_BASE,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      skipLibCheck: false,
      outDir: 'out',
    },
    files: ['consumer.ts'],
  },
  'tsconfig.bundler.json': {
    compilerOptions: {
      ...TSCONFIG_BASE,
      module: 'Preserve',
      moduleResolution: 'Bundler',
      skipLibCheck: true,
      noEmit: true,
    },
    files: ['consumer.ts'],
  },
};

async function typecheck(config: keyof typeof TSCONFIGS): Promise<void> {
  await sh(process.execPath, [fromRoot.resolve('typescript/bin/tsc'), '-p', config], join(scratch, 'app'));
}

interface Walk {
  readonly ids: number[];
  readonly scores: number[];
  readonly pages: number;
  readonly tampered: { readonly status: number; readonly body: unknown };
}
interface Report {
  readonly sqlite: Walk;
  readonly memory: Walk;
  readonly direct: string;
  readonly postgres?: { readonly engine: Omit<Walk, 'tampered'>; readonly drf: Omit<Walk, 'tampered'> };
  readonly coreCopies: {
    readonly app: string;
    readonly kysely: string;
    readonly memory: string;
    readonly rest: string;
  };
}

async function consume(): Promise<Report> {
  const { stdout } = await sh(process.execPath, ['out/consumer.js'], join(scratch, 'app'));
  return JSON.parse(stdout) as Report;
}

function expectWalks(report: Report): void {
  for (const walk of [report.sqlite, report.memory]) {
    expect([...walk.ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(walk.scores).toEqual([...walk.scores].sort((a, b) => b - a));
    expect(walk.pages).toBe(4);
    expect(walk.tampered).toEqual({ status: 404, body: { detail: 'Invalid cursor' } });
  }
  expect(report.sqlite.ids).toEqual(report.memory.ids);
  expect(report.direct).toBe('404 Invalid cursor');
  // The engine-only route and the DRF ListView route walk the Postgres table alike (CI sets PG_URL).
  if (process.env.PG_URL) {
    for (const walk of [report.postgres!.engine, report.postgres!.drf]) {
      expect(walk.ids).toEqual(report.sqlite.ids);
      expect(walk.pages).toBe(4);
    }
  } else {
    console.warn('PG_URL is not set: the packed packages walked SQLite and arrays, not Postgres');
  }
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'pagewise-packaging-'));
  const app = join(scratch, 'app');
  mkdirSync(app, { recursive: true });
  const release = await dryRunRelease();
  for (const dir of PACKAGES) tarballs.set(dir, tarballOf(release, `@pagewise/${dir}`));
  const installing = performance.now();

  const tarball = (dir: PackageDir) => `file:${tarballs.get(dir)!}`;
  const manifest = {
    name: 'pagewise-scratch-app',
    private: true,
    type: 'module',
    dependencies: {
      '@pagewise/core': tarball('core'),
      '@pagewise/rest': tarball('rest'),
      '@pagewise/sql': tarball('sql'),
      '@pagewise/kysely-adapter': tarball('kysely-adapter'),
      '@pagewise/memory-adapter': tarball('memory-adapter'),
      '@pagewise/client': tarball('client'),
      'better-sqlite3': versionOf('better-sqlite3'),
      hono: versionOf('hono'),
      kysely: versionOf('kysely'),
      pg: versionOf('pg'),
    },
    devDependencies: {
      '@types/better-sqlite3': versionOf('@types/better-sqlite3'),
      '@types/pg': versionOf('@types/pg'),
      '@types/node': versionOf('@types/node', fromRoot),
    },
  };
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  // --ignore-scripts: better-sqlite3's install would compile its addon (a minute) because only the
  // npm registry is reachable; the workspace's build of the same version is copied in instead.
  await sh('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], app);
  const addon = join('build', 'Release', 'better_sqlite3.node');
  const built = join(dirname(manifestOf('better-sqlite3', fromTests)), addon);
  mkdirSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(built, join(app, 'node_modules', 'better-sqlite3', addon));
  console.log(`npm install: ${((performance.now() - installing) / 1000).toFixed(1)} s`);

  copyFileSync(fileURLToPath(new URL('consumer/consumer.ts', import.meta.url)), join(app, 'consumer.ts'));
  for (const [name, config] of Object.entries(TSCONFIGS)) {
    writeFileSync(join(app, name), JSON.stringify(config, null, 2));
  }
}, 900_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('packages packed and installed with npm', () => {
  test('a strict consumer type-checks under NodeNext and Bundler resolution', async () => {
    await Promise.all([typecheck('tsconfig.bundler.json'), typecheck('tsconfig.nodenext.json')]);
    expect(existsSync(join(scratch, 'app', 'out', 'consumer.js'))).toBe(true);
  }, 180_000);

  test('runs on SQLite and arrays: a cursor walk visits every row once, a tampered cursor is 404', async () => {
    const report = await consume();
    expectWalks(report);
    const { app, kysely, memory, rest } = report.coreCopies;
    expect(new Set([app, kysely, memory, rest]).size).toBe(1);
  }, 60_000);

  test('the same with a second copy of core nested under each adapter', async () => {
    const modules = join(scratch, 'app', 'node_modules');
    for (const adapter of ['rest', 'kysely-adapter', 'memory-adapter']) {
      const nested = join(modules, '@pagewise', adapter, 'node_modules', '@pagewise', 'core');
      mkdirSync(nested, { recursive: true });
      await sh('tar', ['-xzf', tarballs.get('core')!, '-C', nested, '--strip-components=1'], scratch);
    }
    await typecheck('tsconfig.bundler.json');
    const report = await consume();
    expectWalks(report);
    const { app, kysely, memory, rest } = report.coreCopies;
    expect(rest).not.toBe(app);
    expect(kysely).not.toBe(app);
    expect(memory).not.toBe(app);
    expect(kysely).toContain(join('kysely-adapter', 'node_modules', '@pagewise', 'core'));
  }, 180_000);
});
