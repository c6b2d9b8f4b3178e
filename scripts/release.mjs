// pnpm release: what goes to npm is what was checked. Builds every package in dependency order,
// packs each with npm, checks the tarballs (attw's node16 profile, publint), installs them with
// plain npm into a CommonJS app and an ES module app outside the workspace that compile one
// program with tsc and run it, and then hands the very same tarballs to `npm publish`:
// `--dry-run` stops there (`npm publish --dry-run`), `--publish` publishes for real. Nothing is
// published when any step before failed. The report lands in <out>/release-report.json.
//
//   node scripts/release.mjs --dry-run | --publish [--tag <dist-tag>] [--out <dir>]
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
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { ROOT, workspacePackages } from './build-package.mjs';

const exec = promisify(execFile);
const BUILD = fileURLToPath(new URL('build-package.mjs', import.meta.url));
const CONSUMER = join(ROOT, 'tests', 'packaging', 'dual-consumer', 'feed.ts');
/** The packages the consumer program imports; @pagewise/nest has its own outside apps (tests/nest). */
const CONSUMED = [
  '@pagewise/core',
  '@pagewise/rest',
  '@pagewise/sql',
  '@pagewise/kysely-adapter',
  '@pagewise/memory-adapter',
  '@pagewise/client',
];
const fromRoot = createRequire(join(ROOT, 'package.json'));
const fromTests = createRequire(join(ROOT, 'tests', 'package.json'));

/**
 * The environment without what npm and pnpm set for the script running this one (a child npm
 * would read `npm_config_*` as its own configuration); NPM_TOKEN and the like stay.
 */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm|pnpm)_(config|package|lifecycle)_|^npm_(execpath|node_execpath|command)$/.test(key),
  ),
);

/**
 * @param {string} file
 * @param {readonly string[]} args
 * @param {string} cwd
 * @returns {Promise<{ stdout: string; stderr: string }>}
 */
