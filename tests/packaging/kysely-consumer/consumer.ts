// A user's app on one Kysely release: tests/packaging/kysely-versions.test.ts installs the packed
// @pagewise/core and @pagewise/kysely-adapter with that kysely by plain npm, outside the workspace,
// type-checks this file there (strict, NodeNext, the shipped declarations included) and runs it
// with Node. It walks a cursor feed over SQLite and prints what it saw as JSON.
import { cursorPage } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

interface ArticleTable {
  id: number;
  score: number;
}

const db = new Kysely<{ articles: ArticleTable }>({
  dialect: new SqliteDialect({ database: new Database(':memory:') }),
});
await db.schema
  .createTable('articles')
  .addColumn('id', 'integer', (c) => c.primaryKey())
  .addColumn('score', 'integer', (c) => c.notNull())
  .execute();
// Duplicate-heavy scores: a walk that repeats or skips rows sharing a score shows in the ids.
await db
  .insertInto('articles')
  .values(Array.from({ length: 25 }, (_, i) => ({ id: i + 1, score: [3, 1, 3, 2, 3][i % 5]! })))
  .execute();

const pageAt = (url: string) =>
  cursorPage(fromKysely(db.selectFrom('articles').select(['id', 'score']), { db }), url, {
    pageSize: 7,
    ordering: '-score',
  });

const ids: number[] = [];
let url: string | null = 'https://api.example.org/articles/';
let pages = 0;
while (url !== null) {
  const page = await pageAt(url);
  // The rows keep the builder's row type: `id` is a number here, or this file does not compile.
  ids.push(...page.rows.map((row): number => row.id));
  pages += 1;
  url = page.next;
}
await db.destroy();
console.log(JSON.stringify({ ids, pages }));
