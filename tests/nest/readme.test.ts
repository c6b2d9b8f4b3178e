// packages/nest/README.md's ```ts blocks are code a reader pastes into a Nest app: compiled as the
// other pages are (tests/docs/markdown-blocks.ts: a block uses only names its page defines), with
// Nest's decorators (experimentalDecorators, no emitDecoratorMetadata). tests/docs compiles every
// other page without decorators; this one is left to this file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { blocksOf, compileBlocks, compilerOptions } from '../docs/markdown-blocks.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILE = 'packages/nest/README.md';

test('every ts block of packages/nest/README.md compiles, from its own page alone', () => {
  const blocks = blocksOf(FILE, readFileSync(join(ROOT, FILE), 'utf8'));
  expect(blocks.length).toBeGreaterThanOrEqual(5);
  const errors = compileBlocks(blocks, {
    ...compilerOptions,
    experimentalDecorators: true,
    exactOptionalPropertyTypes: true,
  });
  expect(blocks.flatMap((block) => errors.get(block)!)).toEqual([]);
}, 120_000);
