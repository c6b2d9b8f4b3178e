// Issue 31's guardrails, seen from an app: a paginator without a page size lists every row and
// Node prints one PaginationWarning per paginator class; '-published_at' and
// ['-published_at', '-id'] share cursors; a page's readonly rows go back into its response. It
// prints a JSON report; Node prints the warnings on stderr.
import { cursorPage, paginateCursor } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import {
  ApiRequest,
  CursorPagination,
  createFetchHandler,
  ListView,
  PageNumberPagination,
  Routes,
} from '@pagewise/rest';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

interface Database {
  articles: { id: number; title: string; published_at: string };
}
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: new SQLite(process.env.DATABASE_URL ?? 'articles.db') }),
});
const articles = () => fromKysely(db.selectFrom('articles').selectAll(), { db });
const ids = (rows: readonly Database['articles'][]) => rows.map((row) => row.id);

// No page size anywhere: three requests to a ListView, two to a paginator of another class.
class Feed extends CursorPagination {}
class Numbers extends PageNumberPagination {}
const routes = new Routes().add(
  '/articles/',
  'articles',
  ListView.asView({ queryset: articles, paginationClass: Feed }),
);
const handle = createFetchHandler({ routes });
const listed: number[] = [];
for (let i = 0; i < 3; i += 1) {
  const response = await handle(new Request('http://localhost/articles/'));
  listed.push(((await response.json()) as unknown[]).length);
}
const numbered: unknown[] = [];
for (let i = 0; i < 2; i += 1) {
  numbered.push(
    await new Numbers().paginate(articles(), new ApiRequest({ url: 'http://localhost/articles/' })),
  );
}

// One ordering written two ways: the short one's cursor opens the long one's next page.
const short = await cursorPage(articles(), 'http://localhost/articles/', {
  pageSize: 7,
  ordering: '-published_at',
});
const token = new URL(short.next!).searchParams.get('cursor');
const long = await paginateCursor(articles(), {
  pageSize: 7,
  ordering: ['-published_at', '-id'],
  cursor: token,
});
const second = await cursorPage(articles(), short.next!, { pageSize: 7, ordering: '-published_at' });

// Readonly rows straight back into the response: DRF's paginator and the engine's page body.
const typed = new CursorPagination<Database['articles']>({ pageSize: 7, ordering: ['-published_at', '-id'] });
const page = await typed.paginate(articles(), new ApiRequest({ url: 'http://localhost/articles/' }));
const response = page!.response(page!.rows);
const body = second.body(second.rows);

console.log(
  JSON.stringify({
    listed,
    numbered,
    interchange: { short: ids(second.rows), long: ids(long.results) },
    response: {
      status: response.status,
      results: ids(response.data.results),
      link: response.headers.get('link'),
    },
    body: { results: ids(body.results), next: body.next !== null },
  }),
);
await db.destroy();
