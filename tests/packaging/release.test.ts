import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { dryRunRelease, type ReleaseReport, tarballOf } from '../support/release-run.js';

// `pnpm release --dry-run` (scripts/release.mjs), as CI runs it: every package built in dependency
// order, packed by npm, judged by attw's node16 profile and publint, installed by npm into the
// CommonJS and ES module apps outside the workspace (./module-systems.test.ts reads what they
// answered), and handed to `npm publish --dry-run`.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = readdirSync(join(ROOT, 'packages')).map(
  (dir) =>
    (JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as { name: string }).name,
);

let release: ReleaseReport;

beforeAll(async () => {
  release = await dryRunRelease();
}, 900_000);

describe('pnpm release --dry-run', () => {
  test('builds, packs and checks every package, and reaches npm publish --dry-run with each tarball', () => {
    expect(release.failures).toEqual([]);
    expect(release.mode).toBe('dry-run');
    expect(Object.keys(release.packages).sort()).toEqual([...PACKAGES].sort());
    for (const [name, { version, publish }] of Object.entries(release.packages)) {
      expect(publish?.dryRun, name).toBe(true);
      expect(publish?.output, name).toContain(`${name}@${version}`);
    }
    // Dependencies first: the engine before what peers on it, rest before nest.
    const order = release.log
      .split('\n')
      .map((line) => /^\s+\+ (@pagewise\/[\w-]+)@.* \(dry run\)/.exec(line)?.[1])
      .filter((name) => name !== undefined);
    expect(order).toHaveLength(PACKAGES.length);
    for (const dependent of [
      '@pagewise/rest',
      '@pagewise/sql',
      '@pagewise/kysely-adapter',
      '@pagewise/drizzle-adapter',
      '@pagewise/memory-adapter',
    ]) {
      expect(order.indexOf('@pagewise/core')).toBeLessThan(order.indexOf(dependent));
    }
    expect(order.indexOf('@pagewise/sql')).toBeLessThan(order.indexOf('@pagewise/kysely-adapter'));
    expect(order.indexOf('@pagewise/sql')).toBeLessThan(order.indexOf('@pagewise/drizzle-adapter'));
    expect(order.indexOf('@pagewise/rest')).toBeLessThan(order.indexOf('@pagewise/nest'));
    console.log(`release steps (s): ${JSON.stringify(release.seconds)}`);
  });

  test.each(PACKAGES)('attw (node16 profile: CommonJS, ES modules, bundlers) passes on %s', (name) => {
    const attw = release.packages[name]?.attw;
    console.log(`attw ${name}\n${attw?.output}`);
    expect(attw?.ok).toBe(true);
  });

  test.each(PACKAGES)('publint finds nothing to say about %s', (name) => {
    expect(release.packages[name]?.publint).toEqual([]);
  });

  test.each(PACKAGES)('the %s tarball: ES modules and CommonJS, each with declarations and maps', (name) => {
    const { files, size, unpackedSize } = release.packages[name]!;
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'LICENSE',
        'README.md',
        'CHANGELOG.md',
        'dist/index.js',
        'dist/index.js.map',
        'dist/index.d.ts',
        'dist/index.d.ts.map',
        'dist/cjs/package.json',
        'dist/cjs/index.js',
        'dist/cjs/index.js.map',
        'dist/cjs/index.d.ts',
        'dist/cjs/index.d.ts.map',
        'src/index.ts',
      ]),
    );
    expect(files.filter((path) => /\.test\.[jt]s$/.test(path))).toEqual([]);
    // Every ES module has its CommonJS twin.
    const esm = files.filter((path) => path.startsWith('dist/') && !path.startsWith('dist/cjs/'));
    expect(files.filter((path) => path.startsWith('dist/cjs/') && path !== 'dist/cjs/package.json')).toEqual(
      esm.map((path) => path.replace('dist/', 'dist/cjs/')),
    );
    console.log(
      `${name}: ${(size / 1024).toFixed(1)} kB packed, ${(unpackedSize / 1024).toFixed(1)} kB unpacked, ${files.length} files`,
    );
  });

  test('the packed manifests: no workspace: protocol, import and require conditions with their own types, the web layer and adapters peer on core', async () => {
    for (const name of PACKAGES) {
      const { stdout } = await run('tar', ['-xzOf', tarballOf(release, name), 'package/package.json']);
      expect(stdout).not.toContain('workspace:');
      const manifest = JSON.parse(stdout) as {
        exports: Record<string, Record<string, unknown> | string>;
        peerDependencies?: Record<string, string>;
        dependencies?: Record<string, string>;
      };
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        if (subpath === './package.json') continue;
        const conditions = target as Record<string, { types: string; default: string }>;
        // The workspace's condition first, then each module system with its own declarations.
        expect(Object.keys(conditions), `${name} ${subpath}`).toEqual([
          '@pagewise/source',
          'import',
          'require',
        ]);
        expect(Object.keys(conditions.import!)).toEqual(['types', 'default']);
        expect(Object.keys(conditions.require!)).toEqual(['types', 'default']);
        expect(conditions.require!.default).toMatch(/^\.\/dist\/cjs\//);
      }
      // The client talks HTTP only: it depends on nothing. The engine's one dependency is the
      // audited, dependency-free HMAC of its signed cursors (issue 38: no hand-written hash code).
      if (name === '@pagewise/client') expect(manifest.dependencies ?? {}).toEqual({});
      else if (name === '@pagewise/core')
        expect(Object.keys(manifest.dependencies ?? {})).toEqual(['@noble/hashes']);
      else if (name !== '@pagewise/nest')
        expect(manifest.peerDependencies?.['@pagewise/core']).toBe('^0.1.0');
    }
  });
});
