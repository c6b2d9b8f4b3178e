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

  it('offset windows reuse one statement per ordering, offset and limit kind, each with its own clauses', async () => {
    // Built once per key and looked up afterwards: a lookup that ignored the ordering, whether there
    // is an offset, or whether there is a limit would answer another window's statement.
    const byName = () => fromKysely(db.selectFrom('items').selectAll().orderBy('name', 'desc'), { db });
    const byId = () => fromKysely(db.selectFrom('items').selectAll().orderBy('id', 'desc'), { db });
    const windows = [
      [byName, 0, 2, [3, 2]],
      [byName, 1, 2, [2, 1]],
      [byName, 0, null, [3, 2, 1]],
      [byName, 2, null, [1]],
      [byId, 0, 2, [3, 2]],
      [byId, 1, null, [2, 1]],
    ] as const;
    const statements = new Map<string, string>();
    for (const round of [0, 1, 2]) {
      for (const [build, offset, limit, ids] of round === 1 ? [...windows].reverse() : windows) {
        sent = [];
        const rows = await build().fetch({ order: null, after: null, offset, limit });
        expect(rows.map((r) => r.row.id)).toEqual(ids);
        const page = sent.at(-1)!;
        expect(page).toMatch(build === byName ? /order by "name" desc/ : /order by "id" desc/);
        expect(page.includes('offset')).toBe(offset > 0);
        expect(page.includes('limit')).toBe(limit !== null || offset > 0);
        const key = `${build === byName}|${offset}|${limit}`;
        if (round === 0) statements.set(key, page);
        else expect(page).toBe(statements.get(key));
      }
    }
  });
});
