import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { type Block, compileBlocks, repositoryBlocks } from './markdown-blocks.js';

// Every ```ts block of every Markdown file in the repository (README.md, docs/, the packages'
// READMEs, ...) is code a reader will paste, like Kysely's test:jsdocs. How a page is compiled, and
// why a block may use only names its own page defines before it, is in markdown-blocks.ts;
// markdown-blocks.test.ts shows that a name from nowhere fails.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Blocks that do not compile yet, by "file#section", with the reason. Each runs as `test.fails`,
 * so the day it compiles the test says to take it off this list.
 */
const KNOWN_FAILING: Readonly<Record<string, string>> = {};

/** The pages the repository's guide is made of; each must hold TypeScript examples. */
const PAGES = [
  'README.md',
  'docs/engine.md',
  'docs/drf.md',
  'docs/versioning.md',
  'docs/adapters.md',
  'docs/drizzle.md',
  'docs/graphql-and-jobs.md',
  'docs/scaling.md',
  'docs/security.md',
  'packages/core/README.md',
  'packages/rest/README.md',
  'packages/kysely-adapter/README.md',
  'packages/drizzle-adapter/README.md',
  'packages/sql/README.md',
  'packages/memory-adapter/README.md',
  'packages/client/README.md',
];

/**
 * Markdown compiled elsewhere, under other options: Nest code uses TypeScript's legacy decorators
 * (tests/nest/readme.test.ts).
 */
const COMPILED_ELSEWHERE = new Set(['packages/nest/README.md']);

const blocks = repositoryBlocks(ROOT).filter((block) => !COMPILED_ELSEWHERE.has(block.file));

describe('Markdown examples compile under strict, each from its own page alone', () => {
  test('the guide and the package READMEs hold TypeScript examples', () => {
    const files = new Set(blocks.map((b) => b.file));
    for (const page of PAGES) {
      expect(existsSync(join(ROOT, page)), page).toBe(true);
      expect(files, page).toContain(page);
    }
  });

  let errors: Map<Block, string[]> | undefined;
  const errorsOf = (block: Block) => {
    errors ??= compileBlocks(blocks);
    return errors.get(block)!;
  };

  for (const block of blocks) {
    const key = `${block.file}#${block.section}`;
    const name = `${block.file}:${block.line} (${block.section})`;
    if (KNOWN_FAILING[key]) {
      test.fails(`${name}, known to fail: ${KNOWN_FAILING[key]}`, () => {
        const found = errorsOf(block);
        console.log(`${name} still fails, as known:\n${found.join('\n')}`);
        expect(found).toEqual([]);
      }, 120_000);
    } else {
      test(name, () => {
        expect(errorsOf(block)).toEqual([]);
      }, 120_000);
    }
  }
});
