import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, ConfigurationError, CursorPagination, type OrderedQuery } from '@pagewise/rest';
import { asc, desc, sql as drizzleSql, eq } from 'drizzle-orm';
import { datetime, json, bigint as mysqlBigint, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { jsonb, bigint as pgBigint, pgTable, text as pgText, timestamp } from 'drizzle-orm/pg-core';
import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDatabase, tableName } from '../support/databases.js';
import {
  type DrizzleDatabaseName,
  type DrizzleTestDatabase,
  drizzleTarget,
  type StatementLog,
} from '../support/drizzle-databases.js';
import { quote } from '../support/tables.js';

// fromDrizzle over each of drizzle-orm's drivers, against fromKysely on the same table: the same
// pages and the same links (tokens) for the same ordering; what it reads of the builder (its
// ordering as result keys, its primary key, a partial selection) and what it refuses up front.

const ROWS = 57;

/** The Drizzle schema of the test table per dialect: ids in Drizzle's number mode, default `Date` timestamps. */
function schema(database: DrizzleTestDatabase, name: string) {
  if (database.dialect === 'postgres') {
    return pgTable(name, {
      id: pgBigint('id', { mode: 'number' }).primaryKey(),
      title: pgText('title').notNull(),
      created: timestamp('created', { withTimezone: true }).notNull(),
      score: pgBigint('score', { mode: 'number' }),
      doc: jsonb('doc'),
    });
  }
  if (database.dialect === 'mysql') {
    return mysqlTable(name, {
      id: mysqlBigint('id', { mode: 'number' }).primaryKey(),
      title: varchar('title', { length: 64 }).notNull(),
      created: datetime('created', { fsp: 6 }).notNull(),
      score: mysqlBigint('score', { mode: 'number' }),
      doc: json('doc'),
    });
  }
  return sqliteTable(name, {
    id: integer('id').primaryKey(),
    title: text('title').notNull(),
    created: text('created').notNull(),
    score: integer('score'),
    doc: blob('doc'),
  });
}

function columnTypes(database: DrizzleTestDatabase): string {
  if (database.dialect === 'postgres')
    return 'id bigint primary key, title text not null, created timestamptz not null, score bigint, doc jsonb';
  if (database.dialect === 'mysql')
    return 'id bigint primary key, title varchar(64) not null, created datetime(6) not null, score bigint, doc json';
  return 'id integer primary key, title text not null, created text not null, score integer, doc blob';
}

/** Rows of the test tables, whose columns are defined per dialect at run time. */
// biome-ignore lint/suspicious/noExplicitAny: the rows of both ORMs, typed at run time.
type Item = any;

async function walk(query: OrderedQuery<Item>, ordering: string | string[]) {
  const pages: Array<{ ids: number[]; next: string | null; previous: string | null }> = [];
  let url: string | null = 'http://testserver/items/';
  while (url !== null && pages.length < 40) {
    const pagination = new CursorPagination({ pageSize: 6, ordering });
    const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
    const next = pagination.getNextLink();
    pages.push({ ids: rows.map((row) => Number(row.id)), next, previous: pagination.getPreviousLink() });
    url = next;
  }
  return pages;
}

