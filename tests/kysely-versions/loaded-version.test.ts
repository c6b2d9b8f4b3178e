import { fileURLToPath, pathToFileURL } from 'node:url';
import * as kysely from 'kysely';
import { describe, expect, test } from 'vitest';
import { SlotFiller } from '../../packages/kysely-adapter/src/query-nodes.js';
import { KYSELY_HIGHEST, kyselyTargets } from '../../scripts/kysely-release.js';
import { KYSELY, KYSELY_PACKAGE } from '../support/kysely-version.js';

// Runs in the default project (the workspace's kysely, the lowest end) and in the kysely-<version>
// project (vitest.config.ts), which aliases `kysely` to the `kysely-highest` npm alias and says so
// in PAGEWISE_KYSELY. An alias that silently fell back to the workspace's copy fails here.

const targets = kyselyTargets(fileURLToPath(new URL('../../', import.meta.url)));
const intended = KYSELY_PACKAGE === KYSELY_HIGHEST ? targets.highest : targets.lowest;

describe(`the Kysely this project runs (${KYSELY_PACKAGE})`, () => {
  test(`is ${intended}, the version tests/package.json installs as ${KYSELY_PACKAGE}`, () => {
    expect(KYSELY.version).toBe(intended);
  });

  test('is the module the tests and the adapter import as `kysely`', async () => {
    const loaded = (await import(pathToFileURL(KYSELY.entry).href)) as typeof kysely;
    expect(kysely.Kysely).toBe(loaded.Kysely);
    // The adapter's sources import `kysely` from packages/kysely-adapter: the same module.
    expect(Object.getPrototypeOf(SlotFiller)).toBe(loaded.OperationNodeTransformer);
  });
});
