import { describe, expect, test } from 'vitest';
import { blocksOf, compileBlocks } from './markdown-blocks.js';

// The harness itself, on pages written here: a block compiles with the names its page defines
// before it, and fails on any other name, wherever else that name is defined.

const page = (file: string, ...blocks: string[]) =>
  blocksOf(file, blocks.map((code, i) => `## Part ${i}\n\n\`\`\`ts\n${code}\n\`\`\`\n`).join('\n'));

describe('a page compiles with the names it defines, and with no other', () => {
  const defining = page(
    'docs/a.md',
    [
      "import { Kysely, SqliteDialect } from 'kysely';",
      "import SQLite from 'better-sqlite3';",
      'interface Database { articles: { id: number; title: string } }',
      "export const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });",
      'const feed = { pageSize: 20 };',
    ].join('\n'),
    [
      "import { cursorPage } from '@pagewise/core';",
      "import { fromKysely } from '@pagewise/kysely-adapter';",
      "const page = await cursorPage(fromKysely(db.selectFrom('articles').selectAll(), { db }), 'https://x.org/', feed);",
      'const titles: string[] = page.rows.map((row) => row.title);',
    ].join('\n'),
    // Declaring again a name an earlier block declared is this block's own (blocks are modules).
    ['const feed = { pageSize: 5, ordering: "-id" };', 'const rows: Database[] = [];'].join('\n'),
  );
  const otherPage = page(
    'docs/b.md',
    // `db` and `feed` are defined on docs/a.md only.
    "const query = db.selectFrom('articles');",
    // A Pagewise name is not imported for the block.
    "const page = await cursorPage(query as never, 'https://x.org/', { pageSize: 1 });",
    // A name only a browser global declares (`window.name`) is not the reader's either.
    'console.log(name.toUpperCase(), status);',
  );
  const later = page(
    'docs/c.md',
    // Used before the block that defines it.
    'const size: number = pageSize;',
    'export const pageSize = 20;',
  );
  const errors = compileBlocks([...defining, ...otherPage, ...later]);
  const of = (blocks: typeof defining, i: number) => errors.get(blocks[i]!)!.join('\n');

  test('names from earlier blocks of the page, imports and types included, compile', () => {
    expect(of(defining, 0)).toBe('');
    expect(of(defining, 1)).toBe('');
    expect(of(defining, 2)).toBe('');
  });

  test('a name defined on another page fails, at its line of the Markdown file', () => {
    expect(of(otherPage, 0)).toMatch(/^docs\/b\.md:4:15 TS2304: Cannot find name 'db'\./);
  });

  test('a Pagewise name needs an import in the page', () => {
    expect(of(otherPage, 1)).toContain("TS2304: Cannot find name 'cursorPage'.");
  });

  test("a name only lib.dom's browser globals declare fails", () => {
    expect(of(otherPage, 2)).toContain(
      "Cannot find name 'name' (only a browser global in lib.dom declares it)",
    );
    expect(of(otherPage, 2)).toContain(
      "Cannot find name 'status' (only a browser global in lib.dom declares it)",
    );
  });

  test('a name defined only further down the page fails', () => {
    expect(of(later, 0)).toContain("TS2304: Cannot find name 'pageSize'.");
    expect(of(later, 1)).toBe('');
  });
});
