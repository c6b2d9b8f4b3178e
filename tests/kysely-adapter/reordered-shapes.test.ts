import type { OrderedQuery, OrderTerm } from '@pagewise/core';
import { fromKysely, StatementCache } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// An ordering filter calls `orderBy` on the same query every request. The reordered statement is
// kept per query shape and terms, so the second request neither rebuilds nor writes it out. A
// kept statement must never stand in for another: every reordering here is compared with the
// same one built on a fresh cache (its `countKey` holds the statement's text and values) and with
// the rows it pages.

interface Items {
  items: { id: number; name: string; note: string | null };
}

const db = new Kysely<Items>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

beforeAll(async () => {
  await sql`create table items (id integer primary key not null, name text not null, note text)`.execute(db);
  await sql`insert into items values (1, 'c', 'x'), (2, 'a', null), (3, 'b', 'y'), (4, 'a', 'z')`.execute(db);
});
afterAll(() => db.destroy());
afterEach(() => vi.restoreAllMocks());

const byNameDesc: OrderTerm[] = [{ field: 'name', direction: 'desc' }];
const byIdAsc: OrderTerm[] = [{ field: 'id', direction: 'asc' }];
const byIdDesc: OrderTerm[] = [{ field: 'id', direction: 'desc' }];
const noteFirst: OrderTerm[] = [{ field: 'note', direction: 'asc', nulls: 'first' }];
const noteLast: OrderTerm[] = [{ field: 'note', direction: 'asc', nulls: 'last' }];
const noteUnsaid: OrderTerm[] = [{ field: 'note', direction: 'asc' }];
const nameThenId: OrderTerm[] = [
  { field: 'name', direction: 'asc' },
  { field: 'id', direction: 'desc' },
];

const bases = {
  all: () => db.selectFrom('items').selectAll(),
  nameA: () => db.selectFrom('items').selectAll().where('name', '=', 'a'),
  nameB: () => db.selectFrom('items').selectAll().where('name', '=', 'b'),
  idAbove: () => db.selectFrom('items').selectAll().where('id', '>', 1),
  idsOnly: () => db.selectFrom('items').select(['id', 'name']),
};

/** The offset page of every row, in the query's ordering, by ids. */
async function ids(query: OrderedQuery<unknown>): Promise<number[]> {
  const rows = await query.fetch({ order: null, after: null, offset: 0, limit: 10 });
  return rows.map((r) => (r.row as { id: number }).id);
}

describe('orderBy keeps the reordered statement per shape and terms', () => {
  it('a second reordering of the same query by equal terms builds and remembers no new shape', () => {
    const query = fromKysely(bases.all(), { db });
    query.orderBy([{ field: 'name', direction: 'desc' }]).countKey();
    const remember = vi.spyOn(StatementCache.prototype, 'remember');
    const again = query.orderBy([{ field: 'name', direction: 'desc' }]);
    again.countKey();
    // A query built afresh from the same builder is recognised, and so is its reordering.
    fromKysely(bases.all(), { db })
      .orderBy([{ field: 'name', direction: 'desc' }])
      .countKey();
    expect(remember).not.toHaveBeenCalled();
    expect(again.ordering).toEqual([{ field: 'name', direction: 'desc' }]);
  });

  it('never answers one base query or one ordering with another: statements and rows match a fresh cache', async () => {
    const orderings = [byNameDesc, byIdAsc, byIdDesc, noteFirst, noteLast, noteUnsaid, nameThenId];
    // Twice over, so the second pass is answered from what the first kept.
    for (let pass = 0; pass < 2; pass += 1) {
      for (const [name, base] of Object.entries(bases)) {
        for (const terms of orderings) {
          const kept = fromKysely(base(), { db }).orderBy(terms);
          const fresh = fromKysely(base(), { db, statementCache: new StatementCache() }).orderBy(terms);
          expect(kept.countKey(), `${name} by ${JSON.stringify(terms)}`).toBe(fresh.countKey());
          expect(kept.ordering).toEqual(terms);
          expect(await ids(kept), `${name} by ${JSON.stringify(terms)}`).toEqual(await ids(fresh));
        }
      }
    }
  });

  it('pages each ordering by its own terms after the others were kept', async () => {
    const query = fromKysely(bases.all(), { db });
    for (let pass = 0; pass < 2; pass += 1) {
      expect(await ids(query.orderBy(byNameDesc))).toEqual([1, 3, 2, 4]);
      expect(await ids(query.orderBy(byIdDesc))).toEqual([4, 3, 2, 1]);
      expect(await ids(query.orderBy(noteFirst))).toEqual([2, 1, 3, 4]);
      expect(await ids(query.orderBy(noteLast))).toEqual([1, 3, 4, 2]);
    }
  });

  it('the same shape with other values reorders with its own values', async () => {
    for (let pass = 0; pass < 2; pass += 1) {
      expect(await ids(fromKysely(bases.nameA(), { db }).orderBy(byIdDesc))).toEqual([4, 2]);
      expect(await ids(fromKysely(bases.nameB(), { db }).orderBy(byIdDesc))).toEqual([3]);
      expect(await ids(fromKysely(bases.idAbove(), { db }).orderBy(byIdAsc))).toEqual([2, 3, 4]);
    }
  });
});
