// Hono + Drizzle + Postgres: the Hono feed over a Drizzle schema, with Drizzle's default `Date` timestamps.
import { serve } from '@hono/node-server';
import { type CursorPageOptions, cursorPage } from '@pagewise/core';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { drizzle } from 'drizzle-orm/node-postgres';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { Hono } from 'hono';
import pg from 'pg';

const articles = pgTable('articles', {
  id: integer('id').primaryKey(),
  title: text('title').notNull(),
  published_at: timestamp('published_at', { withTimezone: true }).notNull(),
});
const db = drizzle(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
const feed: CursorPageOptions = { pageSize: 7, ordering: '-published_at', pageSizeQueryParam: 'page_size' };

const app = new Hono();
app.get('/articles/', async (c) => {
  const page = await cursorPage(fromDrizzle(db.select().from(articles), { db }), c.req.url, feed);
  return c.json(page.body(page.rows), 200, page.headers);
});

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`http://127.0.0.1:${info.port}/articles/`);
});
