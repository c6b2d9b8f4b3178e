// mysql2 without `supportBigNumbers` answers a BIGINT past 2^53 as a rounded number. A position
// read from one would skip or repeat rows; pages holding such a value are read again with the
// integers' exact text (as better-sqlite3's rounded integers are), so cursors stay exact.

import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import { Kysely, MysqlDialect, sql } from 'kysely';
import { createPool, type PoolOptions } from 'mysql2';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';

const target = databaseTarget('mariadb');
const TABLE = tableName('pw_rounded_bigint');
const ORIGIN = 'http://testserver/';

// biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
const opened: Kysely<any>[] = [];

function open(options: PoolOptions = {}) {
  const pool = createPool({ uri: process.env.MYSQL_URL!, connectionLimit: 1, ...options });
  // biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
  const db = new Kysely<any>({ dialect: new MysqlDialect({ pool }) });
  opened.push(db);
  return db;
}

/** Ids on both sides of 2^53, several rounding to the same double, and a `rank` that ties. */
const IDS = [
  9007199254740990n,
  9007199254740991n,
  9007199254740992n,
  9007199254740993n,
  9007199254740994n,
  9007199254740995n,
  9007199254740997n,
  9223372036854775807n,
  -9007199254740993n,
  -9223372036854775808n,
  1n,
];

beforeAll(async () => {
  if (target.skipReason !== null) return;
  const db = open();
  await sql.raw(`drop table if exists ${TABLE}`).execute(db);
  await sql
    .raw(`create table ${TABLE} (id bigint primary key, n integer not null, rank integer not null)`)
    .execute(db);
  const values = IDS.map((id, i) => `(${id}, ${i + 1}, ${i % 3})`).join(', ');
  await sql.raw(`insert into ${TABLE} values ${values}`).execute(db);
});

afterAll(async () => {
  if (opened.length > 0) await sql.raw(`drop table if exists ${TABLE}`).execute(opened[0]!);
  for (const db of opened) await db.destroy();
});

/** The `n` of every row, page by page, walking `ordering` forward with pages of 2. */
// biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
async function walk(db: Kysely<any>, ordering: string[]): Promise<number[][]> {
  const pages: number[][] = [];
  let link: string | null = ORIGIN;
  while (link !== null && pages.length < 20) {
    const pagination = new CursorPagination({ pageSize: 2, ordering });
    const rows = await pagination.paginateQueryset(
      fromKysely(db.selectFrom(TABLE).selectAll(), { db }),
      new ApiRequest({ url: link }),
    );
    pages.push((rows ?? []).map((r) => Number(r.n)));
    link = pagination.getNextLink();
  }
  return pages;
}

describeDatabase(target, 'BIGINTs past 2^53 through a pool that rounds them', () => {
  for (const ordering of [['id'], ['-id'], ['rank'], ['-rank']]) {
    it(`walks every row once, as with exact big numbers (${ordering.join(', ')})`, async () => {
      const expected = await walk(open({ supportBigNumbers: true, bigNumberStrings: true }), ordering);
      expect(expected.flat().sort((a, b) => a - b)).toEqual(IDS.map((_, i) => i + 1));
      expect(await walk(open(), ordering)).toEqual(expected);
    });
  }

  it('positions are the exact bigints, and rows keep the values the pool gives', async () => {
    const db = open();
    const rows = await fromKysely(db.selectFrom(TABLE).selectAll(), { db }).fetch({
      order: [{ field: 'id', direction: 'asc', nulls: 'last', unique: true }],
      after: null,
      offset: 0,
      limit: 100,
    });
    expect(rows.map((r) => r.position[0])).toEqual([...IDS].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(rows.map((r) => Object.keys(r.row as object))).toEqual(rows.map(() => ['id', 'n', 'rank']));
    expect(rows.find((r) => (r.row as { n: number }).n === 4)!.row).toEqual({
      id: 9007199254740992,
      n: 4,
      rank: 0,
    });
  });
});
