import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { ApiRequest, CursorPagination, type OrderedQuery } from '@pagewise/rest';
import { sql as drizzleSql } from 'drizzle-orm';
import { datetime, int as mysqlInt, mysqlTable } from 'drizzle-orm/mysql-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDatabase, tableName } from '../support/databases.js';
import { type DrizzleTestDatabase, drizzleTarget, type StatementLog } from '../support/drizzle-databases.js';

// Drizzle's Postgres and mysql2 sessions hand timestamps over as the text the server sent: cursor
// positions are read from it, the column selected as it is (no `to_char`, no `cast(... as char)`),
// and stay exact to the microsecond, Drizzle's `Date`s holding milliseconds. A session whose
// DateStyle is not ISO keeps the `to_char` column, still exact.

// biome-ignore lint/suspicious/noExplicitAny: rows of any selection.
async function walk(query: OrderedQuery<any>, ordering: string, pageSize: number) {
  const ids: number[] = [];
  let url: string | null = 'http://testserver/items/';
  while (url !== null && ids.length < 200) {
    const pagination = new CursorPagination({ pageSize, ordering });
    const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
    ids.push(...rows.map((row) => Number((row as { id: number }).id)));
    url = pagination.getNextLink();
  }
  return ids;
}

/**
 * Walks `items` newest first, every row once, and finds no keyset statement Drizzle logged (those
 * ordering the table) matching `forbidden`, nor selecting `alias`, the private column as the
 * dialect quotes it: the selection holds the column as it is, its driver value is the position.
 */
async function walkSelectingColumns(
  database: DrizzleTestDatabase,
  // biome-ignore lint/suspicious/noExplicitAny: Drizzle's table types.
  items: any,
  logged: StatementLog,
  names: { readonly table: string; readonly alias: string },
  forbidden: RegExp,
): Promise<void> {
  const db = database.drizzle;
  expect(await walk(fromDrizzle(db.select().from(items), { db }), '-created', 3)).toEqual(WANT);
  const pages = logged.statements.filter((s) => s.includes(names.table) && s.includes('order by'));
  expect(pages.length).toBeGreaterThan(5);
  for (const statement of pages) {
    expect(statement).not.toMatch(forbidden);
    expect(statement).not.toContain(names.alias);
  }
}

// Eight rows a millisecond apart share it at the microsecond level: ids 1-8 hold .000001 to
// .000008 of one millisecond, ids 9-16 of the next, so the newest first is 16, 15, ... 1.
const WANT = Array.from({ length: 16 }, (_, i) => 16 - i);

for (const name of ['postgres', 'pglite'] as const) {
  const target = drizzleTarget(name);
  const TABLE = tableName(`pw_dz_text_${name}`);
  const items = pgTable(TABLE, {
    id: integer('id').primaryKey(),
    created: timestamp('created', { withTimezone: true, precision: 6 }).notNull(),
  });

  describeDatabase(target, "timestamp positions from the driver's text", () => {
    let database: DrizzleTestDatabase;
    const logged: StatementLog = { statements: [] };
    beforeAll(async () => {
      database = await target.open(undefined, logged);
      await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
      await sql`create table ${sql.table(TABLE)} (id integer primary key, created timestamptz(6) not null)`.execute(
        database.db,
      );
      await sql`insert into ${sql.table(TABLE)} select g, timestamptz '2024-01-01 00:00:00+00' + ((g - 1) / 8) * interval '1 millisecond' + (((g - 1) % 8) + 1) * interval '1 microsecond' from generate_series(1, 16) as g`.execute(
        database.db,
      );
    });
    afterAll(async () => {
      await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
      await database.close();
    });

    it('every row once in microsecond order, pages selecting the column as it is', () =>
      walkSelectingColumns(database, items, logged, { table: TABLE, alias: '"pagewise0"' }, /to_char/));

    it("rows as Drizzle maps the builder's own: `Date`s, no private column", async () => {
      const db = database.drizzle;
      const pagination = new CursorPagination({ pageSize: 5, ordering: '-created' });
      const rows = await pagination.paginateQueryset(
        fromDrizzle(db.select().from(items), { db }),
        new ApiRequest({ url: 'http://testserver/items/' }),
      );
      const own = await db.select().from(items).orderBy(drizzleSql`created desc`).limit(5);
      expect(rows).toEqual(own);
      expect((rows![0] as { created: unknown }).created).toBeInstanceOf(Date);
      expect(Object.keys(rows![0]!)).toEqual(['id', 'created']);
    });
  });
}

{
  const target = drizzleTarget('postgres');
  const TABLE = tableName('pw_dz_text_datestyle');
  const items = pgTable(TABLE, {
    id: integer('id').primaryKey(),
    created: timestamp('created', { withTimezone: true, precision: 6 }).notNull(),
  });
  describeDatabase(target, 'a session DateStyle other than ISO', () => {
    let pool: pg.Pool;
    const statements: string[] = [];
    beforeAll(async () => {
      pool = new pg.Pool({ connectionString: process.env.PG_URL, max: 1, options: '-c DateStyle=SQL,DMY' });
      await pool.query(`drop table if exists ${TABLE}`);
      await pool.query(`create table ${TABLE} (id integer primary key, created timestamptz(6) not null)`);
      await pool.query(
        `insert into ${TABLE} select g, timestamptz '2024-01-01 00:00:00+00' + ((g - 1) / 8) * interval '1 millisecond' + (((g - 1) % 8) + 1) * interval '1 microsecond' from generate_series(1, 16) as g`,
      );
    });
    afterAll(async () => {
      await pool.query(`drop table if exists ${TABLE}`);
      await pool.end();
    });

    it('keeps the to_char column: every row once, exact', async () => {
      const db = drizzle(pool, { logger: { logQuery: (query) => statements.push(query) } });
      expect(await walk(fromDrizzle(db.select().from(items), { db }), '-created', 3)).toEqual(WANT);
      const pages = statements.filter((s) => s.includes('"pagewise0"'));
      expect(pages.length).toBeGreaterThan(0);
      for (const statement of pages) expect(statement).toContain('to_char');
    });
  });
}

{
  const target = drizzleTarget('mariadb');
  const TABLE = tableName('pw_dz_text_mariadb');
  const items = mysqlTable(TABLE, {
    id: mysqlInt('id').primaryKey(),
    created: datetime('created', { fsp: 6 }).notNull(),
  });
  describeDatabase(target, "datetime positions from the driver's text", () => {
    let database: DrizzleTestDatabase;
    const logged: StatementLog = { statements: [] };
    beforeAll(async () => {
      database = await target.open(undefined, logged);
      await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
      await sql`create table ${sql.table(TABLE)} (id integer primary key, created datetime(6) not null)`.execute(
        database.db,
      );
      for (let g = 1; g <= 16; g += 1) {
        const ms = String(Math.floor((g - 1) / 8)).padStart(3, '0');
        const micro = `${ms}00${((g - 1) % 8) + 1}`;
        await sql`insert into ${sql.table(TABLE)} values (${g}, ${`2024-01-01 00:00:00.${micro}`})`.execute(
          database.db,
        );
      }
    });
    afterAll(async () => {
      await sql`drop table if exists ${sql.table(TABLE)}`.execute(database.db);
      await database.close();
    });

    it('every row once in microsecond order, pages selecting the column as it is', () =>
      walkSelectingColumns(
        database,
        items,
        logged,
        { table: TABLE, alias: '`pagewise0`' },
        /cast\([^)]*as char/i,
      ));
  });
}
