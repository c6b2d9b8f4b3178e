// One program, compiled twice outside the workspace with module nodenext and strict: as CommonJS
// (a package without "type": "module", as `nest new` makes one) and as ES modules. The packed
// tarballs of core, rest, kysely-adapter, memory-adapter and client are installed next to it with
// npm, with kysely and better-sqlite3. Each build pages the same SQLite table and prints one JSON
// report; the two reports must agree but for `moduleSystem` and `loaded`.
import { iterateResults } from '@pagewise/client';
import { ConfigurationError, cursorPage, NotFound, paginateCursor } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import {
  type ApiRequest,
  apiView,
  CursorPagination,
  createFetchHandler,
  NotFound as RestNotFound,
  Routes,
} from '@pagewise/rest';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

interface Tables {
  articles: { id: number; title: string; score: number };
}

// Scores shared by several rows: a page boundary inside a tie shows up as a repeated or lost id.
const ARTICLES = Array.from({ length: 8 }, (_, i) => ({
  id: i + 1,
  title: `Article ${i + 1}`,
  score: [3, 1, 3, 2][i % 4]!,
}));

async function main() {
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  try {
    await db.schema
      .createTable('articles')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('score', 'integer', (c) => c.notNull())
      .execute();
    await db.insertInto('articles').values(ARTICLES).execute();

    // What a CommonJS app could not compile while the packages shipped ES module types only:
    // TS2589 (instantiation excessively deep) and TS2322 ('#private' refers to a different member).
    const articles = fromKysely(db.selectFrom('articles').selectAll(), { db });
    const first = await paginateCursor(articles, { pageSize: 3, ordering: '-score' });
    const second = await paginateCursor(articles, {
      pageSize: 3,
      ordering: '-score',
      cursor: first.nextCursor,
    });
    // The row type flows through: a title is a string here, not `any`.
    const titles: string[] = second.results.map((row) => row.title);

    const page = await cursorPage(articles, 'http://localhost/articles/', {
      pageSize: 3,
      ordering: '-score',
    });
    const memory = await paginateCursor(fromArray(ARTICLES, { uniqueKey: 'id' }), {
      pageSize: 3,
      ordering: '-score',
    });

    // DRF's layer served through its Fetch binding, walked to the end by the client.
    const routes = new Routes().add(
      '/articles/',
      'articles',
      apiView(async (request: ApiRequest) => {
        const paginator = new CursorPagination({ pageSize: 3, ordering: '-score' });
        const rows = await paginator.paginateQueryset(articles, request);
        return paginator.getPaginatedResponse(rows ?? []);
      }),
    );
    const handle = createFetchHandler({ routes });
    const walked: number[] = [];
    const served = iterateResults<{ id: number }>('http://localhost/articles/', {
      fetch: (input, init) => handle(new Request(input, init)),
    });
    for await (const row of served) walked.push(row.id);

    // One copy of core: the adapter's error is an instance of the class this program imports.
    const unknownKey = fromKysely(db.selectFrom('articles').selectAll(), { db, uniqueKey: 'nope' });
    const refused = await paginateCursor(unknownKey, { pageSize: 3, ordering: '-score' }).then(
      () => 'resolved',
      (error: unknown) =>
        error instanceof ConfigurationError ? 'ConfigurationError' : `not core's: ${String(error)}`,
    );

    return {
      moduleSystem: typeof module === 'object' && typeof require === 'function' ? 'commonjs' : 'esm',
      first: first.results.map((row) => row.id),
      second: second.results.map((row) => row.id),
      titles,
      previous: second.previousCursor !== null,
      page: {
        ids: page.rows.map((row) => row.id),
        next: page.next !== null,
        link: page.headers.link ?? null,
      },
      memory: memory.results.map((row) => row.id),
      walked,
      refused,
      // rest re-exports core's own classes, not copies of them.
      restReexportsCore: RestNotFound === NotFound,
      // Under CommonJS, every Pagewise file this process loaded (require.cache lists them).
      loaded:
        typeof require === 'function'
          ? Object.keys(require.cache)
              .filter((file) => file.includes('@pagewise'))
              .map((file) => file.slice(file.lastIndexOf('@pagewise')).replaceAll('\\', '/'))
              .sort()
          : [],
    };
  } finally {
    await db.destroy();
  }
}

main().then(
  (report) => console.log(JSON.stringify(report)),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
