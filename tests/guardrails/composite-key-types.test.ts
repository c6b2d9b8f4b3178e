import { type DrizzleQueryOptions, fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely, type KyselyQueryOptions } from '@pagewise/kysely-adapter';
import { type ArrayQueryOptions, fromArray } from '@pagewise/memory-adapter';
import { ConfigurationError, cursorPage } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, expectTypeOf, it } from 'vitest';

// Composite unique keys (issue 38 §3) as the type checker sees them (`pnpm typecheck` compiles
// this file): a list of names compiles on every adapter, mutable or readonly; anything else is a
// compile error. Names are checked at run time, as single keys are (no adapter types a key's
// name against the rows: an unknown one is a ConfigurationError naming it).

const orders = sqliteTable(
  'orders',
  { tenantId: integer('tenant_id').notNull(), id: integer('id').notNull(), item: text('item').notNull() },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

interface DB {
  orders: { tenant_id: number; id: number; item: string };
}

const ROWS = [
  { tenant_id: 1, id: 1, item: 'a' },
  { tenant_id: 2, id: 1, item: 'a' },
  { tenant_id: 1, id: 2, item: 'b' },
  { tenant_id: 2, id: 2, item: 'a' },
];

function database() {
  const sqlite = new Database(':memory:');
  sqlite.exec(
    'create table orders (tenant_id integer not null, id integer not null, item text not null, primary key (tenant_id, id))',
  );
  const insert = sqlite.prepare('insert into orders values (?, ?, ?)');
  for (const row of ROWS) insert.run(row.tenant_id, row.id, row.item);
  return sqlite;
}

describe('uniqueKey: string | readonly string[]', () => {
  it('a list of names compiles on every adapter, as a literal, a readonly tuple and a string[]', async () => {
    const sqlite = database();
    const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    const db = drizzle(sqlite);
    const names: string[] = ['tenant_id', 'id'];
    const tuple = ['tenant_id', 'id'] as const;
    const queries = [
      fromArray(ROWS, { uniqueKey: ['tenant_id', 'id'] }),
      fromArray(ROWS, { uniqueKey: tuple }),
      fromKysely(kysely.selectFrom('orders').selectAll(), { db: kysely, uniqueKey: ['tenant_id', 'id'] }),
      fromKysely(kysely.selectFrom('orders').selectAll(), { db: kysely, uniqueKey: names }),
    ];
    for (const query of queries) {
      expect(query.uniqueKey).toBeNull();
      expect(query.uniqueKeys).toEqual(['tenant_id', 'id']);
      const page = await cursorPage(query, 'http://testserver/', { pageSize: 2, ordering: 'item' });
      expect(page.rows.map((r) => [r.tenant_id, r.id])).toEqual([
        [1, 1],
        [2, 1],
      ]);
    }
    const explicit = fromDrizzle(db.select().from(orders), { db, uniqueKey: ['tenantId', 'id'] });
    const schema = fromDrizzle(db.select().from(orders), { db });
    for (const query of [explicit, schema]) {
      expect(query.uniqueKeys).toEqual(['tenantId', 'id']);
      const page = await cursorPage(query, 'http://testserver/', { pageSize: 3, ordering: '-item' });
      expect(page.rows.map((r) => [r.tenantId, r.id])).toEqual([
        [1, 2],
        [2, 2],
        [2, 1],
      ]);
    }
    expectTypeOf<['tenant_id', 'id']>().toExtend<NonNullable<ArrayQueryOptions<unknown>['uniqueKey']>>();
    expectTypeOf<readonly string[]>().toExtend<NonNullable<KyselyQueryOptions['uniqueKey']>>();
    expectTypeOf<readonly string[]>().toExtend<NonNullable<DrizzleQueryOptions['uniqueKey']>>();
    sqlite.close();
  });

  it('anything but a name or a list of names is a compile error, and refused at run time', () => {
    const sqlite = database();
    const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    const db = drizzle(sqlite);
    const from = kysely.selectFrom('orders').selectAll();
    // @ts-expect-error a key names columns: numbers are no names
    expect(() => fromKysely(from, { db: kysely, uniqueKey: [1, 2] })).toThrow(ConfigurationError);
    // @ts-expect-error nor is a number
    expect(() => fromArray(ROWS, { uniqueKey: 7 })).toThrow(ConfigurationError);
    // @ts-expect-error nor a list of lists
    expect(() => fromDrizzle(db.select().from(orders), { db, uniqueKey: [['tenantId', 'id']] })).toThrow(
      ConfigurationError,
    );
    expect(() => fromKysely(from, { db: kysely, uniqueKey: [] })).toThrow(/list of distinct column names/);
    expect(() => fromArray(ROWS, { uniqueKey: ['id', 'id'] })).toThrow(/list of distinct field names/);
    sqlite.close();
  });

  it("a composite-keyed Kysely query's insert is refused: its row could not be read back by one column", async () => {
    const sqlite = database();
    const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    const query = fromKysely(kysely.selectFrom('orders').selectAll(), {
      db: kysely,
      uniqueKey: ['tenant_id', 'id'],
    });
    await expect(query.insert({ tenant_id: 3, id: 1, item: 'c' })).rejects.toThrow(
      /insert needs a one-column unique key to read the row back; this query's is \["tenant_id", "id"\]/,
    );
    expect(sqlite.prepare('select count(*) as n from orders').get()).toEqual({ n: ROWS.length });
    sqlite.close();
  });

  it('an unknown key column is refused at run time, naming it, as an unknown single key is', async () => {
    const sqlite = database();
    const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    const query = fromKysely(kysely.selectFrom('orders').selectAll(), {
      db: kysely,
      uniqueKey: ['tenant', 'id'],
    });
    await expect(cursorPage(query, 'http://testserver/', { pageSize: 2, ordering: 'item' })).rejects.toThrow(
      /"tenant"/,
    );
    await expect(
      cursorPage(fromArray(ROWS, { uniqueKey: ['tenant', 'id'] }), 'http://testserver/', {
        pageSize: 2,
        ordering: 'item',
      }),
    ).rejects.toThrow(/unknown field "tenant"/);
    sqlite.close();
  });
});
