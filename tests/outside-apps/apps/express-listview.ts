// Express 5 + SQLite: the same feed as DRF's ListView behind @pagewise/rest's per-route handler,
// which checks Host against allowedHosts and answers Pagewise's errors as DRF does.
import type { AddressInfo } from 'node:net';
import { fromKysely } from '@pagewise/kysely-adapter';
import { CursorPagination, ListView } from '@pagewise/rest';
import { toExpressHandler } from '@pagewise/rest/express';
import SQLite from 'better-sqlite3';
import express from 'express';
import { Kysely, SqliteDialect } from 'kysely';

interface Database {
  articles: { id: number; title: string; published_at: string };
}
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: new SQLite(process.env.DATABASE_URL ?? 'articles.db') }),
});
class ArticleFeed extends CursorPagination {
  override pageSize = 7;
  override ordering = '-published_at';
  override pageSizeQueryParam = 'page_size';
}
const articles = ListView.asView({
  queryset: () => fromKysely(db.selectFrom('articles').selectAll(), { db }),
  paginationClass: ArticleFeed,
});

const app = express();
app.get('/articles/', toExpressHandler(articles, { allowedHosts: ['127.0.0.1'] }));

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/articles/`);
});
