import { fromKysely, StatementCache } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The statement cache is an object someone owns, not module state: by default the Kysely
// instance's (shared by its `withPlugin` copies), or the one passed as `statementCache`. What it
// keeps shows in the SQL sent: a query whose cache already read the table's catalog sends only
// its page, one with a fresh cache reads the catalog again.

interface Items {
  items: { id: number; name: string };
}

let sent: string[] = [];
const newDb = () =>
  new Kysely<Items>({
    dialect: new SqliteDialect({ database: new Database(':memory:') }),
    log: (event) => {
      if (event.level === 'query') sent.push(event.query.sql);
    },
  });
const db = newDb();
const order = [{ field: 'id', direction: 'asc' as const, nulls: 'last' as const }];
const page = { order, after: [1], offset: 0, limit: 2 };

/** The statements one keyset page of `items` sends. */
async function sentFor(
  query: ReturnType<typeof fromKysely<Items, 'items', Items['items']>>,
): Promise<string[]> {
  sent = [];
  const rows = await query.fetch(page);
  expect(rows.map((r) => r.row.id)).toEqual([2, 3]);
  return sent;
}

beforeAll(async () => {
  await sql`create table items (id integer primary key not null, name text not null)`.execute(db);
  await sql`insert into items values (1, 'a'), (2, 'b'), (3, 'c')`.execute(db);
});
afterAll(() => db.destroy());

describe('statement cache', () => {
  it('is owned by the Kysely instance: its copies share it, another instance has its own', () => {
    const own = StatementCache.of(db);
    expect(StatementCache.of(db)).toBe(own);
    expect(
      StatementCache.of(
        db.withPlugin({ transformQuery: (a) => a.node, transformResult: async (a) => a.result }),
      ),
    ).toBe(own);
    expect(StatementCache.of(newDb())).not.toBe(own);
    expect(StatementCache.of(undefined)).not.toBe(StatementCache.of(undefined));
  });

  it('a query built afresh on the same db reads the catalog once', async () => {
    const build = () => fromKysely(db.selectFrom('items').selectAll(), { db });
    const first = await sentFor(build());
    expect(first.some((s) => s.includes('pragma_table_info') || s.includes('table_info'))).toBe(true);
    expect(await sentFor(build())).toHaveLength(1);
  });

  it('an explicit cache is used instead: a fresh one reads the catalog again, a shared one does not', async () => {
    const statementCache = new StatementCache();
    const build = () => fromKysely(db.selectFrom('items').selectAll(), { db, statementCache });
    expect((await sentFor(build())).length).toBeGreaterThan(1);
    expect(await sentFor(build())).toHaveLength(1);
    expect(StatementCache.of(db)).not.toBe(statementCache);
  });
});
