import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// Apps outside the workspace that install packed packages with plain npm (the tarballs come from
// the test run's one dry-run release, tests/support/release-run.ts): running npm there, and what
// the tests have installed that such an app should get too.

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The child's environment without what pnpm passes to scripts (npm would read it as its own config). */
export const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)),
) as NodeJS.ProcessEnv;

/** Runs `file`; a failure throws with both outputs, so npm's ERESOLVE report shows in the test. */
export async function sh(
  file: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = childEnv,
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

/** Where a dependency's package.json is, whether or not its "exports" lists it. */
export function manifestOf(specifier: string, from: NodeJS.Require): string {
  try {
    return from.resolve(`${specifier}/package.json`);
  } catch {
    let dir = dirname(from.resolve(specifier));
    while (!existsSync(join(dir, 'package.json')) || !dir.endsWith(join('node_modules', specifier))) {
      if (dirname(dir) === dir) throw new Error(`no package.json of ${specifier}`);
      dir = dirname(dir);
    }
    return join(dir, 'package.json');
  }
}

/** Where a package the tests (or the root) install really is (pnpm links into its store). */
export function installedDir(name: string): string {
  const tests = join(ROOT, 'tests', 'node_modules', name);
  return realpathSync(existsSync(tests) ? tests : join(ROOT, 'node_modules', name));
}

/** The version of a package the tests install, so a scratch app runs what the tests run. */
export function testedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(installedDir(name), 'package.json'), 'utf8')) as { version: string })
    .version;
}

/**
 * Gives an app installed with `--ignore-scripts` the tests' build of better-sqlite3's addon:
 * its own install would compile it (a minute), since only the npm registry is reachable.
 */
export function copySqliteAddon(app: string): void {
  const addon = join('build', 'Release', 'better_sqlite3.node');
  const target = join(app, 'node_modules', 'better-sqlite3', addon);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(installedDir('better-sqlite3'), addon), target);
}
