import { execFile } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// Packages packed with npm from a copy of the workspace, and apps that install them with plain
// npm outside it. The copy is built by each package's own prepack: the packaging suite empties
// and rebuilds the packages' dist in place while it runs, so packing in place would race it.

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The child's environment without what pnpm passes to scripts (npm would read it as its own config). */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)),
) as NodeJS.ProcessEnv;

/** Runs `file`; a failure throws with both outputs, so npm's ERESOLVE report shows in the test. */
export async function sh(
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

/** Where a package the tests (or the root) install really is (pnpm links into its store). */
export function installedDir(name: string): string {
  const tests = join(ROOT, 'tests', 'node_modules', name);
  return realpathSync(existsSync(tests) ? tests : join(ROOT, 'node_modules', name));
}

/**
 * A copy of the workspace's build setup under `scratch`: tsconfig.base.json, the sources of the
 * packages `dirs`, and a node_modules of links to the root's tools, to those copies and to the
 * tests' installs named in `links` (what the copies compile against).
 */
export function copyWorkspace(scratch: string, dirs: readonly string[], links: readonly string[]): string {
  const workspace = join(scratch, 'workspace');
  const modules = join(workspace, 'node_modules');
  mkdirSync(join(modules, '@pagewise'), { recursive: true });
  cpSync(join(ROOT, 'tsconfig.base.json'), join(workspace, 'tsconfig.base.json'));
  for (const dir of dirs) {
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
  for (const name of links) symlinkSync(installedDir(name), join(modules, name), 'dir');
  return workspace;
}

/** Packs the copy of `packages/<dir>` into `destination` (npm's prepack builds it); the tarball's path. */
export async function packCopy(workspace: string, dir: string, destination: string): Promise<string> {
  const { stdout } = await sh(
    'npm',
    ['pack', '--json', '--pack-destination', destination],
    join(workspace, 'packages', dir),
  );
  const [info] = JSON.parse(stdout) as [{ filename: string }];
  return join(destination, info.filename);
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
