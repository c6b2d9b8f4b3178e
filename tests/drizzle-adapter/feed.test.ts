import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination, type OrderedQuery } from '@pagewise/rest';
import { desc } from 'drizzle-orm';
import { bigserial, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { CamelCasePlugin, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDatabase, tableName } from '../support/databases.js';
import { type DrizzleTestDatabase, drizzleTarget } from '../support/drizzle-databases.js';

// The headline (issue 37): a Drizzle app that wrote its own OrderedQuery walked 9,805 of
// 10,000 rows of a feed with Drizzle's default `Date` timestamps (microseconds cut to
// milliseconds), and `previous` of `next` was another page. Over fromDrizzle the same feed walks
// every row once in both directions, and each page's links are fromKysely's.

const target = drizzleTarget('postgres');
const ROWS = 10_000;
const TABLE = tableName('pw_dz_feed');

const posts = pgTable(TABLE, {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  title: text('title').notNull(),
  // Drizzle's default: mode 'date', which holds milliseconds; the column keeps microseconds.
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

interface Page {
  readonly ids: number[];
  readonly next: string | null;
  readonly previous: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: the rows of both ORMs.
async function page(query: OrderedQuery<any>, url: string): Promise<Page> {
  const pagination = new CursorPagination({ pageSize: 100, ordering: '-createdAt' });
  const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
  return {
    ids: rows.map((row) => Number(row.id)),
    next: pagination.getNextLink(),
    previous: pagination.getPreviousLink(),
  };
}

describeDatabase(target, 'a 10,000-row feed with Drizzle default Date timestamps', () => {
  let database: DrizzleTestDatabase;

  beforeAll(async () => {
    database = await target.open();
    await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
    await sql`create table ${sql.table(TABLE)} (id bigserial primary key, title text not null, created_at timestamptz not null)`.execute(
      database.db,
    );
    // Runs of rows a microsecond apart, which a millisecond `Date` cannot tell apart, and runs of
    // rows at the very same instant.
    await sql`insert into ${sql.table(TABLE)} (title, created_at)
      select 'post ' || g, timestamptz '2024-05-01 12:00:00+00' + ((g / 7) * interval '1 microsecond') + ((g / 700) * interval '1 second')
      from generate_series(1, ${ROWS}) as g`.execute(database.db);
  }, 60_000);
  afterAll(async () => {
    await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
    await database.close();
  });

  it('walks every row once forward and once backward, previous of next the same page, links those of fromKysely', async () => {
    const { drizzle } = database;
    const query = fromDrizzle(drizzle.select().from(posts).orderBy(desc(posts.createdAt)), { db: drizzle });
    // The same feed through Kysely, its fields named as Drizzle's rows name them.
    const camel = database.db.withPlugin(new CamelCasePlugin());
    const kysely = fromKysely(camel.selectFrom(TABLE).selectAll().orderBy('createdAt', 'desc'), {
      db: camel,
    });
    const forward: Page[] = [];
    let url: string | null = 'http://testserver/posts/';
    while (url !== null && forward.length < 200) {
      const current: Page = await page(query, url);
      forward.push(current);
      // A client may move to the other ORM mid-walk: the same URL is the same page and links there.
      expect(await page(kysely, url)).toEqual(current);
      url = current.next;
    }
    const seen = forward.flatMap((p) => p.ids);
    expect(seen).toHaveLength(ROWS);
    expect(new Set(seen).size).toBe(ROWS);
    // previous of next is the same page, on every page.
    for (let i = 1; i < forward.length; i += 1) {
      const back = await page(query, forward[i]!.previous!);
      expect(back.ids).toEqual(forward[i - 1]!.ids);
    }
    const backward: Page[] = [];
    url = forward.at(-1)!.previous;
    while (url !== null && backward.length < 200) {
      const current: Page = await page(query, url);
      backward.push(current);
      url = current.previous;
    }
    const back = backward.flatMap((p) => p.ids);
    expect(back.length + forward.at(-1)!.ids.length).toBe(ROWS);
    expect(new Set([...back, ...forward.at(-1)!.ids]).size).toBe(ROWS);
    expect(backward.map((p) => p.ids)).toEqual(
      forward
        .slice(0, -1)
        .reverse()
        .map((p) => p.ids),
    );
  }, 120_000);
});
