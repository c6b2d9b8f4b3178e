import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { cursorPage } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { expect, expectTypeOf, it } from 'vitest';

// Rows keep the builder's row type: a full selection's, a partial one's.

const posts = sqliteTable('posts', {
  id: integer('id').primaryKey(),
  title: text('title').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});

it('rows are typed as the select builder types them', async () => {
  const sqlite = new Database(':memory:');
  sqlite.exec(
    'create table posts (id integer primary key, title text not null, created_at integer not null)',
  );
  sqlite.prepare('insert into posts values (1, ?, ?)').run('a', Date.UTC(2024, 4, 1));
  const db = drizzle(sqlite);
  const full = fromDrizzle(db.select().from(posts), { db });
  const partial = fromDrizzle(db.select({ name: posts.title }).from(posts), { db });
  const page = await cursorPage(full, 'http://testserver/posts/', { pageSize: 5, ordering: '-createdAt' });
  expectTypeOf(page.rows[0]!).toEqualTypeOf<{ id: number; title: string; createdAt: Date }>();
  expect(page.rows[0]!.createdAt).toEqual(new Date(Date.UTC(2024, 4, 1)));
  const names = await cursorPage(partial, 'http://testserver/posts/', { pageSize: 5, ordering: 'name' });
  expectTypeOf(names.rows[0]!).toEqualTypeOf<{ name: string }>();
  expect(names.rows).toEqual([{ name: 'a' }]);
  sqlite.close();
});
