import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { ApiRequest, CountCache, cursorPage, PageNumberPagination } from '@pagewise/rest';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDatabase, tableName } from '../support/databases.js';
import { type DrizzleTestDatabase, drizzleTargets, type StatementLog } from '../support/drizzle-databases.js';
import { drizzleTable } from '../support/drizzle-tables.js';
import { createTable, dropTable } from '../support/tables.js';

// countQuery on Drizzle (issue 38 §2), as tests/kysely-adapter/count-query.test.ts has it on
// Kysely: a Drizzle builder whose count(*) replaces the page query's. Right when it selects as many
// rows as the page query (a join that neither filters nor multiplies), checked against the real
// count; wrong where the join filters, which is why it is the user's call.

const ARTICLES = tableName('pw_dz_cq_articles');
const AUTHORS = tableName('pw_dz_cq_authors');
const authorsData = {
  columns: { name: { type: 'text' as const } },
  rows: [1, 2, 3].map((id) => ({ id, name: `a${id}` })),
};
// Articles 1-30 have an author; 31-34 name author 9, who does not exist.
const articlesData = {
  columns: { author_id: { type: 'int' as const }, live: { type: 'int' as const } },
  rows: Array.from({ length: 34 }, (_, i) => ({
    id: i + 1,
    author_id: i < 30 ? (i % 3) + 1 : 9,
    live: i % 4 === 0 ? 0 : 1,
  })),
};

for (const target of drizzleTargets()) {
  describeDatabase(target, 'countQuery (drizzle)', () => {
    let database: DrizzleTestDatabase;
    const log: StatementLog = { statements: [] };
    // biome-ignore lint/suspicious/noExplicitAny: the tables are defined at run time.
    let articles: any;
    // biome-ignore lint/suspicious/noExplicitAny: the tables are defined at run time.
    let authors: any;

    beforeAll(async () => {
      database = await target.open(undefined, log);
      await createTable(database, AUTHORS, authorsData);
      await createTable(database, ARTICLES, articlesData);
      authors = drizzleTable(database, AUTHORS, authorsData);
      articles = drizzleTable(database, ARTICLES, articlesData);
    });

    afterAll(async () => {
      for (const table of [ARTICLES, AUTHORS]) await dropTable(database, table);
      await database.close();
    });

    const joined = () =>
      database.drizzle
        .select({ id: articles.id, name: authors.name })
        .from(articles)
        .leftJoin(authors, eq(authors.id, articles.author_id))
        .where(eq(articles.live, 1));

    it('a count without the join is the real count, and runs without the join', async () => {
      const db = database.drizzle;
      const real = await fromDrizzle(joined(), { db }).count();
      log.statements.length = 0;
      const cheap = await fromDrizzle(joined(), {
        db,
        countQuery: db.select().from(articles).where(eq(articles.live, 1)).orderBy(asc(articles.id)),
      }).count();
      expect(cheap).toEqual(real);
      expect(real.value).toBe(34 - 9);
      const counts = log.statements.filter((s) => /count\(\*\)/i.test(s));
      expect(counts).toHaveLength(1);
      expect(counts[0]).not.toMatch(/join/i);
      expect(counts[0]).not.toMatch(/order by/i);
    });

    it('is wrong where the join filters: an inner join drops the articles without an author', async () => {
      const db = database.drizzle;
      const inner = () =>
        db.select({ id: articles.id }).from(articles).innerJoin(authors, eq(authors.id, articles.author_id));
      const real = await fromDrizzle(inner(), { db }).count();
      const wrong = await fromDrizzle(inner(), { db, countQuery: db.select().from(articles) }).count();
      expect(real.value).toBe(30);
      expect(wrong.value).toBe(34);
    });

    it('serves page numbers, cursor counts and count caches (keyed on the count query and the page query)', async () => {
      const db = database.drizzle;
      const query = () =>
        fromDrizzle(joined(), { db, countQuery: db.select().from(articles).where(eq(articles.live, 1)) });
      const cache = new CountCache({ ttlMs: 60_000 });
      const pagination = new PageNumberPagination({ pageSize: 10, countCache: cache });
      const page = await pagination.paginate(query(), new ApiRequest({ url: 'http://testserver/a?page=3' }));
      expect(page!.count).toBe(25);
      expect(page!.rows).toHaveLength(5);
      const other = fromDrizzle(joined(), { db, countQuery: db.select().from(articles) });
      expect(other.countKey()).not.toBe(query().countKey());
      expect(fromDrizzle(joined(), { db }).countKey()).not.toBe(query().countKey());
      // The page query's own LIMIT bounds the total, and keys it.
      const limited = fromDrizzle(joined().orderBy(asc(articles.id)).limit(7), {
        db,
        countQuery: db.select().from(articles).where(eq(articles.live, 1)),
      });
      expect(await limited.count()).toEqual({ value: 7, exact: true });
      expect(limited.countKey()).not.toBe(query().countKey());
      const cursor = await cursorPage(query(), 'http://testserver/a', {
        pageSize: 10,
        ordering: 'id',
        count: 'exact',
      });
      expect(cursor.count).toBe(25);
      expect(cursor.rows).toHaveLength(10);
    });
  });
}
