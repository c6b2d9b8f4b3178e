import {
  connectionFromQuery,
  cursorPage,
  limitOffsetPage,
  type OrderedQuery,
  pageNumberPage,
  paginateCursor,
} from '@pagewise/core';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { sql as drizzleSql, eq } from 'drizzle-orm';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { type DrizzleTestDatabase, drizzleTargets } from '../support/drizzle-databases.js';
import { drizzleTable } from '../support/drizzle-tables.js';

// Counts on cursor pages and Relay connections (issue 38 §1), on every adapter and database: the
// body `{ count, next, previous, results }` only when a count is configured, `countMode` /
// `countAge` as page numbers have them, the count beside the page's one keyset statement, and
// `countTimeout`: an exact count still running at the limit is cancelled on the server and the
// estimate answered, with no statement of the test's own left running.

type Item = { id: number; tenant: number };
const ITEMS: Item[] = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, tenant: i % 8 < 5 ? 1 : 2 }));
const TENANT_ONE = ITEMS.filter((item) => item.tenant === 1).length; // 25
const URL_BASE = 'http://testserver/items';

type Backend = { name: string; query: () => OrderedQuery<Item>; estimates: boolean };

/** Every case, once per backend. */
function countCases(backend: () => Backend): void {
  const query = () => backend().query();

  it('without a count option the body is as before; with one it is { count, next, previous, results }', async () => {
    const plain = await cursorPage(query(), URL_BASE, { pageSize: 10, ordering: 'id' });
    expect(Object.keys(plain.body([]))).toEqual(['next', 'previous', 'results']);
    expect(plain.count).toBeNull();
    expect(plain.countMode).toBe('none');

    const counted = await cursorPage(query(), URL_BASE, { pageSize: 10, ordering: 'id', count: 'exact' });
    expect(Object.keys(counted.body([]))).toEqual(['count', 'next', 'previous', 'results']);
    expect(counted.body([]).count).toBe(TENANT_ONE);
    // Every page of the walk carries the same total.
    const next = await cursorPage(query(), counted.next!, { pageSize: 10, ordering: 'id', count: 'exact' });
    expect(next.count).toBe(TENANT_ONE);
    expect(next.rows.map((r) => r.id)).toEqual(
      ITEMS.filter((i) => i.tenant === 1)
        .slice(10, 20)
        .map((i) => i.id),
    );
  });

  it('a cached count says countMode and countAge, as page numbers do', async () => {
    const options = { pageSize: 10, ordering: 'id', count: 'exact' as const, countCacheTtl: 60_000 };
    const first = await cursorPage(query(), URL_BASE, options);
    expect(Object.keys(first.body([]))).toEqual(['count', 'next', 'previous', 'results']);
    const second = await cursorPage(query(), first.next!, options);
    const body = second.body([]);
    if (backend().name === 'memory') {
      // The memory adapter keys no counts: it counts every time, and says nothing of a cache.
      expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'results']);
    } else {
      expect(Object.keys(body)).toEqual(['count', 'countMode', 'countAge', 'next', 'previous', 'results']);
      expect(body).toMatchObject({ count: TENANT_ONE, countMode: 'exact', countAge: 0 });
    }
  });

  it("'estimated' answers the planner's estimate where the dialect has one, and says so", async () => {
    const page = await cursorPage(query(), URL_BASE, { pageSize: 10, ordering: 'id', count: 'estimated' });
    const body = page.body([]);
    expect(typeof body.count).toBe('number');
    if (backend().estimates) {
      expect(body.countMode).toBe('estimated');
      expect(Object.keys(body)).toEqual(['count', 'countMode', 'next', 'previous', 'results']);
    } else {
      expect(body.count).toBe(TENANT_ONE);
      expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'results']);
    }
  });

  it('paginateCursor has count and countMode, connectionFromQuery totalCount, only when asked', async () => {
    const plain = await paginateCursor(query(), { pageSize: 7, ordering: 'id' });
    expect(Object.keys(plain)).toEqual(['results', 'nextCursor', 'previousCursor']);
    const counted = await paginateCursor(query(), { pageSize: 7, ordering: 'id', count: 'exact' });
    expect(counted).toMatchObject({ count: TENANT_ONE, countMode: 'exact' });
    expect(counted.results).toHaveLength(7);

    const connection = await connectionFromQuery(query(), { first: 3 }, { ordering: 'id' });
    expect('totalCount' in connection).toBe(false);
    const total = await connectionFromQuery(query(), { first: 3 }, { ordering: 'id', count: 'exact' });
    expect(total.totalCount).toBe(TENANT_ONE);
    const last = await connectionFromQuery(
      query(),
      { last: 2, before: total.pageInfo.endCursor },
      { ordering: 'id', count: 'exact' },
    );
    expect(last.totalCount).toBe(TENANT_ONE);
    expect(last.edges).toHaveLength(2);
  });

  it('an invalid cursor is 404 before anything is counted', async () => {
    await expect(
      cursorPage(query(), `${URL_BASE}?cursor=bm90LWEtY3Vyc29y`, {
        pageSize: 5,
        ordering: 'id',
        count: 'exact',
      }),
    ).rejects.toThrow('Invalid cursor');
  });
}

