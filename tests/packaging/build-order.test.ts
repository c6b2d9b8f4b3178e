import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// A fresh checkout, where no package was ever built: `npm pack` of the Kysely adapter alone runs
// its prepack (scripts/build-package.mjs), which must build @pagewise/core first, since the adapter
// compiles against core's declarations. It did not: tsc stopped at "Cannot find module
// '@pagewise/core'". The checkout is a copy of the sources with links to the installed tools.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)),
) as NodeJS.ProcessEnv;

let scratch = '';
let checkout = '';

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'pagewise-build-order-'));
  checkout = join(scratch, 'checkout');
  const modules = join(checkout, 'node_modules');
  mkdirSync(join(modules, '@pagewise'), { recursive: true });
  cpSync(join(ROOT, 'tsconfig.base.json'), join(checkout, 'tsconfig.base.json'));
  cpSync(join(ROOT, 'scripts'), join(checkout, 'scripts'), { recursive: true });
  for (const dir of ['core', 'sql', 'kysely-adapter']) {
    cpSync(join(ROOT, 'packages', dir), join(checkout, 'packages', dir), {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|dist)$/.test(source),
    });
    symlinkSync(join(checkout, 'packages', dir), join(modules, '@pagewise', dir), 'dir');
    // A package's own dependencies (core's @noble/hashes), as pnpm installs them beside it; its
    // links to the workspace's @pagewise packages stay out, so the checkout's own copies are built.
    const own = join(ROOT, 'packages', dir, 'node_modules');
    if (!existsSync(own)) continue;
    for (const entry of readdirSync(own)) {
      if (entry.startsWith('.') || entry === '@pagewise') continue;
      mkdirSync(join(checkout, 'packages', dir, 'node_modules'), { recursive: true });
      symlinkSync(
        realpathSync(join(own, entry)),
        join(checkout, 'packages', dir, 'node_modules', entry),
        'dir',
      );
    }
  }
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    symlinkSync(realpathSync(join(ROOT, 'node_modules', entry)), join(modules, entry), 'dir');
  }
  symlinkSync(
    realpathSync(join(ROOT, 'packages', 'kysely-adapter', 'node_modules', 'kysely')),
    join(modules, 'kysely'),
  );
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('packing one package of a fresh checkout', () => {
  test('npm pack of kysely-adapter builds core and sql first, then packs both module systems', async () => {
    expect(existsSync(join(checkout, 'packages', 'core', 'dist'))).toBe(false);
    const { stdout, stderr } = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
      cwd: join(checkout, 'packages', 'kysely-adapter'),
      env: childEnv,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`npm pack failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    console.log(stderr.trim());
    // The adapter compiles against sql, which compiles against core: core is built first, then sql.
    expect(stderr).toContain(
      '@pagewise/sql compiles against @pagewise/core, whose build is missing or stale: building it first',
    );
    expect(stderr).toContain(
      '@pagewise/kysely-adapter compiles against @pagewise/sql, whose build is missing or stale: building it first',
    );
    expect(stderr.indexOf('@pagewise/core: dist')).toBeLessThan(stderr.indexOf('@pagewise/sql: dist'));
    expect(existsSync(join(checkout, 'packages', 'core', 'dist', 'cjs', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(checkout, 'packages', 'sql', 'dist', 'cjs', 'index.d.ts'))).toBe(true);
    const [{ files }] = JSON.parse(stdout) as [{ files: Array<{ path: string }> }];
    expect(files.map((file) => file.path)).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
      ]),
    );
  }, 300_000);
});
