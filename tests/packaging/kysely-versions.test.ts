import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kyselyTargets } from '../../scripts/kysely-release.js';
import { dryRunRelease, tarballOf } from '../support/release-run.js';
import { copySqliteAddon, ROOT, sh, testedVersion } from '../support/scratch-packages.js';

// Issue 31: `npm i kysely@latest` then our packages answered ERESOLVE, the peer range stopping
// below the current Kysely. For each end of the supported range (the versions CI tests), a
// scratch app outside the workspace installs the packed @pagewise/core and
// @pagewise/kysely-adapter beside that kysely with plain npm (a peer conflict fails the install),
// type-checks a strict consumer against the shipped declarations and Kysely's, and walks a cursor
// feed over SQLite with Node.

const { lowest, highest } = kyselyTargets(ROOT);
const VERSIONS = [lowest, highest];
const CONSUMER = fileURLToPath(new URL('kysely-consumer/consumer.ts', import.meta.url));
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    lib: ['ES2023'],
    types: ['node'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    // The shipped declarations are checked too, against this app's kysely.
    skipLibCheck: false,
    outDir: 'out',
  },
  files: ['consumer.ts'],
};

let scratch = '';
/** Each version's app, installed in the background: its tests await it. */
const apps = new Map<string, Promise<string>>();

async function install(version: string, tarballs: Readonly<Record<string, string>>): Promise<string> {
  const app = join(scratch, `app-kysely-${version}`);
  mkdirSync(app);
  const manifest = {
    name: `pagewise-kysely-${version}`,
    private: true,
    type: 'module',
    dependencies: {
      ...Object.fromEntries(Object.entries(tarballs).map(([name, path]) => [name, `file:${path}`])),
      'better-sqlite3': testedVersion('better-sqlite3'),
      kysely: version,
    },
    devDependencies: {
      '@types/better-sqlite3': testedVersion('@types/better-sqlite3'),
      '@types/node': testedVersion('@types/node'),
    },
  };
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  // No --legacy-peer-deps, no --force: a kysely outside the adapter's peer range is ERESOLVE.
  await sh('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], app);
  copySqliteAddon(app);
  copyFileSync(CONSUMER, join(app, 'consumer.ts'));
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  return app;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'pagewise-kysely-versions-'));
  // The tarballs of this test run's one dry-run release (tests/support/release-run.ts).
  const release = await dryRunRelease();
  const tarballs = {
    '@pagewise/core': tarballOf(release, '@pagewise/core'),
    '@pagewise/sql': tarballOf(release, '@pagewise/sql'),
    '@pagewise/kysely-adapter': tarballOf(release, '@pagewise/kysely-adapter'),
  };
  for (const version of VERSIONS) {
    const app = install(version, tarballs);
    app.catch(() => {});
    apps.set(version, app);
  }
}, 300_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.each(VERSIONS)('a scratch app on kysely %s', (version) => {
  test('npm installs the packed packages beside it, one kysely for the app and the adapter', async () => {
    const app = await apps.get(version)!;
    const modules = join(app, 'node_modules');
    const kysely = JSON.parse(readFileSync(join(modules, 'kysely', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(kysely.version).toBe(version);
    expect(existsSync(join(modules, '@pagewise', 'kysely-adapter', 'node_modules', 'kysely'))).toBe(false);
  }, 300_000);

  test('a strict consumer type-checks and walks a cursor feed over SQLite, every row once', async () => {
    const app = await apps.get(version)!;
    await sh(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], app);
    const { stdout } = await sh(process.execPath, ['out/consumer.js'], app);
    const { ids, pages } = JSON.parse(stdout) as { ids: number[]; pages: number };
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(pages).toBe(4);
  }, 180_000);
});
