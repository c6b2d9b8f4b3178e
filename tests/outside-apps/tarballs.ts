// One scratch app outside the workspace for every app of tests/outside-apps: the packages' tarballs
// from the test run's one `pnpm release --dry-run` (tests/support/release-run.ts), installed once with plain
// npm together with the apps' frameworks, at the versions the workspace has installed, and the
// apps compiled once by tsc (strict, module nodenext, skipLibCheck false). The first caller starts
// the work and every later one shares its promise.
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative as relativePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { dryRunRelease, tarballOf } from '../support/release-run.js';
import { childEnv, manifestOf, sh } from '../support/scratch-packages.js';

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APPS = fileURLToPath(new URL('apps/', import.meta.url));
const PACKED = [
  'core',
  'rest',
  'sql',
  'kysely-adapter',
  'drizzle-adapter',
  'memory-adapter',
  'client',
  'nest',
] as const;
type PackageDir = (typeof PACKED)[number];

/** The app file expected to fail tsc: it is compiled on its own, never with the others. */
export const MISSPELT = 'misspelt-ordering.ts';
/** kysely-paginate 0.2.0 peers on kysely ^0.24: its app sits in a folder with its own install. */
export const KYSELY_PAGINATE_DIR = 'kysely-paginate';

/** Like Promise.all, but settles only when every one has: nothing runs on in a folder being removed. */
async function settled<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<T>).value);
}

const fromTests = createRequire(join(ROOT, 'tests', 'package.json'));
const fromRoot = createRequire(join(ROOT, 'package.json'));
const fromKyselyPaginate = createRequire(join(ROOT, 'bench', 'kysely-paginate-024', 'package.json'));

/** The installed version of a workspace dependency, so the scratch app runs what the workspace runs. */
function versionOf(specifier: string, from = fromTests): string {
  return (JSON.parse(readFileSync(manifestOf(specifier, from), 'utf8')) as { version: string }).version;
}

const FRAMEWORKS = [
  '@apollo/server',
  '@hono/node-server',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@tanstack/query-core',
  'better-sqlite3',
  'drizzle-orm',
  'express',
  'fastify',
  'graphql',
  'graphql-yoga',
  'hono',
  'kysely',
  'mysql2',
  'pg',
  'reflect-metadata',
  'rxjs',
] as const;
/**
 * Where the workspace keeps the version an app outside it needs: @apollo/server 5 peers on
 * graphql ^16.11, so npm refuses the graphql 17 the workspace's own tests run.
 */
const INSTALLED_AS: Readonly<Record<string, string>> = { graphql: 'graphql-16' };
const TYPES = ['@types/better-sqlite3', '@types/express', '@types/pg'] as const;

/** The apps' compiler options: what a strict user project on Node has, declarations checked too. */
const COMPILER_OPTIONS = {
  strict: true,
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'nodenext',
  moduleResolution: 'nodenext',
  skipLibCheck: false,
  // Nest's decorators are TypeScript's legacy ones; no emitDecoratorMetadata (@pagewise/nest needs none).
  experimentalDecorators: true,
  types: ['node'],
};

export interface ScratchApp {
  /** The app folder: node_modules, the apps' sources and, next to them, their compiled .js. */
  readonly dir: string;
  /** The versions installed, by package name. */
  readonly versions: Readonly<Record<string, string>>;
  /**
   * Seconds spent waiting for the release's tarballs (the frameworks install and the kysely-paginate app compiles meanwhile),
   * then installing the tarballs, then compiling the other apps.
   */
  readonly seconds: { readonly pack: number; readonly install: number; readonly compile: number };
  /** tsc's errors in the file expected to fail, as `--pretty false` prints them. */
  readonly misspelt: readonly string[];
  /** tsc's errors in other packages' declarations (skipLibCheck is off), which the apps live with. */
  readonly libraryErrors: readonly string[];
  /**
   * Removes the scratch folder in a process of its own, which outlives the test's: deleting its
   * node_modules takes longer than everything the tests do with it.
   */
  remove(): void;
}

