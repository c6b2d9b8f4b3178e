import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, ConfigurationError, CountCache, PageNumberPagination } from '@pagewise/rest';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTargets, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';

const TABLE = tableName('pw_count_cache');

/** A clock the test moves by hand: no sleeps. */
function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

function get(path: string): ApiRequest {
  return new ApiRequest({ url: `http://testserver${path}` });
}

for (const target of databaseTargets()) {
  describeDatabase(target, 'count cache (page-number countCache / countCacheTtl)', () => {
    let database: TestDatabase;
    const statements: string[] = [];

    beforeAll(async () => {
      database = await target.open((event) => {
        if (event.level === 'query') statements.push(event.query.sql);
      });
      const { db } = database;
      await sql`drop table if exists ${sql.table(TABLE)}`.execute(db);
      await sql`create table ${sql.table(TABLE)} (id integer primary key, tag varchar(10) not null)`.execute(
        db,
      );
      await db
        .insertInto(TABLE)
        .values(Array.from({ length: 23 }, (_, i) => ({ id: i + 1, tag: i % 2 === 0 ? 'even' : 'odd' })))
        .execute();
    });

    afterAll(async () => {
      await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
      await database.close();
    });

    const query = (tag?: string) => {
      let builder = database.db.selectFrom(TABLE).select(['id', 'tag']).orderBy('id');
      if (tag !== undefined) builder = builder.where('tag', '=', tag);
      return fromKysely(builder, { db: database.db });
    };
    const counts = () => statements.filter((s) => /count\(\*\)|^explain/i.test(s)).length;

    it('reuses an exact count for ttlMs, says so in the body, and counts again once it expires', async () => {
      const clock = fakeClock();
      const cache = new CountCache({ ttlMs: 30_000, now: clock.now });
      const pagination = new PageNumberPagination({ pageSize: 5, countCache: cache });
      const before = counts();

      const first = (await pagination.paginate(query(), get('/?page=2')))!;
      expect(first.response([]).data).toEqual({
        count: 23,
        next: 'http://testserver/?page=3',
        previous: 'http://testserver/',
        results: [],
      });
      expect(first.countAgeMs).toBeNull();
      expect(counts() - before).toBe(1);

      // Rows added meanwhile are not seen while the count is fresh: that is the trade.
      await database.db.insertInto(TABLE).values({ id: 24, tag: 'odd' }).execute();
      clock.advance(12_500);
      const second = (await pagination.paginate(query(), get('/?page=3')))!;
      expect(counts() - before).toBe(1);
      expect(second.count).toBe(23);
      expect(second.countAgeMs).toBe(12_500);
      expect(second.response([]).data).toEqual({
        count: 23,
        countMode: 'exact',
        countAge: 12,
        next: 'http://testserver/?page=4',
        previous: 'http://testserver/?page=2',
        results: [],
      });

      clock.advance(17_500); // 30 s after the count: stale
      const third = (await pagination.paginate(query(), get('/?page=3')))!;
      expect(counts() - before).toBe(2);
      expect(third.count).toBe(24);
      expect(third.countAgeMs).toBeNull();
      expect(Object.keys(third.response([]).data)).toEqual(['count', 'next', 'previous', 'results']);
      await database.db.deleteFrom(TABLE).where('id', '=', 24).execute();
    });

    it('keys counts by the query: another filter or value is counted on its own', async () => {
      const clock = fakeClock();
      const cache = new CountCache({ ttlMs: 60_000, now: clock.now });
      const pagination = new PageNumberPagination({ pageSize: 5, countCache: cache });
      const before = counts();
      const seen = [];
      for (const tag of [undefined, 'even', 'odd', undefined, 'even', 'odd']) {
        const page = (await pagination.paginate(query(tag), get('/')))!;
        seen.push([page.count, page.countAgeMs !== null]);
        clock.advance(1000);
      }
      expect(seen).toEqual([
        [23, false],
        [12, false],
        [11, false],
        [23, true],
        [12, true],
        [11, true],
      ]);
      expect(counts() - before).toBe(3);
      expect(cache.size).toBe(3);
      // One cache shared by two paginations: the second reuses the first one's count.
      const other = new PageNumberPagination({ pageSize: 10, countCache: cache });
      expect((await other.paginate(query('odd'), get('/')))!.countAgeMs).toBe(4000); // counted at +2 s, asked at +6 s
      expect(counts() - before).toBe(3);
    });

    it("caches 'estimated' counts apart from exact ones, and the body keeps saying which it was", async () => {
      const clock = fakeClock();
      const cache = new CountCache({ ttlMs: 10_000, now: clock.now });
      const estimated = new PageNumberPagination({ pageSize: 5, count: 'estimated', countCache: cache });
      const exact = new PageNumberPagination({ pageSize: 5, countCache: cache });
      const first = (await estimated.paginate(query(), get('/')))!;
      // Postgres and MariaDB estimate (EXPLAIN); SQLite has no estimator and answers exactly.
      const mode = target.name === 'sqlite' ? 'exact' : 'estimated';
      expect(first.countMode).toBe(mode);
      const before = counts();
      clock.advance(2000);
      const again = (await estimated.paginate(query(), get('/?page=2')))!;
      expect(counts()).toBe(before);
      expect(again.response([]).data).toMatchObject({ count: first.count, countMode: mode, countAge: 2 });
      const exactPage = (await exact.paginate(query(), get('/')))!;
      expect(counts()).toBe(before + 1);
      expect(exactPage.count).toBe(23);
      expect(cache.size).toBe(2);
    });

    it('countCacheTtl gives one pagination a cache of its own; concurrent requests share one count', async () => {
      const pagination = new PageNumberPagination({ pageSize: 5, countCacheTtl: 60_000 });
      const before = counts();
      const pages = await Promise.all(
        [1, 2, 3].map((n) => pagination.paginate(query('odd'), get(`/?page=${n}`))),
      );
      expect(pages.map((p) => p!.count)).toEqual([11, 11, 11]);
      expect(counts() - before).toBe(1);
      expect(pages.filter((p) => p!.countAgeMs !== null)).toHaveLength(2);
      expect(new PageNumberPagination({ pageSize: 5, countCacheTtl: 60_000 }).countCache).toBeNull();
    });
  });
}

