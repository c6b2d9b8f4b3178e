import { connectionFromQuery, cursorPage, paginateCursor } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 31: '-created_at' and ['-created_at', '-id'] both page by `created_at desc, id desc`, so
// their cursors must be one and the same: cursors are keyed by the effective ordering, the
// tiebreaker included, however it was written.

interface Row {
  id: number;
  created_at: string;
}
const rows: Row[] = Array.from({ length: 30 }, (_, i) => ({
  id: i + 1,
  created_at: `2024-01-0${(i % 5) + 1}`,
}));
const db = new Kysely<{ items: Row }>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

beforeAll(async () => {
  await sql`create table items (id integer primary key, created_at text not null)`.execute(db);
  await db.insertInto('items').values(rows).execute();
});
afterAll(() => db.destroy());

const backends = {
  memory: () => fromArray(rows, { uniqueKey: 'id' }),
  sqlite: () => fromKysely(db.selectFrom('items').selectAll(), { db }),
};

describe('the same ordering written two ways mints the same cursors', () => {
  for (const [name, query] of Object.entries(backends)) {
    it(`[${name}] paginateCursor, cursorPage, CursorPagination and connectionFromQuery interchange their tokens`, async () => {
      const short = await paginateCursor(query(), { pageSize: 7, ordering: '-created_at' });
      const long = await paginateCursor(query(), { pageSize: 7, ordering: ['-created_at', '-id'] });
      expect(long.nextCursor).toBe(short.nextCursor);
      const fromShort = await paginateCursor(query(), {
        pageSize: 7,
        ordering: ['-created_at', '-id'],
        cursor: short.nextCursor,
      });
      const fromLong = await paginateCursor(query(), {
        pageSize: 7,
        ordering: '-created_at',
        cursor: long.nextCursor,
      });
      expect(fromShort.results).toEqual(fromLong.results);
      // The REST feed written one way and the GraphQL connection the other, as the docs promise.
      const page = await cursorPage(query(), 'http://testserver/items', {
        pageSize: 7,
        ordering: '-created_at',
      });
      const connection = await connectionFromQuery(
        query(),
        { first: 7, after: new URL(page.next!).searchParams.get('cursor') },
        { ordering: ['-created_at', '-id'] },
      );
      expect(connection.edges.map((edge) => edge.node.id)).toEqual(fromShort.results.map((row) => row.id));
      const drf = await new CursorPagination({ pageSize: 7, ordering: ['-created_at', '-id'] }).paginate(
        query(),
        new ApiRequest({ url: page.next! }),
      );
      expect(drf!.rows).toEqual(fromShort.results);
    });
  }
});
