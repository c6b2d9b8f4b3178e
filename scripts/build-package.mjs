// Builds workspace packages: each package's src/ into dist/ as ES modules and into dist/cjs/ as
// CommonJS (dist/cjs/package.json says so), each with its declarations and maps. A CommonJS
// program then reads declarations that are CommonJS themselves, so the `kysely` they import is the
// `kysely` the program requires (Kysely ships both builds, and its two `Kysely` classes do not
// match: TS2322 "'#private' refers to a different member").
//
// A package compiles against the built declarations of the workspace packages it depends on;
// those whose build is missing or older than their sources are built first, so packing one
// package of a fresh checkout works in any order.
//
//   node scripts/build-package.mjs [<package dir>...]   (default: the current directory)
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = join(ROOT, 'packages');
/** Written last: a dist without it is a build that did not finish. */
const MARKER = join('dist', 'cjs', 'package.json');
/** Inputs of every package's build besides its own folder. */
const SHARED_INPUTS = [join(ROOT, 'tsconfig.base.json'), fileURLToPath(import.meta.url)];

/**
 * @typedef {object} WorkspacePackage
 * @property {string} name
 * @property {string} dir absolute path of the package folder
 * @property {string} version
 * @property {Record<string, unknown>} manifest
 * @property {string[]} dependsOn the workspace packages among its dependencies and peers: what
 *   it compiles against (devDependencies serve its tests)
 */

/** @returns {WorkspacePackage[]} the packages under packages/, dependencies before dependents */
export function workspacePackages() {
  /** @type {Map<string, WorkspacePackage>} */
  const found = new Map();
  for (const entry of readdirSync(PACKAGES, { withFileTypes: true })) {
    const file = join(PACKAGES, entry.name, 'package.json');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
    found.set(manifest.name, {
      name: manifest.name,
      dir: join(PACKAGES, entry.name),
      version: manifest.version,
      manifest,
      dependsOn: Object.keys(ranges),
    });
  }
  for (const pkg of found.values()) pkg.dependsOn = pkg.dependsOn.filter((name) => found.has(name));

  /** @type {WorkspacePackage[]} */
  const ordered = [];
  const state = new Map();
  const visit = (/** @type {WorkspacePackage} */ pkg, /** @type {string[]} */ path) => {
    if (state.get(pkg.name) === 'done') return;
    if (state.get(pkg.name) === 'visiting') {
      throw new Error(
        `workspace packages depend on each other in a loop: ${[...path, pkg.name].join(' -> ')}`,
      );
    }
    state.set(pkg.name, 'visiting');
    for (const name of pkg.dependsOn)
      visit(/** @type {WorkspacePackage} */ (found.get(name)), [...path, pkg.name]);
    state.set(pkg.name, 'done');
    ordered.push(pkg);
  };
  for (const pkg of [...found.values()].sort((a, b) => a.name.localeCompare(b.name))) visit(pkg, []);
  return ordered;
}