it('a count cache refuses a TTL that is not a positive number of milliseconds', () => {
  expect(() => new CountCache({ ttlMs: 0 })).toThrow(ConfigurationError);
  expect(() => new CountCache({ ttlMs: Number.NaN })).toThrow(ConfigurationError);
  expect(() => new PageNumberPagination({ countCacheTtl: -5 })).toThrow(/ttlMs must be a positive/);
  expect(() => new CountCache({ ttlMs: 10, maxEntries: 0 })).toThrow(ConfigurationError);
});

it('a failed count is not kept, and the oldest shapes go first past maxEntries', async () => {
  const clock = fakeClock();
  const cache = new CountCache({ ttlMs: 1000, maxEntries: 2, now: clock.now });
  await expect(cache.lookup('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
  expect(cache.size).toBe(0);
  const one = () => Promise.resolve({ value: 1, exact: true });
  await cache.lookup('a', one);
  await cache.lookup('b', one);
  await cache.lookup('c', one);
  expect(cache.size).toBe(2);
  expect((await cache.lookup('a', one)).cached).toBe(false);
  expect((await cache.lookup('c', one)).cached).toBe(true);
});

it('the schema names countMode and countAge when a count cache is configured', () => {
  const props = new PageNumberPagination({ pageSize: 5, countCacheTtl: 1000 }).getPaginatedResponseSchema({})
    .properties as Record<string, unknown>;
  expect(props.countMode).toMatchObject({ enum: ['exact', 'estimated'] });
  expect(props.countAge).toMatchObject({ type: 'integer', minimum: 0 });
  const plain = new PageNumberPagination({ pageSize: 5 }).getPaginatedResponseSchema({}).properties as object;
  expect(Object.keys(plain)).toEqual(['count', 'next', 'previous', 'results']);
});

it('a query without countKey (the memory adapter) is counted every time, and the body says nothing of a cache', async () => {
  const { fromArray } = await import('@pagewise/memory-adapter');
  const cache = new CountCache({ ttlMs: 60_000 });
  const pagination = new PageNumberPagination({ pageSize: 2, countCache: cache });
  const page = (await pagination.paginate(fromArray([1, 2, 3]), get('/')))!;
  expect(page.countAgeMs).toBeNull();
  expect(page.response([]).data).toEqual({
    count: 3,
    next: 'http://testserver/?page=2',
    previous: null,
    results: [],
  });
  expect(cache.size).toBe(0);
});
