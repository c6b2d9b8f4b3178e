import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { nameStatements } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination, type OrderedQuery } from '@pagewise/rest';
import { sql as drizzleSql, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableName } from '../support/databases.js';

// Drizzle's node-postgres driver over `nameStatements(pool)`: the wrapper is a pg pool to Drizzle
// (its `query`, its transactions on one checked-out connection, its own named statements, its
// events), and the pages it serves are named prepared statements with Drizzle's parsers.

const url = process.env.PG_URL;
const TABLE = tableName('pw_dz_named');
const ROWS = 45;

const items = pgTable(TABLE, {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  title: text('title').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

// biome-ignore lint/suspicious/noExplicitAny: the rows of the walk, typed by the table above.
async function walk(query: OrderedQuery<any>, ordering: string) {
  const ids: number[] = [];
  let link: string | null = 'http://testserver/items/';
  let pages = 0;
  while (link !== null && pages < 50) {
    const pagination = new CursorPagination({ pageSize: 7, ordering });
    const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url: link }))) ?? [];
    ids.push(...rows.map((row) => Number(row.id)));
    link = pagination.getNextLink();
    pages += 1;
  }
  return ids;
}

describe.skipIf(!url)('Drizzle over nameStatements(pool) (PG_URL)', () => {
  let raw: pg.Pool;
  let pool: pg.Pool;
  const logged: string[] = [];

  beforeAll(async () => {
    raw = new pg.Pool({ connectionString: url, max: 3 });
    pool = nameStatements(raw);
    await raw.query(`drop table if exists "${TABLE}"`);
    await raw.query(
      `create table "${TABLE}" (id bigint primary key, title text not null, created_at timestamptz not null)`,
    );
    await raw.query(
      `insert into "${TABLE}" select i, 't' || (i % 4), timestamptz '2024-05-01 10:00:00.000001+00' + (i / 3) * interval '1 microsecond' from generate_series(1, ${ROWS}) i`,
    );
  });
  afterAll(async () => {
    await raw.query(`drop table if exists "${TABLE}"`);
    await pool.end();
  });

  it('is the pool it wraps to its users: instanceof pg.Pool, its events and counts', () => {
    expect(pool).toBeInstanceOf(pg.Pool);
    expect(typeof pool.on).toBe('function');
    expect(pool.totalCount).toBe(raw.totalCount);
    expect(pool.options).toBe(raw.options);
  });

  it('pool.query takes a text, a config object and a callback, as pg-pool does', async () => {
    expect((await pool.query('select $1::int as one', [1])).rows).toEqual([{ one: 1 }]);
    expect(
      (await pool.query({ text: 'select $1::int as one, 2 as two', rowMode: 'array' }, [1])).rows,
    ).toEqual([[1, 2]]);
    expect((await pool.query({ text: 'select $1::text as one', values: ['x'] })).rows).toEqual([
      { one: 'x' },
    ]);
    const answer = await new Promise<unknown>((resolve, reject) =>
      pool.query('select 3 as three', (error: Error | undefined, result: pg.QueryResult) =>
        error ? reject(error) : resolve(result.rows),
      ),
    );
    expect(answer).toEqual([{ three: 3 }]);
    await expect(pool.query('select nope')).rejects.toThrow(/column "nope" does not exist/);
  });

  it('Drizzle pages through it: every row once both ways, the statements named, Drizzle timestamps as text', async () => {
    const db = drizzle(pool, { logger: { logQuery: (query) => logged.push(query) } });
    const stock = drizzle(raw);
    const query = fromDrizzle(db.select().from(items), { db });
    const forward = await walk(query, '-createdAt');
    expect(forward).toHaveLength(ROWS);
    expect(new Set(forward).size).toBe(ROWS);
    expect(forward).toEqual(await walk(fromDrizzle(stock.select().from(items), { db: stock }), '-createdAt'));
    // The logger saw the pages; the server holds them as named statements on the wrapper's
    // connections (every connection prepares them once: ask each one until all are seen).
    expect(logged.some((statement) => statement.includes('order by'))).toBe(true);
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ name: string; statement: string }>(
        `select name, statement from pg_prepared_statements where statement like '%${TABLE}%' and statement like '%<%'`,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.name).toMatch(/^pagewise_\d+$/);
    } finally {
      client.release();
    }
    // Drizzle's own rows: its `Date`s (milliseconds), made from the text its parsers asked for.
    const [first] = await db.select().from(items).where(eq(items.id, 1));
    expect(first?.createdAt).toBeInstanceOf(Date);
    expect(first?.createdAt.toISOString()).toBe('2024-05-01T10:00:00.000Z');
  });

  it('walked backwards from the last page, the same rows in the same order', async () => {
    const db = drizzle(pool);
    const query = fromDrizzle(db.select().from(items), { db });
    const forward = await walk(query, 'createdAt');
    // Follow `next` to the last page, then its `previous` links back to the first.
    let link: string | null = 'http://testserver/items/';
    let last = link;
    while (link !== null) {
      const pagination = new CursorPagination({ pageSize: 7, ordering: 'createdAt' });
      await pagination.paginateQueryset(query, new ApiRequest({ url: link }));
      last = link;
      link = pagination.getNextLink();
    }
    const pages: number[][] = [];
    link = last;
    while (link !== null) {
      const pagination = new CursorPagination({ pageSize: 7, ordering: 'createdAt' });
      const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url: link }))) ?? [];
      pages.unshift(rows.map((row) => Number(row.id)));
      link = pagination.getPreviousLink();
    }
    expect(pages.flat()).toEqual(forward);
    expect(forward).toHaveLength(ROWS);
  });

  it("Drizzle's transactions run on one checked-out connection", async () => {
    const db = drizzle(pool);
    const seen = await db.transaction(async (tx) => {
      await tx.execute(drizzleSql`select set_config('pagewise.test', 'inside', true)`);
      const pids: unknown[] = [];
      for (let i = 0; i < 4; i += 1) {
        const { rows } = await tx.execute(
          drizzleSql`select pg_backend_pid() as pid, current_setting('pagewise.test', true) as setting`,
        );
        pids.push(rows[0]);
      }
      return pids;
    });
    expect(new Set(seen.map((row) => JSON.stringify(row))).size).toBe(1);
    expect(seen[0]).toMatchObject({ setting: 'inside' });
    // A failing transaction rolls back on the same connection.
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(items).values({ id: 1000, title: 'x', createdAt: new Date() });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await db.select().from(items).where(eq(items.id, 1000))).toEqual([]);
  });

  it("a statement Drizzle names itself (.prepare('mine')) keeps its own name", async () => {
    const db = drizzle(pool);
    const mine = db.select().from(items).where(eq(items.id, 3)).prepare('pw_dz_mine');
    // Run it on every connection of the pool, then find its name there.
    for (let i = 0; i < 3; i += 1) expect((await mine.execute()).map((row) => row.id)).toEqual([3]);
    const names = new Set<string>();
    const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
    try {
      for (const c of clients) {
        const { rows } = await c.query<{ name: string }>('select name from pg_prepared_statements');
        for (const row of rows) names.add(row.name);
      }
    } finally {
      for (const c of clients) c.release();
    }
    expect(names.has('pw_dz_mine')).toBe(true);
  });
});
