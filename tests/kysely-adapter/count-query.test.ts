import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, CountCache, cursorPage, PageNumberPagination } from '@pagewise/rest';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTargets, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';

// countQuery (issue 38 §2): a builder whose count(*) replaces the page query's. Right when it
// selects as many rows as the page query (a join that neither filters nor multiplies), checked
// against the real count; wrong where the join filters, which is why it is the user's call.

const ARTICLES = tableName('pw_cq_articles');
const AUTHORS = tableName('pw_cq_authors');

for (const target of databaseTargets()) {
  describeDatabase(target, 'countQuery', () => {
    let database: TestDatabase;
    const statements: string[] = [];

    beforeAll(async () => {
      database = await target.open((event) => {
        if (event.level === 'query') statements.push(event.query.sql);
      });
      const { db } = database;
      for (const table of [ARTICLES, AUTHORS])
        await sql`drop table if exists ${sql.table(table)}`.execute(db);
      await sql`create table ${sql.table(AUTHORS)} (id integer primary key, name varchar(20) not null)`.execute(
        db,
      );
      await sql`create table ${sql.table(ARTICLES)} (id integer primary key, author_id integer not null, live integer not null)`.execute(
        db,
      );
      await db
        .insertInto(AUTHORS)
        .values([1, 2, 3].map((id) => ({ id, name: `a${id}` })))
        .execute();
      // Articles 1-30 have an author; 31-34 name author 9, who does not exist.
      await db
        .insertInto(ARTICLES)
        .values(
          Array.from({ length: 34 }, (_, i) => ({
            id: i + 1,
            author_id: i < 30 ? (i % 3) + 1 : 9,
            live: i % 4 === 0 ? 0 : 1,
          })),
        )
        .execute();
    });

    afterAll(async () => {
      for (const table of [ARTICLES, AUTHORS])
        await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
      await database.close();
    });

    const joined = (db = database.db) =>
      db
        .selectFrom(ARTICLES)
        .leftJoin(AUTHORS, `${AUTHORS}.id`, `${ARTICLES}.author_id`)
        .select([`${ARTICLES}.id as id`, `${AUTHORS}.name as name`])
        .where(`${ARTICLES}.live`, '=', 1);

    it('a count without the join is the real count, and runs without the join', async () => {
      const { db } = database;
      const real = await fromKysely(joined(), { db, uniqueKey: 'id' }).count();
      statements.length = 0;
      const cheap = await fromKysely(joined(), {
        db,
        uniqueKey: 'id',
        countQuery: db.selectFrom(ARTICLES).where('live', '=', 1).orderBy('id'),
      }).count();
      expect(cheap).toEqual(real);
      expect(real.value).toBe(34 - 9);
      const counts = statements.filter((s) => /count\(\*\)/i.test(s));
      expect(counts).toHaveLength(1);
      expect(counts[0]).not.toMatch(/join/i);
      expect(counts[0]).not.toMatch(/order by/i);
    });

    it('is wrong where the join filters: an inner join drops the articles without an author', async () => {
      const { db } = database;
      const inner = db
        .selectFrom(ARTICLES)
        .innerJoin(AUTHORS, `${AUTHORS}.id`, `${ARTICLES}.author_id`)
        .select([`${ARTICLES}.id as id`]);
      const real = await fromKysely(inner, { db, uniqueKey: 'id' }).count();
      const wrong = await fromKysely(inner, {
        db,
        uniqueKey: 'id',
        countQuery: db.selectFrom(ARTICLES),
      }).count();
      expect(real.value).toBe(30);
      expect(wrong.value).toBe(34);
    });

    it('serves page numbers, cursor counts and count caches (keyed on the count query and the page query)', async () => {
      const { db } = database;
      const query = () =>
        fromKysely(joined(), {
          db,
          uniqueKey: 'id',
          countQuery: db.selectFrom(ARTICLES).where('live', '=', 1),
        });
      const cache = new CountCache({ ttlMs: 60_000 });
      const pagination = new PageNumberPagination({ pageSize: 10, countCache: cache });
      const page = await pagination.paginate(query(), new ApiRequest({ url: 'http://testserver/a?page=3' }));
      expect(page!.count).toBe(25);
      expect(page!.rows).toHaveLength(5);
      const other = fromKysely(joined(), { db, uniqueKey: 'id', countQuery: db.selectFrom(ARTICLES) });
      expect(other.countKey()).not.toBe(query().countKey());
      const cursor = await cursorPage(query(), 'http://testserver/a', {
        pageSize: 10,
        ordering: 'id',
        count: 'exact',
      });
      expect(cursor.count).toBe(25);
    });
  });
}
