// One cursor feed through DRF's layer: a `ListView` with `CursorPagination` behind the Hono binding,
// over SQLite through the Kysely adapter.

import { fromKysely } from '@pagewise/kysely-adapter';
import { CursorPagination, ListView, Routes } from '@pagewise/rest';
import { createHonoHandler } from '@pagewise/rest/hono';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { Kysely, SqliteDialect, sql } from 'kysely';

interface Item {
  id: number;
  created: string;
  title: string;
}

const db = new Kysely<{ items: Item }>({
  dialect: new SqliteDialect({ database: new Database(':memory:') }),
});
await sql`create table items (id integer primary key, created text not null, title text not null)`.execute(
  db,
);
await sql`create index items_created_id on items (created, id)`.execute(db);
for (let i = 1; i <= 300; i += 1) {
  await db
    .insertInto('items')
    .values({ id: i, created: new Date(Date.UTC(2024, 0, 1, 0, i % 97)).toISOString(), title: `t${i}` })
    .execute();
}

class Feed extends CursorPagination {
  override pageSize = 20;
  override ordering = '-created';
}

const routes = new Routes();
routes.add(
  '/items',
  'items',
  ListView.asView({
    queryset: () => fromKysely(db.selectFrom('items').selectAll(), { db }),
    paginationClass: Feed,
    serializer: (item: Item) => item,
  }),
);
const app = new Hono();
app.use('*', createHonoHandler({ routes, allowedHosts: ['localhost'] }));

export async function serve(url: string): Promise<{ next: string; results: unknown[] }> {
  const response = await app.fetch(new Request(url));
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { next: string; results: unknown[] };
}