/** The newest modification time among a folder's files (0 when it has none). */
function newest(/** @type {string} */ path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/**
 * Whether a package's dist is complete and newer than everything it is built from: its sources,
 * its configuration and the builds of the packages it compiles against.
 * @param {WorkspacePackage} pkg
 * @param {WorkspacePackage[]} all
 */
export function isBuilt(pkg, all) {
  const marker = join(pkg.dir, MARKER);
  if (!existsSync(marker)) return false;
  const inputs = [
    join(pkg.dir, 'src'),
    join(pkg.dir, 'package.json'),
    join(pkg.dir, 'tsconfig.build.json'),
    ...SHARED_INPUTS,
    ...pkg.dependsOn.map((name) => join(byName(all, name).dir, MARKER)),
  ];
  return statSync(marker).mtimeMs >= Math.max(...inputs.map(newest));
}

function byName(/** @type {WorkspacePackage[]} */ all, /** @type {string} */ name) {
  return /** @type {WorkspacePackage} */ (all.find((p) => p.name === name));
}

/**
 * Declarations under node_modules and TypeScript's libraries, parsed once per process: the
 * CommonJS compilation reads most of the files the ES module one did (@types/node, the libs).
 * @type {Map<string, ts.SourceFile>}
 */
const PARSED = new Map();
const LIB_DIR = dirname(ts.getDefaultLibFilePath({}));

/**
 * One compilation of a package's tsconfig.build.json. For CommonJS the program reads the
 * package's own package.json with `"type": "commonjs"`, so TypeScript checks and emits the
 * sources as the CommonJS modules they become (resolving imports with the `require` condition,
 * as a CommonJS consumer will); nothing on disk changes.
 * @param {WorkspacePackage} pkg
 * @param {'esm' | 'cjs'} format
 */
function compile(pkg, format) {
  const configFile = join(pkg.dir, 'tsconfig.build.json');
  /** @type {ts.Diagnostic[]} */
  const configErrors = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  if (!parsed) fail(pkg, configErrors);
  const esmOut = /** @type {string} */ (parsed.options.outDir);
  const options =
    format === 'esm'
      ? parsed.options
      : // verbatimModuleSyntax forbids import statements in CommonJS files; the ES build keeps it.
        { ...parsed.options, outDir: join(esmOut, 'cjs'), verbatimModuleSyntax: false };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, languageVersion, onError, shouldCreate) => {
    if (!file.includes('/node_modules/') && !file.startsWith(LIB_DIR)) {
      return getSourceFile(file, languageVersion, onError, shouldCreate);
    }
    const key = `${file}\0${JSON.stringify(languageVersion)}`;
    let parsed = PARSED.get(key);
    if (!parsed) {
      parsed = getSourceFile(file, languageVersion, onError, shouldCreate);
      if (parsed) PARSED.set(key, parsed);
    }
    return parsed;
  };
  if (format === 'cjs') {
    const manifestFile = join(pkg.dir, 'package.json');
    const readFile = host.readFile.bind(host);
    host.readFile = (file) =>
      resolve(file) === manifestFile ? JSON.stringify({ ...pkg.manifest, type: 'commonjs' }) : readFile(file);
  }
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options,
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  if (diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) fail(pkg, diagnostics, format);
}

/** @returns {never} */
function fail(
  /** @type {WorkspacePackage} */ pkg,
  /** @type {readonly ts.Diagnostic[]} */ diagnostics,
  format = '',
) {
  const text = ts.formatDiagnosticsWithColorAndContext(diagnostics, {
    getCanonicalFileName: (file) => file,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => '\n',
  });
  throw new Error(`${pkg.name}: the ${format || 'build'} compilation failed\n${text}`);
}

/** Progress goes to stderr: stdout is `npm pack --json`'s when a prepack builds. */
const progress = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);

/**
 * Builds one package, after building those of the workspace packages it compiles against (and
 * theirs) whose build is missing or stale.
 * @param {WorkspacePackage} pkg
 * @param {WorkspacePackage[]} all
 * @param {(line: string) => void} log
 */
export function buildPackage(pkg, all = workspacePackages(), log = progress) {
  const ensureBuilt = (/** @type {WorkspacePackage} */ dependency, /** @type {string} */ by) => {
    for (const name of dependency.dependsOn) ensureBuilt(byName(all, name), dependency.name);
    if (isBuilt(dependency, all)) return;
    log(`${by} compiles against ${dependency.name}, whose build is missing or stale: building it first`);
    build(dependency, log);
  };
  for (const name of pkg.dependsOn) ensureBuilt(byName(all, name), pkg.name);
  build(pkg, log);
}

function build(/** @type {WorkspacePackage} */ pkg, /** @type {(line: string) => void} */ log) {
  const started = performance.now();
  rmSync(join(pkg.dir, 'dist'), { recursive: true, force: true });
  compile(pkg, 'esm');
  compile(pkg, 'cjs');
  writeFileSync(join(pkg.dir, MARKER), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(`${pkg.name}: dist (ES modules) and dist/cjs (CommonJS) in ${seconds} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const all = workspacePackages();
  const dirs = process.argv.slice(2);
  try {
    for (const dir of dirs.length > 0 ? dirs : ['.']) {
      const wanted = resolve(dir);
      const pkg = all.find((p) => p.dir === wanted);
      if (!pkg) throw new Error(`${relative(ROOT, wanted) || '.'} is no package under packages/`);
      buildPackage(pkg, all);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
