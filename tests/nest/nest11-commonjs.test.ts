// A Nest 11 CommonJS app outside the workspace, as `nest new` (11) makes one: no "type": "module",
// tsc with module nodenext, emitDecoratorMetadata on. It installs @pagewise/nest, rest, core and
// memory-adapter from `npm pack` tarballs with plain npm, compiles ./feed-app.ts (the Nest 12
// suite's app) and ./commonjs-app/main.ts, and answers the same feed on Express and Fastify.
//
// The tarballs are packed from copies of the packages, built there by their own prepack: the
// packaging suite empties and rebuilds the packages' dist in place while it runs.
import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARTICLES } from './feed-app.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const PACKED = ['core', 'rest', 'memory-adapter', 'nest'] as const;
type PackageDir = (typeof PACKED)[number];

/** The child's environment without what pnpm passes to scripts (npm would read it as its own config). */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)),
) as NodeJS.ProcessEnv;

async function sh(
  file: string,
  args: readonly string[],
  cwd: string,
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, { cwd, env: childEnv, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

/** Where a package installed for the tests really is (pnpm links into its store). */
function installed(name: string): string {
  return realpathSync(join(ROOT, 'tests', 'node_modules', name));
}

let scratch = '';
const tarballs = new Map<PackageDir, string>();

/**
 * A copy of the workspace's build setup: tsconfig.base.json, the build script, the packages' sources and a
 * node_modules of links to the root's tools, the copies of the packages it builds, and Nest's
 * and rxjs's types for @pagewise/nest.
 */
function copyWorkspace(): string {
  const workspace = join(scratch, 'workspace');
  const modules = join(workspace, 'node_modules');
  mkdirSync(join(modules, '@pagewise'), { recursive: true });
  mkdirSync(join(modules, '@nestjs'), { recursive: true });
  cpSync(join(ROOT, 'tsconfig.base.json'), join(workspace, 'tsconfig.base.json'));
  cpSync(join(ROOT, 'scripts'), join(workspace, 'scripts'), { recursive: true });
  for (const dir of PACKED) {
    cpSync(join(ROOT, 'packages', dir), join(workspace, 'packages', dir), {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|dist)$/.test(source),
    });
    symlinkSync(join(workspace, 'packages', dir), join(modules, '@pagewise', dir), 'dir');
  }
  const rootModules = join(ROOT, 'node_modules');
  for (const entry of readdirSync(rootModules)) {
    if (entry.startsWith('.') && entry !== '.bin') continue;
    symlinkSync(realpathSync(join(rootModules, entry)), join(modules, entry), 'dir');
  }
  for (const name of ['@nestjs/common', '@nestjs/core', 'rxjs']) {
    symlinkSync(installed(name), join(modules, name), 'dir');
  }
  return workspace;
}

async function pack(workspace: string, dir: PackageDir): Promise<void> {
  const { stdout } = await sh(
    'npm',
    ['pack', '--json', '--pack-destination', join(scratch, 'tarballs')],
    join(workspace, 'packages', dir),
  );
  const [info] = JSON.parse(stdout) as [{ filename: string }];
  tarballs.set(dir, join(scratch, 'tarballs', info.filename));
}

/** `nest new`'s tsconfig.json for Nest 11 (CommonJS, nodenext, legacy decorators with metadata). */
const NEST11_TSCONFIG = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    resolvePackageJsonExports: true,
    esModuleInterop: true,
    isolatedModules: true,
    declaration: false,
    removeComments: true,
    emitDecoratorMetadata: true,
    experimentalDecorators: true,
    allowSyntheticDefaultImports: true,
    target: 'ES2023',
    sourceMap: true,
    outDir: './dist',
    rootDir: './src',
    incremental: false,
    skipLibCheck: true,
    strictNullChecks: true,
    forceConsistentCasingInFileNames: true,
    noImplicitAny: false,
    strictBindCallApply: false,
    noFallthroughCasesInSwitch: false,
    types: ['node'],
  },
  include: ['src'],
};

interface Report {
  readonly moduleSystem: string;
  readonly nest: string;
  readonly platform: string;
  readonly ids: number[];
  readonly scores: number[];
  readonly links: Array<{ header: string | null; next: string | null; previous: string | null }>;
  readonly tampered: { status: number; body: unknown };
  readonly refused: { status: number; body: unknown; vary: string | null };
  readonly untrusted: { status: number; body: unknown };
}

