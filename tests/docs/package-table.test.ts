// The root README's package table names every published package of the workspace, linked to its
// README (issue 36 §4: @pagewise/nest was left out).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test("the root README's package table lists every published package", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(
    readme.indexOf('| package |'),
    readme.indexOf('\n\n', readme.indexOf('| package |')),
  );
  const published = readdirSync(join(ROOT, 'packages'))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => manifest.private !== true);
  expect(published.length).toBeGreaterThanOrEqual(7);
  const missing = published
    .map(({ dir, manifest }) => `| [\`${manifest.name}\`](packages/${dir}/README.md) |`)
    .filter((row) => !table.includes(row));
  expect(missing).toEqual([]);
});