for (const name of [
  'sqlite',
  'pglite',
  'postgres',
  'postgres-named-statements',
  'mariadb',
] as DrizzleDatabaseName[]) {
  const target = drizzleTarget(name);
  describeDatabase(target, 'fromDrizzle', () => {
    const logged: StatementLog = { statements: [] };
    let database: DrizzleTestDatabase;
    const table = tableName(`pw_dz_adapter_${name}`);
    let items: ReturnType<typeof schema>;

    beforeAll(async () => {
      database = await target.open(undefined, logged);
      items = schema(database, table);
      await sql.raw(`drop table if exists ${quote(database, table)}`).execute(database.db);
      await sql.raw(`create table ${quote(database, table)} (${columnTypes(database)})`).execute(database.db);
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        id: i + 1,
        title: `t${(i * 7) % 13}`,
        // Microseconds apart in threes: a millisecond `Date` cannot tell them apart.
        created: `2024-05-0${1 + (i % 3)} 10:00:00.${String(100 + Math.floor(i / 3)).padStart(6, '0')}`,
        score: i % 5 === 0 ? null : i % 4,
      }));
      await database.db.insertInto(table).values(rows).execute();
    }, 60_000);
    afterAll(async () => {
      await sql.raw(`drop table if exists ${quote(database, table)}`).execute(database.db);
      await database.close();
    });

    for (const ordering of ['-created', 'created', 'title', '-score', ['score', '-created'], 'id']) {
      it(`[${name}] ${String(ordering)}: the pages and links of fromKysely, every row once`, async () => {
        const { drizzle } = database;
        const query = fromDrizzle(drizzle.select().from(items), { db: drizzle });
        const kysely = fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db });
        const pages = await walk(query, ordering);
        expect(pages).toEqual(await walk(kysely, ordering));
        const ids = pages.flatMap((page) => page.ids);
        expect(new Set(ids).size).toBe(ROWS);
        expect(ids).toHaveLength(ROWS);
      });
    }

    it(`[${name}] every statement runs through the db's session: its logger sees each one`, async () => {
      const { drizzle } = database;
      const before = logged.statements.length;
      const query = fromDrizzle(drizzle.select().from(items), { db: drizzle });
      const pages = await walk(query, '-created');
      expect(pages.length).toBeGreaterThan(5);
      // One statement per page at least (the catalog was read by the walks before).
      expect(logged.statements.length - before).toBeGreaterThanOrEqual(pages.length);
      expect(logged.statements.at(-1)).toMatch(/order by/);
    });

    it(`[${name}] the builder is never changed, and one value serves every request`, async () => {
      const { drizzle } = database;
      const builder = drizzle.select().from(items).where(eq(items.title, 't1')).orderBy(desc(items.created));
      const text = JSON.stringify(builder.toSQL());
      const query = fromDrizzle(builder, { db: drizzle });
      const pages = await Promise.all([
        walk(query, '-created'),
        walk(query, 'title'),
        walk(query, '-created'),
      ]);
      expect(pages[0]).toEqual(pages[2]);
      expect(JSON.stringify(builder.toSQL())).toBe(text);
      expect(query.ordering).toEqual([{ field: 'created', direction: 'desc' }]);
      expect(query.uniqueKey).toBe('id');
    });

    it(`[${name}] a partial selection without the primary key pages by it, fetched and stripped`, async () => {
      const { drizzle } = database;
      const query = fromDrizzle(drizzle.select({ name: items.title, at: items.created }).from(items), {
        db: drizzle,
      });
      expect(query.uniqueKey).toBe('id');
      const seen: string[] = [];
      let url: string | null = 'http://testserver/items/';
      while (url !== null) {
        const pagination = new CursorPagination({ pageSize: 10, ordering: '-name' });
        const rows: Item[] = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
        for (const row of rows) {
          expect(Object.keys(row).sort()).toEqual(['at', 'name']);
          seen.push(row.name);
        }
        url = pagination.getNextLink();
      }
      expect(seen).toHaveLength(ROWS);
      expect(seen).toEqual([...seen].sort().reverse());
    });

    it(`[${name}] a flat selection reads positions from its own columns; a nested one from private columns: both every row once`, async () => {
      const { drizzle } = database;
      const before = logged.statements.length;
      const flat = await walk(fromDrizzle(drizzle.select().from(items), { db: drizzle }), ['-created', 'id']);
      const flatStatements = logged.statements.slice(before).filter((s) => s.includes('order by'));
      // SQLite's keyset arms are joined by `union all`, whose ORDER BY names the private columns.
      if (name !== 'sqlite') for (const s of flatStatements) expect(s).not.toMatch(/pagewise\d/);
      const middle = logged.statements.length;
      const nested = fromDrizzle(
        drizzle.select({ item: { id: items.id, created: items.created }, title: items.title }).from(items),
        { db: drizzle, uniqueKey: 'item.id' },
      );
      const rows: Item[] = [];
      let url: string | null = 'http://testserver/items/';
      while (url !== null) {
        const pagination = new CursorPagination({ pageSize: 6, ordering: ['-item.created', 'item.id'] });
        rows.push(...((await pagination.paginateQueryset(nested, new ApiRequest({ url }))) ?? []));
        url = pagination.getNextLink();
      }
      expect(rows.map((row) => Number(row.item.id))).toEqual(flat.flatMap((page) => page.ids));
      expect(Object.keys(rows[0]).sort()).toEqual(['item', 'title']);
      expect(logged.statements.slice(middle).some((s) => /pagewise\d/.test(s))).toBe(true);
    });

    it(`[${name}] a sql ordering, an unselected column and a json/blob column are refused up front, named`, () => {
      const { drizzle } = database;
      expect(() =>
        fromDrizzle(drizzle.select().from(items).orderBy(drizzleSql`lower(${items.title})`), { db: drizzle }),
      ).toThrow(/sql expression `lower\(.*title.*\)`/);
      expect(() =>
        fromDrizzle(drizzle.select({ id: items.id }).from(items).orderBy(asc(items.title)), { db: drizzle }),
      ).toThrow(ConfigurationError);
      expect(() =>
        fromDrizzle(drizzle.select({ id: items.id }).from(items).orderBy(asc(items.title)), { db: drizzle }),
      ).toThrow(/"title", which its selection does not hold/);
      expect(() =>
        fromDrizzle(drizzle.select().from(items).orderBy(asc(items.doc)), { db: drizzle }),
      ).toThrow(/cannot be paged by "doc"/);
    });

    it(`[${name}] the builder's own limit is the list: a cursor page over it is refused`, async () => {
      const { drizzle } = database;
      const query = fromDrizzle(drizzle.select().from(items).orderBy(asc(items.id)).limit(5), {
        db: drizzle,
      });
      expect(await query.count()).toEqual({ value: 5, exact: true });
      await expect(
        new CursorPagination({ pageSize: 3, ordering: 'id' }).paginateQueryset(
          query,
          new ApiRequest({ url: 'http://testserver/items/' }),
        ),
      ).rejects.toThrow(/cannot page a sliced builder/);
    });

    it(`[${name}] an estimated count asks the planner in the dialect's own EXPLAIN, where it has one`, async () => {
      const { drizzle } = database;
      const query = fromDrizzle(drizzle.select().from(items).orderBy(asc(items.id)), { db: drizzle });
      const estimate = await query.count({ estimate: true });
      if (name === 'sqlite') {
        expect(estimate).toEqual(await query.count());
      } else {
        // Postgres `explain (format json)`, MariaDB `explain format=json`.
        expect(estimate.exact).toBe(false);
        expect(estimate.value).toBeGreaterThan(0);
      }
    });
  });
}
