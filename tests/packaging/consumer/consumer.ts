// A user's app of the packed packages: tests/packaging/packed-packages.test.ts installs the npm
// tarballs into a scratch directory outside the workspace, type-checks this file there (strict,
// NodeNext and Bundler resolution) and runs it with plain Node. It prints one JSON report.
import { createRequire } from 'node:module';
import { type CursorPageOptions, cursorPage } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  apiView,
  CursorPagination,
  createFetchHandler,
  isApiError,
  ListView,
  NotFound,
  type OrderedQuery,
  Routes,
} from '@pagewise/rest';
import { createHonoHandler } from '@pagewise/rest/hono';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';

interface ArticleTable {
  id: number;
  title: string;
  score: number;
}

interface Article {
  readonly id: number;
  readonly title: string;
  readonly score: number;
}

interface CursorBody {
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: Article[];
}

const ROWS = 25;
const PAGE_SIZE = 7;
// Duplicate-heavy scores: a walk that repeats or skips rows sharing a score shows up as a bad id list.
const articles: Article[] = Array.from({ length: ROWS }, (_, i) => ({
  id: i + 1,
  title: `Article ${i + 1}`,
  score: [3, 1, 3, 2, 3][i % 5]!,
}));

const db = new Kysely<{ articles: ArticleTable }>({
  dialect: new SqliteDialect({ database: new Database(':memory:') }),
});
await db.schema
  .createTable('articles')
  .addColumn('id', 'integer', (c) => c.primaryKey())
  .addColumn('title', 'text', (c) => c.notNull())
  .addColumn('score', 'integer', (c) => c.notNull())
  .execute();
await db.insertInto('articles').values(articles).execute();

const queries: Record<string, () => OrderedQuery<Article>> = {
  sqlite: () => fromKysely(db.selectFrom('articles').select(['id', 'title', 'score']), { db }),
  memory: () => fromArray(articles, { uniqueKey: 'id' }),
};

const routes = new Routes();
for (const [name, query] of Object.entries(queries)) {
  routes.add(
    `/${name}/`,
    name,
    apiView(async (request: ApiRequest) => {
      const paginator = new CursorPagination({ pageSize: PAGE_SIZE, ordering: '-score' });
      const rows = await paginator.paginateQueryset(query(), request);
      return paginator.getPaginatedResponse(rows ?? []);
    }),
  );
}
const handle = createFetchHandler({ routes, onError: (error) => console.error(error) });

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const response = await handle(new Request(url));
  return { status: response.status, body: await response.json() };
}

/** Follows `next` links from the first page; the ids in the order they were served. */
async function walk(name: string): Promise<{ ids: number[]; scores: number[]; pages: number; next: string }> {
  const ids: number[] = [];
  const scores: number[] = [];
  let url: string | null = `http://localhost/${name}/`;
  let pages = 0;
  let secondPage = '';
  while (url !== null && pages < ROWS) {
    const { status, body } = await get(url);
    if (status !== 200) throw new Error(`${url} answered ${status}: ${JSON.stringify(body)}`);
    const page = body as CursorBody;
    ids.push(...page.results.map((row) => row.id));
    scores.push(...page.results.map((row) => row.score));
    if (pages === 0) secondPage = page.next ?? '';
    url = page.next;
    pages += 1;
  }
  return { ids, scores, pages, next: secondPage };
}

/** The same cursor with a string where the adapter holds integers: it decodes, then fails the bound check. */
function tamper(link: string): string {
  const url = new URL(link);
  const cursor = JSON.parse(Buffer.from(url.searchParams.get('cursor')!, 'base64url').toString()) as {
    p: unknown[];
  };
  cursor.p = cursor.p.map(() => 'snot a number');
  url.searchParams.set('cursor', Buffer.from(JSON.stringify(cursor)).toString('base64url'));
  return url.href;
}

