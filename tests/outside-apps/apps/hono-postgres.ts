// Hono + Postgres: the same feed; Hono's default error handler answers Pagewise's errors itself.
import { serve } from '@hono/node-server';
import { type CursorPageOptions, cursorPage } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { Hono } from 'hono';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

interface Database {
  articles: { id: number; title: string; published_at: Date };
}
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) }),
});
const feed: CursorPageOptions = { pageSize: 7, ordering: '-published_at', pageSizeQueryParam: 'page_size' };

const app = new Hono();
app.get('/articles/', async (c) => {
  const page = await cursorPage(fromKysely(db.selectFrom('articles').selectAll(), { db }), c.req.url, feed);
  return c.json(page.body(page.rows), 200, page.headers);
});

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`http://127.0.0.1:${info.port}/articles/`);
});
