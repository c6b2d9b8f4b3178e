import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ROOT, sh } from '../support/scratch-packages.js';

// `pnpm version-packages` (changeset version) run on a copy of the workspace's manifests,
// changelogs and .changeset/config.json, with a changeset of the test's own: the config is valid,
// the six published packages move as one version (fixed), each one's ranges on the others follow,
// and the private workspace packages stay as they are.

const CHANGESET = join(ROOT, 'node_modules', '@changesets', 'cli', 'bin.js');

interface Manifest {
  readonly name: string;
  readonly version?: string;
  readonly private?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

/** The workspace's package folders, as pnpm-workspace.yaml lists them (a `dir/*` or a `dir`). */
function workspaceDirs(): string[] {
  const yaml = readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  // The `packages:` list: its indented items, up to the next top-level key.
  const list = /^packages:\n((?:[ \t]+.*\n)+)/m.exec(yaml)?.[1] ?? '';
  const globs = [...list.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]!);
  return globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(join(ROOT, glob.slice(0, -2)), { withFileTypes: true })
          .filter(
            (entry) =>
              entry.isDirectory() && existsSync(join(ROOT, glob.slice(0, -2), entry.name, 'package.json')),
          )
          .map((entry) => `${glob.slice(0, -2)}/${entry.name}`)
      : [glob],
  );
}

const read = (dir: string, file = 'package.json') => readFileSync(join(dir, file), 'utf8');
const manifestIn = (dir: string) => JSON.parse(read(dir)) as Manifest;

let copy = '';
afterEach(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** A copy of what `changeset version` reads and writes, with `changesets` as its pending files. */
function workspaceCopy(changesets: Readonly<Record<string, string>>): string {
  copy = mkdtempSync(join(tmpdir(), 'pagewise-changesets-'));
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json']) {
    cpSync(join(ROOT, file), join(copy, file));
  }
  for (const dir of workspaceDirs()) {
    for (const file of ['package.json', 'CHANGELOG.md']) {
      if (existsSync(join(ROOT, dir, file))) cpSync(join(ROOT, dir, file), join(copy, dir, file));
    }
  }
  // The changelog writer (@changesets/cli/changelog) is resolved from the copy.
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(changesets)) writeFileSync(join(copy, '.changeset', name), text);
  return copy;
}

const published = workspaceDirs()
  .filter((dir) => dir.startsWith('packages/'))
  .map((dir) => ({ dir, manifest: manifestIn(join(ROOT, dir)) }));

describe('changesets', () => {
  test('the fixed group is every package under packages/; the private workspace packages are ignored', () => {
    const config = JSON.parse(read(ROOT, '.changeset/config.json')) as {
      fixed: string[][];
      ignore: string[];
      access: string;
      baseBranch: string;
    };
    expect(published.every(({ manifest }) => !manifest.private)).toBe(true);
    expect(config.fixed.map((group) => [...group].sort())).toEqual([
      published.map(({ manifest }) => manifest.name).sort(),
    ]);
    const privates = workspaceDirs()
      .map((dir) => manifestIn(join(ROOT, dir)))
      .filter((manifest) => manifest.private);
    expect([...config.ignore].sort()).toEqual(privates.map((manifest) => manifest.name).sort());
    expect(config).toMatchObject({ access: 'public', baseBranch: 'main' });
  });

  test('a minor change to core versions every package together and moves their ranges on each other', async () => {
    const dir = workspaceCopy({
      'core-learns.md': '---\n"@pagewise/core": minor\n---\n\nCore learns a new trick.\n',
    });
    const privateBefore = workspaceDirs()
      .filter((d) => !d.startsWith('packages/'))
      .map((d) => read(join(dir, d)));
    const before = manifestIn(join(dir, 'packages/core')).version!;
    await sh(process.execPath, [CHANGESET, 'version'], dir);

    const next = '0.2.0';
    expect(before).toBe('0.1.0');
    for (const { dir: packageDir } of published) {
      expect(manifestIn(join(dir, packageDir)).version, packageDir).toBe(next);
    }
    const adapter = manifestIn(join(dir, 'packages/kysely-adapter'));
    expect(adapter.peerDependencies).toEqual({
      '@pagewise/core': `^${next}`,
      kysely: published.find((p) => p.dir === 'packages/kysely-adapter')!.manifest.peerDependencies!.kysely,
    });
    expect(adapter.devDependencies?.['@pagewise/core']).toBe(`^${next}`);
    expect(adapter.dependencies?.['@pagewise/sql']).toBe(`^${next}`);
    expect(manifestIn(join(dir, 'packages/sql')).peerDependencies).toEqual({ '@pagewise/core': `^${next}` });
    expect(manifestIn(join(dir, 'packages/nest')).peerDependencies?.['@pagewise/rest']).toBe(`^${next}`);
    // The private packages' manifests (workspace: ranges, no versions) are left alone.
    expect(
      workspaceDirs()
        .filter((d) => !d.startsWith('packages/'))
        .map((d) => read(join(dir, d))),
    ).toEqual(privateBefore);

    const core = read(join(dir, 'packages/core'), 'CHANGELOG.md');
    expect(core).toMatch(
      /^# @pagewise\/core\n\n## 0\.2\.0\n\n### Minor Changes\n\n- Core learns a new trick\.\n/,
    );
    expect(core).toContain('## 0.1.0');
    const adapterLog = read(join(dir, 'packages/kysely-adapter'), 'CHANGELOG.md');
    expect(adapterLog).toMatch(/^# @pagewise\/kysely-adapter\n\n## 0\.2\.0\n/);
    expect(adapterLog).toContain('@pagewise/core@0.2.0');
    expect(existsSync(join(dir, '.changeset', 'core-learns.md'))).toBe(false);
  }, 60_000);
});