const report: Record<string, unknown> = {};
let sqliteSecondPage = '';
for (const name of Object.keys(queries)) {
  const { ids, scores, pages, next } = await walk(name);
  if (name === 'sqlite') sqliteSecondPage = next;
  report[name] = { ids, scores, pages, tampered: await get(tamper(next)) };
}

// The same tampered bound met by the paginator directly: it rejects with this copy's NotFound.
const paginator = new CursorPagination({ pageSize: PAGE_SIZE, ordering: '-score' });
report.direct = await paginator
  .paginateQueryset(queries.sqlite!(), new ApiRequest({ url: tamper(sqliteSecondPage) }))
  .then(
    () => 'resolved',
    (error: unknown) =>
      error instanceof NotFound && isApiError(error) ? `${error.status} ${error.detail}` : String(error),
  );

// On Postgres (PG_URL): the engine-only route in a user's own Hono router, and a DRF ListView route
// behind the Hono binding, each walked from its first page to its last.
const feed: CursorPageOptions = { pageSize: PAGE_SIZE, ordering: '-score' };
async function honoWalk(
  app: Hono,
  path: string,
): Promise<{ ids: number[]; scores: number[]; pages: number }> {
  const ids: number[] = [];
  const scores: number[] = [];
  let url: string | null = `http://localhost${path}`;
  let pages = 0;
  while (url !== null && pages < ROWS) {
    const response = await app.request(url);
    const page = (await response.json()) as CursorBody;
    if (response.status !== 200)
      throw new Error(`${url} answered ${response.status}: ${JSON.stringify(page)}`);
    ids.push(...page.results.map((row) => row.id));
    scores.push(...page.results.map((row) => row.score));
    url = page.next;
    pages += 1;
  }
  return { ids, scores, pages };
}
if (process.env.PG_URL) {
  const table = `pagewise_consumer_${process.pid}`;
  const pool = new pg.Pool({ connectionString: process.env.PG_URL, max: 2 });
  const postgres = new Kysely<Record<string, ArticleTable>>({ dialect: new PostgresDialect({ pool }) });
  await sql`create table ${sql.table(table)} (id integer primary key, title text not null, score integer not null)`.execute(
    postgres,
  );
  try {
    await postgres.insertInto(table).values(articles).execute();
    const articlesQuery = () =>
      fromKysely(postgres.selectFrom(table).select(['id', 'title', 'score']), { db: postgres });
    const app = new Hono();
    // The engine alone: one page function, the page's body and headers.
    app.get('/engine/articles', async (c) => {
      const page = await cursorPage(articlesQuery(), c.req.url, feed);
      return c.json(page.body(page.rows), 200, page.headers);
    });
    // DRF's layer: a ListView with CursorPagination, served by the Hono binding.
    class ArticleFeed extends CursorPagination {
      override pageSize = PAGE_SIZE;
      override ordering = '-score';
    }
    const drf = new Routes().add(
      '/drf/articles',
      'articles',
      ListView.asView({ queryset: articlesQuery, paginationClass: ArticleFeed }),
    );
    app.use('/drf/*', createHonoHandler({ routes: drf, allowedHosts: ['localhost'] }));
    report.postgres = {
      engine: await honoWalk(app, '/engine/articles'),
      drf: await honoWalk(app, '/drf/articles'),
    };
  } finally {
    await sql`drop table if exists ${sql.table(table)}`.execute(postgres);
    await postgres.destroy();
  }
}

// Which copy of core each package loads: two copies when an adapter has its own nested one.
const resolveFrom = (specifier: string) => createRequire(createRequire(import.meta.url).resolve(specifier));
report.coreCopies = {
  app: createRequire(import.meta.url).resolve('@pagewise/core'),
  kysely: resolveFrom('@pagewise/kysely-adapter').resolve('@pagewise/core'),
  memory: resolveFrom('@pagewise/memory-adapter').resolve('@pagewise/core'),
  rest: resolveFrom('@pagewise/rest').resolve('@pagewise/core'),
};

await db.destroy();
console.log(JSON.stringify(report));
