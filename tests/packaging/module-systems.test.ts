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

// A CommonJS app and an ES module app outside the workspace, both compiled by tsc with module
// nodenext and strict from the same source (./dual-consumer/feed.ts), against the npm-packed
// tarballs of core, rest, kysely-adapter, memory-adapter and client and the npm-installed kysely
// and better-sqlite3 they share (one node_modules above both).

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fromTests = createRequire(join(ROOT, 'tests', 'package.json'));
const fromRoot = createRequire(join(ROOT, 'package.json'));
const PACKED = ['core', 'rest', 'kysely-adapter', 'memory-adapter', 'client'] as const;

const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)),
) as NodeJS.ProcessEnv;

async function sh(file: string, args: readonly string[], cwd: string): Promise<string> {
  try {
    return (await run(file, args, { cwd, env: childEnv, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

/** The installed version of a package, found above its entry file (kysely's exports hide package.json). */
function versionOf(name: string, from = fromTests): string {
  try {
    return (JSON.parse(readFileSync(from.resolve(`${name}/package.json`), 'utf8')) as { version: string })
      .version;
  } catch {
    // Not exported: looked up above the entry file.
  }
  for (let dir = dirname(from.resolve(name)); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name: found, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name?: string;
      version: string;
    };
    if (found === name) return version;
  }
  throw new Error(`no package.json of ${name}`);
}

interface Report {
  readonly moduleSystem: string;
  readonly first: number[];
  readonly second: number[];
  readonly titles: string[];
  readonly previous: boolean;
  readonly page: { ids: number[]; next: boolean; link: string | null };
  readonly memory: number[];
  readonly walked: number[];
  readonly refused: string;
  readonly restReexportsCore: boolean;
  readonly loaded: string[];
}

let scratch = '';
const TSCONFIG = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'ES2022',
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
  },
  files: ['feed.ts'],
};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'pagewise-module-systems-'));
  const app = join(scratch, 'app');
  mkdirSync(join(scratch, 'tarballs'));
  const tarballs: Record<string, string> = {};
  for (const dir of PACKED) {
    const stdout = await sh(
      'npm',
      ['pack', '--json', '--pack-destination', join(scratch, 'tarballs')],
      join(ROOT, 'packages', dir),
    );
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
    tarballs[`@pagewise/${dir}`] = `file:${join(scratch, 'tarballs', filename)}`;
  }
  for (const system of ['cjs', 'esm']) mkdirSync(join(app, system), { recursive: true });
  // No "type": the app is CommonJS; esm/ is ES modules by its own package.json.
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'pagewise-dual-consumer',
      private: true,
      dependencies: {
        ...tarballs,
        'better-sqlite3': versionOf('better-sqlite3'),
        kysely: versionOf('kysely'),
      },
      devDependencies: {
        '@types/better-sqlite3': versionOf('@types/better-sqlite3'),
        '@types/node': versionOf('@types/node', fromRoot),
      },
    }),
  );
  writeFileSync(join(app, 'esm', 'package.json'), JSON.stringify({ type: 'module' }));
  for (const system of ['cjs', 'esm']) {
    writeFileSync(join(app, system, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    copyFileSync(
      fileURLToPath(new URL('dual-consumer/feed.ts', import.meta.url)),
      join(app, system, 'feed.ts'),
    );
  }
  // The addon of the workspace's better-sqlite3 instead of a compile (only npm's registry answers).
  await sh('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], app);
  const addon = join('build', 'Release', 'better_sqlite3.node');
  mkdirSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(
    join(dirname(fromTests.resolve('better-sqlite3/package.json')), addon),
    join(app, 'node_modules', 'better-sqlite3', addon),
  );
}, 300_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function compileAndRun(system: 'cjs' | 'esm'): Promise<Report> {
  const cwd = join(scratch, 'app', system);
  await sh(process.execPath, [fromRoot.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], cwd);
  return JSON.parse(await sh(process.execPath, ['out/feed.js'], cwd)) as Report;
}

describe('the same program as CommonJS and as ES modules', () => {
  const reports: Partial<Record<'cjs' | 'esm', Report>> = {};

  test.each(['cjs', 'esm'] as const)(
    'compiles (%s, module nodenext, strict) and pages SQLite',
    async (system) => {
      const report = await compileAndRun(system);
      reports[system] = report;
      expect(report.moduleSystem).toBe(system === 'cjs' ? 'commonjs' : 'esm');
      // score desc, id desc as the tiebreaker: 3 (7, 5, 3, 1), 2 (8, 4), 1 (6, 2)
      expect(report.first).toEqual([7, 5, 3]);
      expect(report.second).toEqual([1, 8, 4]);
      expect(report.titles).toEqual(['Article 1', 'Article 8', 'Article 4']);
      expect(report.previous).toBe(true);
      expect(report.page).toMatchObject({ ids: [7, 5, 3], next: true });
      expect(report.page.link).toMatch(/^<http:\/\/localhost\/articles\/\?cursor=[\w-]+>; rel="next"$/);
      expect(report.memory).toEqual([7, 5, 3]);
      expect(report.walked).toEqual([7, 5, 3, 1, 8, 4, 6, 2]);
      expect(report.refused).toBe('ConfigurationError');
      expect(report.restReexportsCore).toBe(true);
    },
    180_000,
  );

  test('a CommonJS app loads only CommonJS builds, one copy of core', () => {
    const loaded = reports.cjs?.loaded ?? [];
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((file) => !/^@pagewise\/[\w-]+\/dist\/cjs\//.test(file))).toEqual([]);
    expect(loaded.some((file) => file.startsWith('@pagewise/core/dist/cjs/index.js'))).toBe(true);
  });

  test('both builds answer alike', () => {
    const { moduleSystem: _cjs, loaded: _loaded, ...cjs } = reports.cjs!;
    const { moduleSystem: _esm, loaded: _none, ...esm } = reports.esm!;
    expect(cjs).toEqual(esm);
  });
});