let compiled: Promise<void>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'pagewise-nest11-cjs-'));
  mkdirSync(join(scratch, 'tarballs'));
  const workspace = copyWorkspace();
  await pack(workspace, 'core');
  await Promise.all([pack(workspace, 'rest'), pack(workspace, 'memory-adapter')]);
  await pack(workspace, 'nest');

  const app = join(scratch, 'app');
  mkdirSync(join(app, 'src', 'commonjs-app'), { recursive: true });
  const tarball = (dir: PackageDir) => `file:${tarballs.get(dir)!}`;
  const manifest = {
    name: 'pagewise-nest11-commonjs-app',
    private: true,
    dependencies: {
      '@nestjs/common': '^11.0.1',
      '@nestjs/core': '^11.0.1',
      '@nestjs/platform-express': '^11.0.1',
      '@nestjs/platform-fastify': '^11.0.1',
      '@pagewise/core': tarball('core'),
      '@pagewise/memory-adapter': tarball('memory-adapter'),
      '@pagewise/nest': tarball('nest'),
      '@pagewise/rest': tarball('rest'),
      'reflect-metadata': '^0.2.2',
      rxjs: '^7.8.1',
    },
    devDependencies: { '@types/node': '^20.19.0', typescript: '^5.7.3' },
  };
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(NEST11_TSCONFIG, null, 2));
  for (const file of ['feed-app.ts', 'http-client.ts', 'commonjs-app/main.ts']) {
    cpSync(join(HERE, file), join(app, 'src', file));
  }
  await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], app);
  compiled = sh(
    process.execPath,
    [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
    app,
  ).then(() => {});
  compiled.catch(() => {});
}, 600_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function serve(platform: string): Promise<Report> {
  await compiled;
  const { stdout } = await sh(
    process.execPath,
    ['dist/commonjs-app/main.js', platform],
    join(scratch, 'app'),
  );
  return JSON.parse(stdout) as Report;
}

describe('the @pagewise/nest tarball', () => {
  test('holds dist with maps and declarations, the sources, LICENSE and README, no tests', async () => {
    const { stdout } = await sh('tar', ['-tzf', tarballs.get('nest')!], scratch);
    const paths = stdout.split('\n').filter(Boolean);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/LICENSE',
        'package/README.md',
        'package/dist/index.js',
        'package/dist/index.js.map',
        'package/dist/index.d.ts',
        'package/src/index.ts',
      ]),
    );
    expect(paths.filter((path) => path.includes('.test.'))).toEqual([]);
  });

  test('publint finds nothing to say; attw --profile esm-only passes', async () => {
    const file = readFileSync(tarballs.get('nest')!);
    const tarball = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    const { messages, pkg } = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
    const attw = join(ROOT, 'node_modules', '.bin', 'attw');
    await sh(
      attw,
      [tarballs.get('nest')!, '--profile', 'esm-only', '--no-color', '--format', 'table'],
      scratch,
    );
  }, 120_000);
});

describe('a Nest 11 CommonJS app from npm pack tarballs', () => {
  test('tsc compiles it (module nodenext, CommonJS output)', async () => {
    await compiled;
    const output = readFileSync(join(scratch, 'app', 'dist', 'feed-app.js'), 'utf8');
    expect(output).toMatch(/^"use strict";/);
    expect(output).toContain('require("@pagewise/nest")');
    const { stdout } = await sh(
      process.execPath,
      [join('node_modules', 'typescript', 'bin', 'tsc'), '-v'],
      join(scratch, 'app'),
    );
    console.log(`Nest 11 CommonJS app compiled by ${stdout.trim()}`);
  }, 180_000);

  test.each(['express', 'fastify'])(
    'answers the feed on %s as the Nest 12 app does',
    async (platform) => {
      const report = await serve(platform);
      expect(report.moduleSystem).toBe('commonjs');
      expect(report.nest).toMatch(/^11\./);
      expect([...report.ids].sort((a, b) => a - b)).toEqual(ARTICLES.map((article) => article.id));
      expect(report.scores).toEqual([...report.scores].sort((a, b) => b - a));
      expect(report.links).toHaveLength(4);
      for (const { header, next, previous } of report.links) {
        const expected = [
          ...(next ? [`<${next}>; rel="next"`] : []),
          ...(previous ? [`<${previous}>; rel="prev"`] : []),
        ];
        expect(header).toBe(expected.length > 0 ? expected.join(', ') : null);
      }
      expect(report.tampered).toEqual({ status: 404, body: { detail: 'Invalid cursor' } });
      expect(report.refused).toEqual({
        status: 406,
        body: { detail: 'Invalid version in "Accept" header.' },
        vary: 'Accept',
      });
      expect(report.untrusted.status).toBe(400);
    },
    120_000,
  );
});