describe('[memory] counts on cursor pages', () => {
  const query = () =>
    fromArray(
      ITEMS.filter((i) => i.tenant === 1),
      { uniqueKey: 'id' },
    );
  countCases(() => ({ name: 'memory', query, estimates: false }));

  it('the count starts once the page statement has gone out, and the page does not wait for it first', async () => {
    const events: string[] = [];
    const inner = query();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const logged: OrderedQuery<Item> = {
      ...inner,
      orderBy: inner.orderBy.bind(inner),
      fetch: async (window) => {
        events.push('fetch');
        const rows = await inner.fetch(window);
        events.push('fetched');
        return rows;
      },
      count: async (options) => {
        events.push('count');
        await held;
        events.push('counted');
        return inner.count(options);
      },
    };
    const page = cursorPage(logged, URL_BASE, { pageSize: 5, ordering: 'id', count: 'exact' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The page's rows are in while the count is still held: the two ran side by side.
    expect(events).toEqual(['fetch', 'count', 'fetched']);
    release();
    expect((await page).count).toBe(TENANT_ONE);
    expect(events).toEqual(['fetch', 'count', 'fetched', 'counted']);
  });

  it('countTimeout on an adapter that cannot cancel (an array): the count is exact', async () => {
    const page = await cursorPage(query(), URL_BASE, {
      pageSize: 5,
      ordering: 'id',
      count: 'exact',
      countTimeout: 1,
    });
    expect(page.body([])).toMatchObject({ count: TENANT_ONE });
    expect(page.countMode).toBe('exact');
  });
});

/** The two queries a database's cases page: `tenant = 1` of TABLE, and every row of SLOW, each row 2 ms to filter where the dialect can sleep. */
interface CountQueries {
  readonly query: () => OrderedQuery<Item>;
  readonly slow: () => OrderedQuery<Item>;
}

/** The queries through Kysely. */
function kyselyQueries(database: TestDatabase, table: string, slowTable: string): CountQueries {
  const { db } = database;
  const sleep =
    database.dialect === 'postgres'
      ? sql<boolean>`pg_sleep(0.002) is not null`
      : database.dialect === 'mysql'
        ? sql<boolean>`sleep(0.002) = 0`
        : null;
  return {
    query: () =>
      fromKysely(db.selectFrom(table).selectAll().where('tenant', '=', 1), {
        db,
      }) as unknown as OrderedQuery<Item>,
    slow: () =>
      fromKysely(
        sleep === null
          ? db.selectFrom(slowTable).selectAll()
          : db.selectFrom(slowTable).selectAll().where(sleep),
        { db },
      ) as unknown as OrderedQuery<Item>,
  };
}

/** The same queries through Drizzle, over the same tables. */
function drizzleQueries(database: DrizzleTestDatabase, table: string, slowTable: string): CountQueries {
  const dataset = { columns: { tenant: { type: 'int' as const } }, rows: [] };
  const items = drizzleTable(database, table, dataset);
  const slowItems = drizzleTable(database, slowTable, dataset);
  const db = database.drizzle;
  const sleep =
    database.dialect === 'postgres'
      ? drizzleSql`pg_sleep(0.002) is not null`
      : database.dialect === 'mysql'
        ? drizzleSql`sleep(0.002) = 0`
        : undefined;
  return {
    query: () =>
      fromDrizzle(db.select().from(items).where(eq(items.tenant, 1)), { db }) as OrderedQuery<Item>,
    slow: () => fromDrizzle(db.select().from(slowItems).where(sleep), { db }) as OrderedQuery<Item>,
  };
}

for (const target of databaseTargets()) {
  countsOnDatabase(target, 'counts on cursor pages', 'pw_cursor_counts', (database) =>
    kyselyQueries(database, tableName('pw_cursor_counts'), tableName('pw_slow_counts')),
  );
}
for (const target of drizzleTargets()) {
  countsOnDatabase(target, 'counts on cursor pages (drizzle)', 'pw_dz_cursor_counts', (database) =>
    drizzleQueries(
      database as DrizzleTestDatabase,
      tableName('pw_dz_cursor_counts'),
      tableName('pw_dz_slow_counts'),
    ),
  );
}

/** The cases on one database, its tables `<base>` and the slow one made here, paged by `queries`. */
function countsOnDatabase(
  target: Parameters<typeof describeDatabase>[0],
  title: string,
  base: string,
  queries: (database: TestDatabase) => CountQueries,
): void {
  describeDatabase(target, title, () => {
    const TABLE = tableName(base);
    const SLOW = tableName(base.replace('cursor_counts', 'slow_counts'));
    let paged: CountQueries;
    let database: TestDatabase;
    // biome-ignore lint/suspicious/noExplicitAny: tables are created at run time.
    let db: Kysely<any>;

    beforeAll(async () => {
      database = await target.open();
      db = database.db;
      for (const table of [TABLE, SLOW]) await sql`drop table if exists ${sql.table(table)}`.execute(db);
      await sql`create table ${sql.table(TABLE)} (id integer primary key, tenant integer not null)`.execute(
        db,
      );
      await db.insertInto(TABLE).values(ITEMS).execute();
      await sql`create table ${sql.table(SLOW)} (id integer primary key, tenant integer not null)`.execute(
        db,
      );
      for (let i = 0; i < 1000; i += 250) {
        await db
          .insertInto(SLOW)
          .values(Array.from({ length: 250 }, (_, j) => ({ id: i + j + 1, tenant: 1 })))
          .execute();
      }
      if (database.dialect === 'postgres') await sql`analyze ${sql.table(TABLE)}`.execute(db);
      paged = queries(database);
    });

    afterAll(async () => {
      for (const table of [TABLE, SLOW]) await sql`drop table if exists ${sql.table(table)}`.execute(db);
      await database.close();
    });

    const query = () => paged.query();
    countCases(() => ({ name: target.name, query, estimates: database.dialect !== 'sqlite' }));
    const slow = () => paged.slow();

    /** Statements of this process's own tables still running on the server. */
    async function running(): Promise<string[]> {
      if (database.dialect === 'postgres' && target.name === 'postgres') {
        const { rows } = await sql<{ query: string }>`
          select query from pg_stat_activity
          where state = 'active' and pid <> pg_backend_pid() and query like ${`%${SLOW}%`}`.execute(db);
        return rows.map((r) => r.query);
      }
      if (database.dialect === 'mysql') {
        const { rows } = await sql<{ info: string }>`
          select info from information_schema.processlist
          where id <> connection_id() and info like ${`%${SLOW}%`}`.execute(db);
        return rows.map((r) => r.info);
      }
      return [];
    }

    const cancels = target.name === 'postgres' || target.name === 'mariadb';
    it(cancels
      ? 'countTimeout: a count still running is cancelled on the server and the estimate answered, on every style'
      : `countTimeout: ${target.name} runs statements in-process and cannot cancel one, so the count is exact`, async () => {
      const started = performance.now();
      const page = await cursorPage(slow(), URL_BASE, {
        pageSize: 6,
        ordering: 'id',
        count: 'exact',
        countTimeout: cancels ? 200 : 60_000,
      });
      const elapsed = performance.now() - started;
      expect(page.rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6]);
      if (!cancels) {
        expect(page.body([])).toMatchObject({ count: 1000 });
        expect(page.countMode).toBe('exact');
        return;
      }
      expect(elapsed).toBeLessThan(1500);
      // The check below sees a count of ours that runs: one without a limit, 2 s long.
      const unbounded = slow().count();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await running()).length).toBeGreaterThan(0);
      expect(await unbounded).toEqual({ value: 1000, exact: true });
      expect(page.countMode).toBe('estimated');
      expect(Object.keys(page.body([]))).toEqual(['count', 'countMode', 'next', 'previous', 'results']);
      expect(page.count).toBeGreaterThan(0);
      expect(await running()).toEqual([]);

      // The same on page numbers and limit/offset (which always counts), and on connections.
      const numbered = await pageNumberPage(slow(), URL_BASE, { pageSize: 6, countTimeout: 200 });
      expect(numbered.countMode).toBe('estimated');
      expect(numbered.body([])).toMatchObject({ countMode: 'estimated' });
      const offset = await limitOffsetPage(slow(), `${URL_BASE}?limit=6`, { countTimeout: 200 });
      expect(offset!.countMode).toBe('estimated');
      expect(offset!.rows).toHaveLength(6);
      expect(Object.keys(offset!.body([]))).toEqual(['count', 'countMode', 'next', 'previous', 'results']);
      const connection = await connectionFromQuery(
        slow(),
        { first: 6 },
        { ordering: 'id', count: 'exact', countTimeout: 200 },
      );
      expect(connection.totalCount).toBeGreaterThan(0);
      expect(await running()).toEqual([]);
      // Under the limit, the count is exact.
      const quick = await cursorPage(query(), URL_BASE, {
        pageSize: 6,
        ordering: 'id',
        count: 'exact',
        countTimeout: 5_000,
      });
      expect(quick.countMode).toBe('exact');
      expect(quick.count).toBe(TENANT_ONE);
    }, 30_000);

    // A second connection, whose log sees the adapter's statements: a server's, since an in-process
    // database opened again is another, empty one. The log is the Kysely db's; the estimates of
    // in-process databases and of the Drizzle describe are checked above.
    const logs = cancels && !title.includes('drizzle');
    if (logs)
      it("'estimated' sends the planner's EXPLAIN and no count(*); past countTimeout, that EXPLAIN and no second count", async () => {
        const sent: string[] = [];
        // Every statement, the ones the server cancelled (Kysely logs them as errors) included.
        const logged = await target.open((event) => void sent.push(event.query.sql));
        const counts = () => sent.filter((text) => /count\(\*\)/i.test(text));
        const explains = () => sent.filter((text) => /^explain/i.test(text));
        try {
          const tenantOne = () =>
            fromKysely(logged.db.selectFrom(TABLE).selectAll().where('tenant', '=', 1), { db: logged.db });
          const page = await cursorPage(tenantOne(), URL_BASE, {
            pageSize: 10,
            ordering: 'id',
            count: 'estimated',
          });
          expect(page.countMode).toBe('estimated');
          expect(counts()).toEqual([]);
          expect(explains()).toHaveLength(1);
          if (database.dialect === 'mysql') {
            // EXPLAIN's rows times `filtered`: 40 rows read, and no histogram says how many
            // `tenant = 1` keeps, so 40 where an exact count says 25.
            expect(explains()[0]).toMatch(/^explain format=json select/i);
            expect(page.count).not.toBe(TENANT_ONE);
            expect(page.count).toBeGreaterThan(0);
          }

          sent.length = 0;
          const sleep =
            database.dialect === 'postgres'
              ? sql<boolean>`pg_sleep(0.002) is not null`
              : sql<boolean>`sleep(0.002) = 0`;
          const timedOut = await cursorPage(
            fromKysely(logged.db.selectFrom(SLOW).selectAll().where(sleep), { db: logged.db }),
            URL_BASE,
            { pageSize: 6, ordering: 'id', count: 'exact', countTimeout: 200 },
          );
          expect(timedOut.countMode).toBe('estimated');
          expect(timedOut.count).toBeGreaterThan(0);
          // The bounded count, cancelled at 200 ms, then the planner's estimate: never a second count.
          expect(counts()).toHaveLength(1);
          expect(explains()).toHaveLength(1);
          if (database.dialect === 'mysql') {
            // The server's version said MariaDB (read once per db): SET STATEMENT, not MySQL's hint.
            expect(counts()[0]).toMatch(/^SET STATEMENT max_statement_time=0\.2 FOR select count\(\*\)/);
            expect(sent.filter((text) => /version\(\)/.test(text))).toHaveLength(1);
          }

          // A GROUP BY past the limit: Postgres estimates its groups; MariaDB's EXPLAIN has the rows
          // read before grouping, answered as an upper bound rather than no answer at all.
          const grouped = await fromKysely(
            logged.db.selectFrom(SLOW).select('tenant').where(sleep).groupBy('tenant'),
            { db: logged.db },
          ).count({ timeoutMs: 200 });
          expect(grouped.exact).toBe(false);
          expect(grouped.value).toBeGreaterThan(0);
          if (database.dialect === 'mysql') expect(grouped.value).toBeLessThanOrEqual(1000);
        } finally {
          await logged.close();
        }
      }, 30_000);
  });
}
