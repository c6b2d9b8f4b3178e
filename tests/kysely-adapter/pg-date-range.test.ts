// Issue 29, part 3: a Postgres `date` goes on to 5874897 AD, where `timestamptz` stops at 294276:
// positions of a date never go through a timestamp (`to_char` has no `date` form and cast it to
// `timestamptz`, which failed with date2timestamptz_opt_overflow). The type matrix walks every
// type's range; this file holds what it cannot: a session DateStyle other than ISO, and an
// expression declared `timestamp-text` without a catalog type.

import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
type Db = Kysely<any>;

const DAYS = [
  '5874897-12-31',
  '5874897-12-30',
  '294277-01-01',
  '294276-12-31',
  '275760-09-14',
  '2024-02-29',
  '0001-01-01',
  '0001-12-31 BC',
  '4713-01-01 BC',
  '4714-11-24 BC',
  'infinity',
  '-infinity',
];

/** Ids of a cursor walk by `ordering`, forward at page size 2, then its pages read backward. */
async function walk(db: Db, table: string, ordering: string, columns = {}) {
  const query = fromKysely(db.selectFrom(table).selectAll(), { db, columns });
  const page = async (url: string) => {
    const pagination = new CursorPagination({ pageSize: 2, ordering });
    const rows = await pagination.paginateQueryset(query, new ApiRequest({ url }));
    return {
      ids: (rows ?? []).map((r) => Number(r.id)),
      next: pagination.getNextLink(),
      previous: pagination.getPreviousLink(),
    };
  };
  const forward: number[][] = [];
  let url: string | null = 'http://testserver/';
  let last: Awaited<ReturnType<typeof page>> | undefined;
  while (url !== null && forward.length < 50) {
    last = await page(url);
    forward.push(last.ids);
    url = last.next;
  }
  const backward: number[][] = [];
  url = last?.previous ?? null;
  while (url !== null && backward.length < 50) {
    const previous = await page(url);
    backward.push(previous.ids);
    url = previous.previous;
  }
  return { forward, backward };
}

async function databaseOrder(db: Db, table: string, orderBy: string): Promise<number[]> {
  const { rows } = await sql.raw<{ id: number }>(`select id from ${table} order by ${orderBy}`).execute(db);
  return rows.map((r) => Number(r.id));
}

for (const name of ['postgres', 'pglite'] as const) {
  const target = databaseTarget(name);
  describeDatabase(target, 'the full range of date', () => {
    const table = tableName(`pw_date_range_${name}`);
    let database: TestDatabase;
    beforeAll(async () => {
      database = await target.open();
      await sql.raw(`drop table if exists ${table}`).execute(database.db);
      await sql
        .raw(`create table ${table} (id integer primary key, day date not null, at timestamptz not null)`)
        .execute(database.db);
      const rows = DAYS.map((day, i) => `(${i + 1}, '${day}', '2024-05-01 12:00:00.00000${i % 4}+00')`);
      await sql.raw(`insert into ${table} values ${rows.join(', ')}`).execute(database.db);
    });
    afterAll(async () => {
      await sql.raw(`drop table if exists ${table}`).execute(database.db);
      await database.close();
    });

    it('walks a date column from 4714-11-24 BC to 5874897-12-31 both ways, in any DateStyle', async () => {
      const { db } = database;
      for (const [ordering, orderBy] of [
        ['day', 'day, id'],
        ['-day', 'day desc, id desc'],
      ] as const) {
        const expected = await databaseOrder(db, table, orderBy);
        expect(expected).toHaveLength(DAYS.length);
        // One connection, so the session's DateStyle is the one every page runs in.
        await db.connection().execute(async (connection) => {
          for (const style of ['ISO, MDY', 'SQL, DMY', 'German', 'Postgres, MDY']) {
            await sql.raw(`set DateStyle = '${style}'`).execute(connection);
            const { forward, backward } = await walk(connection, table, ordering);
            expect(forward.flat(), `${ordering} ${style}`).toEqual(expected);
            expect(backward, `${ordering} ${style}, backward`).toEqual(forward.slice(0, -1).reverse());
          }
          await sql.raw(`set DateStyle = 'ISO, MDY'`).execute(connection);
        });
      }
    });

    it("keeps the time of an expression declared 'timestamp-text' without a catalog type", async () => {
      // Four microseconds of one day: positions cut to the date would bound every row alike.
      const expected = await databaseOrder(database.db, table, 'at desc, id desc');
      const { forward, backward } = await walk(database.db, table, '-at', { at: 'timestamp-text' });
      expect(forward.flat()).toEqual(expected);
      expect(backward).toEqual(forward.slice(0, -1).reverse());
    });
  });
}
