// A Nest 11 CommonJS app outside the workspace, as `nest new` (11) makes one: no "type": "module",
// tsc with module nodenext, emitDecoratorMetadata on. It installs @pagewise/nest, rest, core and
// memory-adapter with plain npm from the tarballs of this run's `pnpm release --dry-run`
// (tests/packaging/release.test.ts checks them), so it requires their CommonJS builds; it compiles
// ./feed-app.ts (the Nest 12 suite's app) and ./commonjs-app/main.ts, and answers the same feed on
// Express and Fastify.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dryRunRelease, tarballOf } from '../support/release-run.js';
import { sh } from '../support/scratch-packages.js';
import { ARTICLES } from './feed-app.js';

const _run = promisify(execFile);
const HERE = fileURLToPath(new URL('.', import.meta.url));
const PACKED = ['core', 'rest', 'memory-adapter', 'nest'] as const;
type PackageDir = (typeof PACKED)[number];

let scratch = '';
const tarballs = new Map<PackageDir, string>();

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
  readonly pagewise: string[];
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
  const release = await dryRunRelease();
  for (const dir of PACKED) tarballs.set(dir, tarballOf(release, `@pagewise/${dir}`));

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
}, 900_000);

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
      expect(report.pagewise).toContain('@pagewise/core/dist/cjs/index.js');
      expect(report.pagewise.filter((file) => !/^@pagewise\/[\w-]+\/dist\/cjs\//.test(file))).toEqual([]);
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
