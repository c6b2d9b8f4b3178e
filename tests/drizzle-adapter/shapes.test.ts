import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { ApiRequest, CursorPagination, type OrderedQuery } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A handler builds its select anew on every request: builders of one shape (the same table,
// selection and ordering, the WHERE the same but for its values) share their statements, each
// run with its own values; anything else gets statements of its own.

const items = sqliteTable('shape_items', {
  id: integer('id').primaryKey(),
  kind: integer('kind').notNull(),
  title: text('title').notNull(),
});

let sqlite: Database.Database;
let db: BetterSQLite3Database;
let prepared = 0;

beforeAll(() => {
  sqlite = new Database(':memory:');
  sqlite.exec(
    'create table shape_items (id integer primary key, kind integer not null, title text not null)',
  );
  const insert = sqlite.prepare('insert into shape_items values (?, ?, ?)');
  for (let id = 1; id <= 30; id += 1) insert.run(id, id % 3, `t${id}`);
  db = drizzle(sqlite);
  // Every statement the adapter builds is prepared through the db's session: count them.
  const session = (db as unknown as { session: { prepareQuery: (...args: unknown[]) => unknown } }).session;
  const prepare = session.prepareQuery.bind(session);
  session.prepareQuery = (...args: unknown[]) => {
    prepared += 1;
    return prepare(...args);
  };
});
afterAll(() => sqlite.close());

// biome-ignore lint/suspicious/noExplicitAny: rows of any selection.
async function page(query: OrderedQuery<any>, url = 'http://testserver/items/') {
  const pagination = new CursorPagination({ pageSize: 4, ordering: '-id' });
  const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
  return { ids: rows.map((row) => (row as { id: number }).id), next: pagination.getNextLink() };
}

const ofKind = (kind: number) => fromDrizzle(db.select().from(items).where(eq(items.kind, kind)), { db });

describe('builders of one shape', () => {
  it('run the statements of the first with their own WHERE values, preparing none', async () => {
    const first = await page(ofKind(0));
    expect(first.ids).toEqual([30, 27, 24, 21]);
    const second = await page(ofKind(0), first.next!);
    expect(second.ids).toEqual([18, 15, 12, 9]);
    const before = prepared;
    // Another request, another value: the same statements, its own rows.
    const other = await page(ofKind(1));
    expect(other.ids).toEqual([28, 25, 22, 19]);
    const otherNext = await page(ofKind(1), other.next!);
    expect(otherNext.ids).toEqual([16, 13, 10, 7]);
    expect(prepared - before).toBe(0);
  });

  it('count and find with their own values; count keys differ by value', async () => {
    const a = ofKind(2);
    const b = fromDrizzle(
      db
        .select()
        .from(items)
        .where(and(eq(items.kind, 2), lt(items.id, 10))),
      { db },
    );
    expect((await a.count()).value).toBe(10);
    expect((await b.count()).value).toBe(3);
    expect((await ofKind(1).count()).value).toBe(10);
    expect(a.countKey()).not.toBe(ofKind(1).countKey());
    expect(a.countKey()).toBe(ofKind(2).countKey());
    expect(await ofKind(2).find('id', '5')).toMatchObject({ id: 5, kind: 2 });
    expect(await ofKind(1).find('id', '5')).toBeNull();
  });

  it('a WHERE of another form, a list of another length or a value of another type is a shape of its own', async () => {
    expect((await page(fromDrizzle(db.select().from(items).where(gt(items.kind, 1)), { db }))).ids).toEqual([
      29, 26, 23, 20,
    ]);
    expect(
      (
        await page(
          fromDrizzle(
            db
              .select()
              .from(items)
              .where(inArray(items.id, [3, 5])),
            { db },
          ),
        )
      ).ids,
    ).toEqual([5, 3]);
    expect(
      (
        await page(
          fromDrizzle(
            db
              .select()
              .from(items)
              .where(inArray(items.id, [3, 5, 7])),
            { db },
          ),
        )
      ).ids,
    ).toEqual([7, 5, 3]);
    expect(
      (await page(fromDrizzle(db.select().from(items).where(sql`${items.title} = ${'t4'}`), { db }))).ids,
    ).toEqual([4]);
    expect(
      (await page(fromDrizzle(db.select().from(items).where(sql`${items.id} = ${6}`), { db }))).ids,
    ).toEqual([6]);
  });

  it('values written into the text are never shared', async () => {
    const inline = (kind: number) =>
      fromDrizzle(
        db
          .select()
          .from(items)
          .where(sql`${items.kind} = ${sql.raw(String(kind))}`),
        { db },
      );
    expect((await page(inline(0))).ids).toEqual([30, 27, 24, 21]);
    expect((await page(inline(1))).ids).toEqual([28, 25, 22, 19]);
    const inlined = (kind: number) =>
      fromDrizzle(db.select().from(items).where(sql`${items.kind} = ${kind}`.inlineParams()), { db });
    expect((await page(inlined(0))).ids).toEqual([30, 27, 24, 21]);
    expect((await page(inlined(2))).ids).toEqual([29, 26, 23, 20]);
  });

  it('a partial selection and a builder without WHERE share by their own shape', async () => {
    const partial = () => fromDrizzle(db.select({ id: items.id }).from(items), { db });
    expect((await page(partial())).ids).toEqual([30, 29, 28, 27]);
    const before = prepared;
    expect((await page(partial())).ids).toEqual([30, 29, 28, 27]);
    expect(prepared - before).toBe(0);
  });
});
