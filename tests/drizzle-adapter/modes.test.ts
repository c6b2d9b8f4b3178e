import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination, type OrderedQuery } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { integer, sqliteTable, text as sqliteText } from 'drizzle-orm/sqlite-core';
import { CamelCasePlugin, Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDatabase, tableName } from '../support/databases.js';
import { type DrizzleTestDatabase, drizzleTarget } from '../support/drizzle-databases.js';

// Positions are typed by the database column, not by Drizzle's mode; names are result keys,
// whatever the SQL name or the db's `casing`.

// biome-ignore lint/suspicious/noExplicitAny: rows of both ORMs.
async function walk(query: OrderedQuery<any>, ordering: string, pageSize: number) {
  const pages: Array<{ rows: unknown[]; next: string | null; previous: string | null }> = [];
  let url: string | null = 'http://testserver/items/';
  while (url !== null && pages.length < 50) {
    const pagination = new CursorPagination({ pageSize, ordering });
    const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
    pages.push({ rows, next: pagination.getNextLink(), previous: pagination.getPreviousLink() });
    url = pagination.getNextLink();
  }
  return pages;
}

const target = drizzleTarget('postgres');
const TABLE = tableName('pw_dz_bignum');

describeDatabase(target, "a bigint key past 2^53 read in Drizzle's mode: 'number'", () => {
  let database: DrizzleTestDatabase;
  const items = pgTable(TABLE, {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    title: text('title').notNull(),
  });

  beforeAll(async () => {
    database = await target.open();
    await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
    await sql`create table ${sql.table(TABLE)} (id bigint primary key, title text not null)`.execute(
      database.db,
    );
    await sql`insert into ${sql.table(TABLE)} select 9007199254740990 + g, 't' || g from generate_series(1, 9) as g`.execute(
      database.db,
    );
  });
  afterAll(async () => {
    await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
    await database.close();
  });

  it("every row once both ways: the rows hold rounded numbers, the cursors exact integers, fromKysely's tokens", async () => {
    const query = fromDrizzle(database.drizzle.select().from(items), { db: database.drizzle });
    const pages = await walk(query, '-id', 2);
    const titles = pages.flatMap((page) => page.rows.map((row) => (row as { title: string }).title));
    expect(titles).toEqual(['t9', 't8', 't7', 't6', 't5', 't4', 't3', 't2', 't1']);
    // Drizzle's number mode rounds the ids (2^53 + 1 reads as 2^53): the cursor does not.
    expect(
      new Set(pages.flatMap((page) => page.rows.map((row) => (row as { id: number }).id))).size,
    ).toBeLessThan(9);
    const kysely = await walk(
      fromKysely(database.db.selectFrom(TABLE).selectAll(), { db: database.db }),
      '-id',
      2,
    );
    expect(pages.map(({ next, previous }) => ({ next, previous }))).toEqual(
      kysely.map(({ next, previous }) => ({ next, previous })),
    );
    // And back from the last page, every row once.
    const back: string[] = [];
    let url = pages.at(-1)!.previous;
    while (url !== null) {
      const pagination = new CursorPagination({ pageSize: 2, ordering: '-id' });
      const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
      back.unshift(...rows.map((row) => (row as { title: string }).title));
      url = pagination.getPreviousLink();
    }
    expect([...back, ...pages.at(-1)!.rows.map((row) => (row as { title: string }).title)]).toEqual(titles);
  });
});

it("the db's casing: 'snake_case' names created_at in SQL and createdAt in orderings, rows and links, as Kysely's CamelCasePlugin does", async () => {
  const raw = new Database(':memory:');
  raw.exec('create table posts (id integer primary key, created_at text not null, title_text text not null)');
  const insert = raw.prepare('insert into posts values (?, ?, ?)');
  for (let i = 1; i <= 23; i += 1) insert.run(i, `2024-05-0${1 + (i % 3)}`, `title ${i % 5}`);
  const posts = sqliteTable('posts', {
    id: integer().primaryKey(),
    createdAt: sqliteText().notNull(),
    titleText: sqliteText().notNull(),
  });
  const db = drizzle(raw, { casing: 'snake_case' });
  // biome-ignore lint/suspicious/noExplicitAny: the table is the test's own.
  const camel = new Kysely<any>({
    dialect: new SqliteDialect({ database: raw }),
    plugins: [new CamelCasePlugin()],
  });
  for (const ordering of ['-createdAt', 'titleText']) {
    const pages = await walk(fromDrizzle(db.select().from(posts), { db }), ordering, 4);
    expect(pages.flatMap((page) => page.rows)).toHaveLength(23);
    expect(Object.keys(pages[0]!.rows[0] as object).sort()).toEqual(['createdAt', 'id', 'titleText']);
    expect(pages).toEqual(
      await walk(fromKysely(camel.selectFrom('posts').selectAll(), { db: camel }), ordering, 4),
    );
  }
  raw.close();
});