/** The packages' tarballs from this test run's one `pnpm release --dry-run`, already checked there. */
async function releasedTarballs(): Promise<Map<PackageDir, string>> {
  const report = await dryRunRelease();
  return new Map(PACKED.map((dir) => [dir, tarballOf(report, `@pagewise/${dir}`)]));
}

const npmInstall = ['install', '--no-audit', '--no-fund', '--prefer-offline'];

/**
 * The frameworks, drivers and types, at the workspace's versions, and kysely-paginate with its own
 * kysely in a folder of its own (everything else it finds one level up). Runs while npm packs.
 */
async function installFrameworks(app: string): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const name of FRAMEWORKS) versions[name] = versionOf(INSTALLED_AS[name] ?? name);
  for (const name of TYPES) versions[name] = versionOf(name);
  versions['@types/node'] = versionOf('@types/node', fromRoot);
  const manifest = {
    name: 'pagewise-outside-apps',
    private: true,
    type: 'module',
    dependencies: Object.fromEntries(FRAMEWORKS.map((name) => [name, versions[name]!])),
    devDependencies: Object.fromEntries(
      [...TYPES, '@types/node'].map((name) => [name, versions[name]!] as const),
    ),
  };
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));

  const kp = join(app, KYSELY_PAGINATE_DIR);
  versions['kysely-paginate'] = versionOf('kysely-paginate', fromKyselyPaginate);
  versions['kysely (kysely-paginate)'] = versionOf('kysely', fromKyselyPaginate);
  const kpManifest = {
    name: 'pagewise-outside-apps-kysely-paginate',
    private: true,
    type: 'module',
    dependencies: {
      kysely: versions['kysely (kysely-paginate)'],
      'kysely-paginate': versions['kysely-paginate'],
    },
  };
  writeFileSync(join(kp, 'package.json'), JSON.stringify(kpManifest, null, 2));
  // --ignore-scripts: better-sqlite3's install would compile its addon (a minute) because only the
  // npm registry is reachable; the workspace's build of the same version is copied in instead.
  await settled([
    sh('npm', [...npmInstall, '--ignore-scripts'], app),
    sh('npm', [...npmInstall, '--ignore-scripts'], kp),
  ]);
  return versions;
}

/** The tarballs, as a user adds them: `npm install <tarball>...` into the app with its frameworks. */
async function installTarballs(app: string, tarballs: Map<PackageDir, string>): Promise<void> {
  await sh('npm', [...npmInstall, '--ignore-scripts', ...PACKED.map((dir) => tarballs.get(dir)!)], app);
  const addon = join('build', 'Release', 'better_sqlite3.node');
  const built = join(dirname(manifestOf('better-sqlite3', fromTests)), addon);
  mkdirSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(built, join(app, 'node_modules', 'better-sqlite3', addon));
}

/** Every app's source, as the workspace holds them, into the scratch app. */
function copyApps(app: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(APPS, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const relative = relativePath(APPS, join(entry.parentPath, entry.name));
    mkdirSync(dirname(join(app, relative)), { recursive: true });
    copyFileSync(join(APPS, relative), join(app, relative));
    files.push(relative);
  }
  return files;
}

/** tsc's diagnostics for a project, one string each (its first line and the indented ones under it). */
async function diagnostics(project: string, cwd: string): Promise<string[]> {
  const tsc = fromRoot.resolve('typescript/bin/tsc');
  try {
    await run(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { cwd, env: childEnv });
    return [];
  } catch (error) {
    const { stdout = '' } = error as { stdout?: string };
    const found: string[] = [];
    for (const line of stdout.split('\n')) {
      if (/^\S.*: error TS\d+/.test(line)) found.push(line);
      else if (line.startsWith(' ') && found.length > 0) found[found.length - 1] += `\n${line}`;
    }
    if (found.length === 0) throw error;
    return found;
  }
}

/** A diagnostic in another package's declarations: not the apps' and not Pagewise's to fix. */
const isLibraryError = (diagnostic: string) =>
  /(^|\/)node_modules\//.test(diagnostic) && !/(^|\/)node_modules\/@pagewise\//.test(diagnostic);

