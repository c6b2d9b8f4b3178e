import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

// One `pnpm release --dry-run` per test run (scripts/release.mjs): it builds and packs every
// package once, and the test files that install tarballs (tests/packaging, tests/nest) all take
// them from it instead of packing their own. Test files run in separate processes; the first to
// ask runs the release, the others wait for its report.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run's release (tests/support/release-run.global.ts). */
    releaseDir: string;
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ReleasedPackage {
  readonly version: string;
  readonly dir: string;
  readonly tarball: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly string[];
  readonly attw?: { readonly ok: boolean; readonly output: string };
  readonly publint?: readonly string[];
  readonly publish?: {
    readonly dryRun?: boolean;
    readonly onRegistry?: boolean | null;
    readonly output?: string;
    readonly skipped?: string;
  };
}

export interface ConsumerRun {
  readonly seconds: number;
  readonly report?: Record<string, unknown>;
  readonly error?: string;
}

export interface ReleaseReport {
  readonly mode: 'dry-run' | 'publish';
  readonly ok: boolean;
  readonly failures: readonly string[];
  readonly seconds: Readonly<Record<string, number>>;
  readonly packages: Readonly<Record<string, ReleasedPackage>>;
  readonly consumers?: {
    readonly ok: boolean;
    readonly problems: readonly string[];
    readonly cjs?: ConsumerRun;
    readonly esm?: ConsumerRun;
  };
  /** What the release printed (stdout and stderr). */
  readonly log: string;
  /** Whether this process ran it (and so should show its log), or took another file's run. */
  readonly ranHere: boolean;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** This run's dry-run release: run here by the first caller, read by the others. */
export async function dryRunRelease(): Promise<ReleaseReport> {
  const dir = inject('releaseDir');
  const out = join(dir, 'out');
  const logFile = join(dir, 'release.log');
  const finished = join(dir, 'finished');
  let ranHere = false;
  try {
    mkdirSync(join(dir, 'lock'));
    ranHere = true;
  } catch {
    // Another test file runs it.
  }
  if (ranHere) {
    // A process of its own, not this file's child: a test file that times out (or is torn down)
    // must not take the release with it, or every file waiting for the report waits in vain.
    const script = [
      "const { execFile } = require('node:child_process');",
      "const { writeFileSync } = require('node:fs');",
      'const [node, release, out, logFile, finished] = process.argv.slice(1);',
      "execFile(node, [release, '--dry-run', '--out', out], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {",
      "  writeFileSync(logFile, stdout + stderr || (error ? error.message : ''));",
      "  writeFileSync(finished, '');",
      '});',
    ].join('\n');
    const child = spawn(
      process.execPath,
      ['-e', script, process.execPath, join(ROOT, 'scripts', 'release.mjs'), out, logFile, finished],
      { cwd: ROOT, detached: true, stdio: 'ignore' },
    );
    child.unref();
  }
  const deadline = Date.now() + 15 * 60_000;
  while (!existsSync(finished)) {
    if (Date.now() > deadline) throw new Error(`no release report in ${dir} after 15 minutes`);
    await sleep(500);
  }
  if (ranHere)
    console.log(`pnpm release --dry-run, run for this test run:\n${readFileSync(logFile, 'utf8')}`);
  const log = readFileSync(logFile, 'utf8');
  const reportFile = join(out, 'release-report.json');
  if (!existsSync(reportFile)) throw new Error(`the release wrote no report:\n${log}`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Omit<ReleaseReport, 'log' | 'ranHere'>;
  return { ...report, log, ranHere };
}

/** The tarball of a package of a release whose packing succeeded. */
export function tarballOf(report: ReleaseReport, name: string): string {
  const tarball = report.packages[name]?.tarball;
  if (!tarball) throw new Error(`the release packed no ${name}:\n${report.log}`);
  return tarball;
}