async function sh(file, args, cwd) {
  try {
    return await exec(file, args, { cwd, env: childEnv, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = /** @type {{ stdout?: string; stderr?: string }} */ (error);
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`.trim());
  }
}

const seconds = (/** @type {number} */ since) => Number(((performance.now() - since) / 1000).toFixed(1));

/**
 * Runs `task` for every package once its dependencies' tasks have finished, at most `limit` at a time.
 * @template T
 * @param {import('./build-package.mjs').WorkspacePackage[]} packages
 * @param {(pkg: import('./build-package.mjs').WorkspacePackage) => Promise<T>} task
 */
function inDependencyOrder(packages, task, limit = availableParallelism()) {
  let running = 0;
  /** @type {Array<() => void>} */
  const waiting = [];
  const slot = () =>
    new Promise((/** @type {(value?: unknown) => void} */ go) => {
      if (running < limit) {
        running += 1;
        go();
      } else waiting.push(go);
    });
  const free = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  /** @type {Map<string, Promise<T>>} */
  const started = new Map();
  const start = (/** @type {import('./build-package.mjs').WorkspacePackage} */ pkg) => {
    let promise = started.get(pkg.name);
    if (!promise) {
      const dependencies = packages.filter((p) => pkg.dependsOn.includes(p.name)).map(start);
      promise = Promise.all(dependencies)
        .then(slot)
        .then(() => task(pkg).finally(free));
      started.set(pkg.name, promise);
    }
    return promise;
  };
  return Promise.all(packages.map(start));
}

/**
 * The version of a package the workspace's tests run, so the outside apps install the same; read
 * from the package.json above its entry file (kysely's `exports` do not list its package.json).
 */
function installedVersion(/** @type {string} */ name, from = fromTests) {
  try {
    return JSON.parse(readFileSync(from.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    // Not exported: looked up above the entry file.
  }
  for (let dir = dirname(from.resolve(name)); dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.name === name) return manifest.version;
  }
  throw new Error(`found no package.json of ${name}`);
}

/**
 * Compiles the consumer program as CommonJS (cjs/, under the app's package.json, which has no
 * "type") and as ES modules (esm/, whose package.json says "module"), both with module nodenext
 * and strict, against the tarballs installed once for both, and runs each build.
 * @param {Map<string, string>} tarballs package name to tarball path
 */
async function runConsumers(tarballs, log = console.log) {
  const scratch = mkdtempSync(join(tmpdir(), 'pagewise-release-consumers-'));
  try {
    const app = join(scratch, 'app');
    const dependencies = Object.fromEntries(CONSUMED.map((name) => [name, `file:${tarballs.get(name)}`]));
    mkdirSync(join(app, 'esm'), { recursive: true });
    mkdirSync(join(app, 'cjs'));
    const manifest = {
      name: 'pagewise-release-consumer',
      private: true,
      dependencies: {
        ...dependencies,
        'better-sqlite3': installedVersion('better-sqlite3'),
        kysely: installedVersion('kysely'),
      },
      devDependencies: {
        '@types/better-sqlite3': installedVersion('@types/better-sqlite3'),
        '@types/node': installedVersion('@types/node', fromRoot),
      },
    };
    writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(app, 'esm', 'package.json'), '{ "type": "module" }\n');
    const tsconfig = {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'ES2022',
        types: ['node'],
        strict: true,
        // The shipped declarations are checked too, in the module system each app reads them in.
        skipLibCheck: false,
        outDir: 'out',
      },
      files: ['feed.ts'],
    };
    for (const system of ['cjs', 'esm']) {
      writeFileSync(join(app, system, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
      copyFileSync(CONSUMER, join(app, system, 'feed.ts'));
    }
    const installing = performance.now();
    // --ignore-scripts: better-sqlite3 would compile its addon when no prebuilt one can be
    // downloaded; the workspace's build of the same version is copied in instead.
    await sh('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], app);
    const addon = join('build', 'Release', 'better_sqlite3.node');
    mkdirSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
    copyFileSync(
      join(dirname(fromTests.resolve('better-sqlite3/package.json')), addon),
      join(app, 'node_modules', 'better-sqlite3', addon),
    );
    log(`  npm install of ${tarballs.size} tarballs, kysely and better-sqlite3: ${seconds(installing)} s`);

    const tsc = fromRoot.resolve('typescript/bin/tsc');
    /** @type {Record<string, { seconds: number; report?: Record<string, unknown>; error?: string }>} */
    const results = {};
    await Promise.all(
      ['cjs', 'esm'].map(async (system) => {
        const started = performance.now();
        const cwd = join(app, system);
        try {
          await sh(process.execPath, [tsc, '-p', 'tsconfig.json'], cwd);
          const { stdout } = await sh(process.execPath, [join('out', 'feed.js')], cwd);
          results[system] = { seconds: seconds(started), report: JSON.parse(stdout) };
        } catch (error) {
          results[system] = {
            seconds: seconds(started),
            error: String(error instanceof Error ? error.message : error),
          };
        }
      }),
    );
    /** @type {string[]} */
    const problems = [];
    for (const [system, result] of Object.entries(results)) {
      if (result.error) problems.push(`the ${system} app: ${result.error}`);
    }
    const { cjs, esm } = results;
    if (cjs?.report && esm?.report) {
      const { moduleSystem: cjsSystem, loaded, ...cjsRest } = cjs.report;
      const { moduleSystem: esmSystem, loaded: _esmLoaded, ...esmRest } = esm.report;
      if (cjsSystem !== 'commonjs' || esmSystem !== 'esm') {
        problems.push(`the apps ran as ${cjsSystem} and ${esmSystem}, not as commonjs and esm`);
      }
      if (JSON.stringify(cjsRest) !== JSON.stringify(esmRest)) {
        problems.push(
          `the two apps answered differently:\n${JSON.stringify(cjsRest)}\n${JSON.stringify(esmRest)}`,
        );
      }
      const foreign = /** @type {string[]} */ (loaded).filter(
        (file) => !/^@pagewise\/[\w-]+\/dist\/cjs\//.test(file),
      );
      if (foreign.length > 0)
        problems.push(`the CommonJS app loaded more than the CommonJS builds: ${foreign.join(', ')}`);
    }
    return { ok: problems.length === 0, problems, ...results };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Whether npm's registry already has this version (then it is not published again).
 * @returns {Promise<boolean | null>} null when the registry could not be asked
 */
async function published(/** @type {string} */ name, /** @type {string} */ version) {
  try {
    const { stdout } = await sh('npm', ['view', `${name}@${version}`, 'version', '--json'], ROOT);
    return stdout.trim() !== '';
  } catch (error) {
    return /E404|404 Not Found/.test(String(error)) ? false : null;
  }
}

/**
 * @param {{ dryRun: boolean; tag?: string | undefined; out: string; log?: (line: string) => void }} options
 */
export async function release({ dryRun, tag, out, log = console.log }) {
  const began = performance.now();
  const packages = workspacePackages();
  /** @type {Record<string, any>} */
  const report = {
    mode: dryRun ? 'dry-run' : 'publish',
    packages: Object.fromEntries(
      packages.map((pkg) => [pkg.name, { version: pkg.version, dir: relative(ROOT, pkg.dir) }]),
    ),
    seconds: {},
    failures: [],
  };
  const reportFile = join(out, 'release-report.json');
  const save = () => writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'tarballs'), { recursive: true });
  /** @param {string} stage @param {() => Promise<void>} body */
  const step = async (stage, body) => {
    const started = performance.now();
    log(`== ${stage}`);
    try {
      await body();
    } catch (error) {
      report.failures.push(`${stage}: ${error instanceof Error ? error.message : String(error)}`);
    }
    report.seconds[stage] = seconds(started);
    save();
    return report.failures.length === 0;
  };

  const order = packages.map((pkg) => pkg.name).join(', ');
  const built = await step('build', async () => {
    log(`  in dependency order: ${order}`);
    await inDependencyOrder(packages, async (pkg) => {
      const { stderr } = await sh(process.execPath, [BUILD, pkg.dir], ROOT);
      log(`  ${stderr.trim().split('\n').at(-1)}`);
    });
  });
  const packed =
    built &&
    (await step('pack', async () => {
      await Promise.all(
        packages.map(async (pkg) => {
          // Built above: prepack would build it again.
          const { stdout } = await sh(
            'npm',
            ['pack', '--json', '--ignore-scripts', '--pack-destination', join(out, 'tarballs')],
            pkg.dir,
          );
          const [info] = JSON.parse(stdout);
          Object.assign(report.packages[pkg.name], {
            tarball: join(out, 'tarballs', info.filename),
            size: info.size,
            unpackedSize: info.unpackedSize,
            files: info.files.map((/** @type {{ path: string }} */ f) => f.path).sort(),
          });
          log(`  ${info.filename}: ${(info.size / 1024).toFixed(1)} kB, ${info.files.length} files`);
        }),
      );
    }));
  if (!packed) return finish();
  const tarball = (/** @type {string} */ name) => /** @type {string} */ (report.packages[name].tarball);

  await step('check', async () => {
    const attw = join(ROOT, 'node_modules', '.bin', 'attw');
    /** @type {string[]} */
    const failed = [];
    await inDependencyOrder(
      packages,
      async (pkg) => {
        const entry = report.packages[pkg.name];
        // node16: every resolution a TypeScript user can have (CommonJS and ES modules under
        // node16/nodenext, bundlers) but node10, which reads no `exports`.
        const args = [tarball(pkg.name), '--profile', 'node16', '--no-definitely-typed', '--no-color'];
        try {
          const { stdout } = await sh(attw, [...args, '--format', 'table'], ROOT);
          entry.attw = { ok: true, output: stdout.trim() };
        } catch (error) {
          entry.attw = { ok: false, output: String(error instanceof Error ? error.message : error) };
          failed.push(`attw: ${pkg.name}`);
        }
        const file = readFileSync(tarball(pkg.name));
        const data = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
        const { messages, pkg: manifest } = await publint({
          pack: { tarball: /** @type {ArrayBuffer} */ (data) },
          level: 'suggestion',
          strict: true,
        });
        entry.publint = messages.map((m) => `${m.type}: ${formatMessage(m, manifest) ?? m.code}`);
        if (entry.publint.length > 0) failed.push(`publint: ${pkg.name}`);
        log(
          `  ${pkg.name}: attw ${entry.attw.ok ? 'clean' : 'FAILED'}, publint ${entry.publint.length} messages`,
        );
      },
      2,
    );
    if (failed.length > 0) throw new Error(failed.join('; '));
  });

  await step('consumers', async () => {
    const result = await runConsumers(new Map(CONSUMED.map((name) => [name, tarball(name)])), log);
    report.consumers = result;
    log(
      `  CommonJS app: ${result.cjs?.error ? 'FAILED' : 'ran'}; ES module app: ${result.esm?.error ? 'FAILED' : 'ran'}`,
    );
    if (!result.ok) throw new Error(result.problems.join('\n'));
  });

  if (report.failures.length > 0) {
    log('== publish: not reached, an earlier step failed');
    return finish();
  }
  await step(dryRun ? 'publish (dry run)' : 'publish', async () => {
    const onRegistry = await Promise.all(packages.map((pkg) => published(pkg.name, pkg.version)));
    /** @param {import('./build-package.mjs').WorkspacePackage} pkg @param {boolean | null} already */
    const publish = async (pkg, already) => {
      const args = ['publish', tarball(pkg.name), '--access', 'public', ...(tag ? ['--tag', tag] : [])];
      const { stdout, stderr } = await sh('npm', dryRun ? [...args, '--dry-run'] : args, ROOT);
      // npm lists every file of the tarball; the report keeps the rest (name, version, sizes).
      const said = `${stdout}${stderr}`.split('\n').filter((line) => !/^npm notice [\d.]+k?B /.test(line));
      return {
        dryRun,
        onRegistry: already,
        output: said.join('\n').trim(),
        line: stdout.trim().split('\n').at(-1),
      };
    };
    // A dry run publishes nothing, so the tarballs go to npm all at once; a real publish goes in
    // dependency order, so that no package is on the registry before a package it peers on.
    const dryRuns = dryRun ? packages.map((pkg, index) => publish(pkg, onRegistry[index] ?? null)) : [];
    // Awaited in order below; a later one failing first must not count as unhandled meanwhile.
    for (const started of dryRuns) started.catch(() => {});
    for (const [index, pkg] of packages.entries()) {
      const entry = report.packages[pkg.name];
      const already = onRegistry[index] ?? null;
      if (already && !dryRun) {
        entry.publish = { skipped: `${pkg.name}@${pkg.version} is on the registry already` };
        log(`  ${entry.publish.skipped}`);
        continue;
      }
      if (already === null && !dryRun)
        throw new Error(`could not ask the registry for ${pkg.name}@${pkg.version}`);
      const { line, ...result } = await (dryRun ? dryRuns[index] : publish(pkg, already));
      entry.publish = result;
      log(`  ${line}${dryRun ? ' (dry run)' : ''}${already ? ', on the registry already' : ''}`);
    }
  });
  return finish();

  function finish() {
    report.seconds.total = seconds(began);
    report.ok = report.failures.length === 0;
    save();
    for (const failure of report.failures) log(`FAILED ${failure}`);
    log(
      `${report.ok ? 'done' : 'failed'} in ${report.seconds.total} s; report: ${relative(process.cwd(), reportFile)}`,
    );
    return report;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const usage = 'usage: pnpm release --dry-run | --publish [--tag <dist-tag>] [--out <dir>]';
  const options = /** @type {const} */ ({
    'dry-run': { type: 'boolean', default: false },
    publish: { type: 'boolean', default: false },
    tag: { type: 'string' },
    out: { type: 'string', default: join(ROOT, '.release') },
  });
  /** @type {{ 'dry-run': boolean; publish: boolean; tag?: string; out: string } | undefined} */
  let values;
  try {
    values = parseArgs({ options }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n${usage}`);
    process.exitCode = 2;
  }
  if (values && values['dry-run'] === values.publish) {
    console.error(`Say --dry-run (all up to \`npm publish --dry-run\`) or --publish (for real).\n${usage}`);
    process.exitCode = 2;
  } else if (values) {
    const report = await release({ dryRun: values['dry-run'], tag: values.tag, out: resolve(values.out) });
    if (!report.ok) process.exitCode = 1;
  }
}
