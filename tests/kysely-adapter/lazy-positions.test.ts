// Issue 15: a cursor page's links need the positions of its first and last rows (and of the rows a
// tie walk passes), not of every row; the Kysely adapter reads a position from its row only when
// asked, and core asks for no more than the links need. Results stay those of eager positions.

import { fromKysely } from '@pagewise/kysely-adapter';
import {
  ApiRequest,
  ConfigurationError,
  CursorPagination,
  type CursorResult,
  type OrderedQuery,
  type OrderTerm,
  paginateCursor,
  type WindowRow,
} from '@pagewise/rest';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Items {
  items: { id: number; created: string; tag: number };
}

const database = new Database(':memory:');
const db = new Kysely<Items>({ dialect: new SqliteDialect({ database }) });

beforeAll(async () => {
  await sql`create table items (id integer primary key not null, created text not null, tag integer)`.execute(
    db,
  );
  // 120 rows, three per `created` value, so orderings without the key have ties.
  for (let id = 1; id <= 120; id += 1) {
    const created = new Date(Date.UTC(2024, 0, 1) + Math.floor(id / 3) * 60_000).toISOString();
    await sql`insert into items values (${id}, ${created}, ${id % 7})`.execute(db);
  }
});

afterAll(async () => {
  await db.destroy();
});

/** `inner` whose rows count the reads of their positions; `eager` reads every one at fetch. */
function counted<Row>(inner: OrderedQuery<Row>, reads: { count: number }, eager = false): OrderedQuery<Row> {
  return {
    adapter: inner.adapter,
    ordering: inner.ordering,
    ordered: inner.ordered,
    uniqueKey: inner.uniqueKey,
    description: inner.description,
    orderBy: (terms: readonly OrderTerm[]) => counted(inner.orderBy(terms), reads, eager),
    count: (options) => inner.count(options),
    fetch: async (window) => {
      const rows = await inner.fetch(window);
      return rows.map((r): WindowRow<Row> => {
        const position = eager ? r.position : null;
        return {
          row: r.row,
          get position() {
            reads.count += 1;
            return position ?? r.position;
          },
        };
      });
    },
  };
}

const request = (cursor: string | null) =>
  new ApiRequest({ url: `http://testserver/items${cursor === null ? '' : `?cursor=${cursor}`}` });
const tokenOf = (link: string | null) => (link === null ? null : new URL(link).searchParams.get('cursor'));

describe.each([
  ['unique ordering', ['-created', '-id'], 'id'],
  ['ties, no unique key', ['-created'], null],
] as const)('%s', (_name, ordering, uniqueKey) => {
  const base = () => fromKysely(db.selectFrom('items').select(['id', 'created']), { db, uniqueKey });

  it('a walk forward and back has the links of eager positions and reads a few positions per page', async () => {
    const pagination = new CursorPagination({ pageSize: 20, ordering: [...ordering] });
    for (const direction of ['next', 'previous'] as const) {
      let cursor: string | null = null;
      // Forward to the end, then back from there.
      if (direction === 'previous') {
        for (;;) {
          const page = await pagination.paginate(base(), request(cursor));
          if (page!.next === null) break;
          cursor = tokenOf(page!.next);
        }
      }
      for (let step = 0; step < 14; step += 1) {
        const lazyReads = { count: 0 };
        const eagerReads = { count: 0 };
        const lazy = await pagination.paginate(counted(base(), lazyReads), request(cursor));
        const eager = await pagination.paginate(counted(base(), eagerReads, true), request(cursor));
        expect(lazy!.rows).toEqual(eager!.rows);
        expect([lazy!.next, lazy!.previous]).toEqual([eager!.next, eager!.previous]);
        // The look-ahead row, the last and the first, plus the rows of ties each walk passes (ties of 3 here).
        expect(lazyReads.count).toBeLessThanOrEqual(uniqueKey === null ? 9 : 3);
        expect(lazyReads.count).toBeLessThan(lazy!.rows.length);
        expect(Object.isFrozen(lazy)).toBe(true);
        cursor = tokenOf(lazy![direction]);
        if (cursor === null) break;
      }
      expect(cursor).toBeNull();
    }
  });

  it('paginateCursor: the same tokens as eager positions, reading a few positions', async () => {
    let cursor: string | null = null;
    for (let step = 0; step < 14; step += 1) {
      const lazyReads = { count: 0 };
      const options = { pageSize: 20, ordering: [...ordering], cursor };
      const lazy: CursorResult<unknown> = await paginateCursor(counted(base(), lazyReads), options);
      const eager = await paginateCursor(counted(base(), { count: 0 }, true), options);
      expect(lazy).toEqual(eager);
      expect(lazyReads.count).toBeLessThanOrEqual(uniqueKey === null ? 9 : 3);
      cursor = lazy.nextCursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
  });
});

it('fetch reads a row position only when asked: a bad value in a row no link stands on is not read', async () => {
  await sql`update items set tag = 'not a number' where id = 2`.execute(db);
  try {
    const query = fromKysely(db.selectFrom('items').select(['id', 'tag']), { db });
    const order = [
      { field: 'id', direction: 'asc', nulls: 'last' },
      { field: 'tag', direction: 'asc', nulls: 'last' },
    ] as const;
    const rows = await query.fetch({ order: [...order], after: null, offset: 0, limit: 3 });
    expect(rows.map((r) => r.row.id)).toEqual([1, 2, 3]);
    expect(rows[0]!.position).toEqual([1, 1]);
    expect(rows[2]!.position).toEqual([3, 3]);
    expect(() => rows[1]!.position).toThrow(ConfigurationError);
    // Read once: the same array again.
    expect(rows[0]!.position).toBe(rows[0]!.position);
  } finally {
    await sql`update items set tag = 2 where id = 2`.execute(db);
  }
});

it('fetchRows answers the rows and positions of fetch, for keyset and offset windows alike', async () => {
  const query = fromKysely(db.selectFrom('items').select(['id', 'created']), { db, uniqueKey: 'id' });
  const order = [
    { field: 'created', direction: 'desc', nulls: 'last' },
    { field: 'id', direction: 'desc', nulls: 'last' },
  ] as const;
  const first = await query.fetch({ order: [...order], after: null, offset: 0, limit: 40 });
  const after = first[30]!.position;
  for (const window of [
    { order: [...order], after, offset: 0, limit: 7 },
    { order: [...order], after, offset: 2, limit: 7 },
    { order: null, after: null, offset: 5, limit: 7 },
  ]) {
    const rows = await query.fetch(window);
    const fetched = await query.fetchRows(window);
    expect(rows).toHaveLength(7);
    expect(fetched.rows).toEqual(rows.map((r) => r.row));
    expect(fetched.rows.map((_, i) => fetched.position(i))).toEqual(rows.map((r) => r.position));
  }
  // Past the window: no position to read.
  const window = await query.fetchRows({ order: [...order], after, offset: 0, limit: 3 });
  expect(() => window.position(3)).toThrow(RangeError);
});
