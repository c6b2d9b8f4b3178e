import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * A folder for this test run's `pnpm release --dry-run`: the first test file that needs the packed
 * tarballs runs the release into it (tests/support/release-run.ts), the others reuse its tarballs.
 * Creating it costs nothing; nothing is built or packed unless a test asks. A rerun in watch mode
 * gets a new folder, so it packs the sources as they are then.
 */
export default function setup(project: TestProject): () => void {
  const fresh = () => mkdtempSync(join(tmpdir(), 'pagewise-release-run-'));
  let dir = fresh();
  project.provide('releaseDir', dir);
  project.onTestsRerun(() => {
    rmSync(dir, { recursive: true, force: true });
    dir = fresh();
    project.provide('releaseDir', dir);
  });
  return () => rmSync(dir, { recursive: true, force: true });
}
