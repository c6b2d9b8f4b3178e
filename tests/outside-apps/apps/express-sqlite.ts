// Express 5 + SQLite: the README's cursor feed in a user's own Express router.
import type { AddressInfo } from 'node:net';
import { type CursorPageOptions, cursorPage, isApiError } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import SQLite from 'better-sqlite3';
import express, { type ErrorRequestHandler } from 'express';
import { Kysely, SqliteDialect } from 'kysely';

interface Database {
  articles: { id: number; title: string; published_at: string };
}
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: new SQLite(process.env.DATABASE_URL ?? 'articles.db') }),
});
const feed: CursorPageOptions = { pageSize: 7, ordering: '-published_at', pageSizeQueryParam: 'page_size' };

const app = express();
app.get('/articles/', async (req, res) => {
  // Behind a proxy, pin the origin instead of trusting Host (docs/security.md).
  const url = `${req.protocol}://${req.get('host')}${req.originalUrl}`;
  const page = await cursorPage(fromKysely(db.selectFrom('articles').selectAll(), { db }), url, feed);
  res.set(page.headers).json(page.body(page.rows));
});
// Glue: Express 5 answers a rejected handler's error with its status, but as HTML; this sends DRF's body.
const answerApiErrors: ErrorRequestHandler = (error, _req, res, next) => {
  if (isApiError(error)) res.status(error.status).json(error.toJSON());
  else next(error);
};
app.use(answerApiErrors);

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/articles/`);
});