const KP = `${KYSELY_PAGINATE_DIR}/`;

/**
 * tsc on the kysely-paginate app, which imports no Pagewise package and so compiles while npm
 * packs. Under nodenext its CommonJS typings see kysely's CommonJS declarations and the app's
 * query builder is foreign to them (TS2345, '#private'); bundler resolution gives both the ESM ones.
 */
async function compileKyselyPaginate(app: string, files: readonly string[]): Promise<string[]> {
  const project = {
    compilerOptions: { ...COMPILER_OPTIONS, module: 'preserve', moduleResolution: 'bundler' },
    files: files.filter((file) => file.startsWith(KP)).map((file) => file.slice(KP.length)),
  };
  writeFileSync(join(app, KP, 'tsconfig.json'), JSON.stringify(project, null, 2));
  return (await diagnostics('tsconfig.json', join(app, KP))).map((line) => `${KP}${line}`);
}

/**
 * Compiles the other apps (tsc emits next to each source even when a declaration file of another
 * package has an error) and fails on any error in an app or in Pagewise's declarations. Answers
 * the other packages' declaration errors, and what tsc says of the file meant not to compile.
 */
async function compile(
  app: string,
  files: readonly string[],
  kyselyPaginateErrors: readonly string[],
): Promise<{ libraryErrors: string[]; misspelt: string[] }> {
  const apps = {
    compilerOptions: COMPILER_OPTIONS,
    files: files.filter((file) => file !== MISSPELT && !file.startsWith(KP)),
  };
  const misspelt = { compilerOptions: { ...COMPILER_OPTIONS, noEmit: true }, files: [MISSPELT] };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(apps, null, 2));
  writeFileSync(join(app, 'tsconfig.misspelt.json'), JSON.stringify(misspelt, null, 2));
  const [ours, misspeltErrors] = await settled([
    diagnostics('tsconfig.json', app),
    diagnostics('tsconfig.misspelt.json', app),
  ]);
  const errors = [...ours!, ...kyselyPaginateErrors];
  const appErrors = errors.filter((diagnostic) => !isLibraryError(diagnostic));
  if (appErrors.length > 0) throw new Error(`tsc failed on the apps:\n${appErrors.join('\n')}`);
  return {
    libraryErrors: errors.filter(isLibraryError),
    misspelt: misspeltErrors!.filter((diagnostic) => !isLibraryError(diagnostic)),
  };
}

async function prepare(): Promise<ScratchApp> {
  const scratch = mkdtempSync(join(tmpdir(), 'pagewise-outside-apps-'));
  const remove = () => spawn('rm', ['-rf', scratch], { detached: true, stdio: 'ignore' }).unref();
  try {
    const app = join(scratch, 'app');
    mkdirSync(join(app, KYSELY_PAGINATE_DIR), { recursive: true });
    const files = copyApps(app);
    const started = performance.now();
    let packed = 0;
    const packing = releasedTarballs().finally(() => {
      packed = performance.now();
    });
    const frameworks = installFrameworks(app).then(async (versions) => ({
      versions,
      kyselyPaginateErrors: await compileKyselyPaginate(app, files),
    }));
    // Both end before anything throws: nothing may run on in a folder being removed.
    await Promise.allSettled([packing, frameworks]);
    const [tarballs, { versions, kyselyPaginateErrors }] = [await packing, await frameworks];
    await installTarballs(app, tarballs);
    const installed = performance.now();
    const { libraryErrors, misspelt } = await compile(app, files, kyselyPaginateErrors);
    const seconds = (from: number, to: number) => Math.round((to - from) / 100) / 10;
    return {
      dir: app,
      versions,
      seconds: {
        pack: seconds(started, packed),
        install: seconds(packed, installed),
        compile: seconds(installed, performance.now()),
      },
      libraryErrors,
      misspelt,
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}

let prepared: Promise<ScratchApp> | undefined;

/** The scratch app, packed, installed and compiled once for the whole file. */
export function scratchApp(): Promise<ScratchApp> {
  prepared ??= prepare();
  return prepared;
}
