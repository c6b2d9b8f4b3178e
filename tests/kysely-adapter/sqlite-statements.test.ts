import { fromKysely, reusePreparedStatements } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { expect, it } from 'vitest';

interface Items {
  items: { id: number; name: string };
}

/** A real in-memory database whose `prepare` calls are counted. */
function countingDatabase() {
  const database = new Database(':memory:');
  const prepare = database.prepare.bind(database);
  const counter = { prepared: 0 };
  database.prepare = ((text: string) => {
    counter.prepared += 1;
    return prepare(text);
  }) as typeof database.prepare;
  return { database, counter };
}

it('reusePreparedStatements: a page statement is prepared once, then rerun with new values', async () => {
  const { database, counter } = countingDatabase();
  const db = new Kysely<Items>({
    dialect: new SqliteDialect({ database: reusePreparedStatements(database) }),
  });
  await sql`create table items (id integer primary key not null, name text not null)`.execute(db);
  await sql`insert into items values (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')`.execute(db);
  const order = [{ field: 'id', direction: 'asc' as const, nulls: 'last' as const }];
  const page = async (after: number) =>
    (
      await fromKysely(db.selectFrom('items').selectAll(), { db }).fetch({
        order,
        after: [after],
        offset: 0,
        limit: 2,
      })
    ).map((r) => r.row.id);
  expect(await page(0)).toEqual([1, 2]);
  const before = counter.prepared;
  expect(await page(2)).toEqual([3, 4]);
  expect(await page(1)).toEqual([2, 3]);
  expect(counter.prepared).toBe(before);
  await db.destroy();
  expect(database.open).toBe(false);
});

it('reusePreparedStatements: a statement busy iterating is not handed out again; the oldest goes past max', () => {
  const { database, counter } = countingDatabase();
  const reusing = reusePreparedStatements(database, { max: 2 });
  database.exec(
    `create table items (id integer primary key not null, name text not null); insert into items values (1, 'a'), (2, 'b')`,
  );
  const text = 'select id from items order by id';
  const iterating = reusing.prepare(text).iterate([]);
  expect(iterating.next().value).toEqual({ id: 1 });
  // Kysely's one connection never does this, but a stream left open must not break the next query.
  expect(reusing.prepare(text).all([])).toEqual([{ id: 1 }, { id: 2 }]);
  iterating.return?.();
  expect(reusing.prepare(text)).toBe(reusing.prepare(text));
  const prepared = counter.prepared;
  reusing.prepare('select id from items');
  reusing.prepare('select name from items');
  reusing.prepare(text); // pushed out by the two above (max 2): prepared again
  expect(counter.prepared).toBe(prepared + 3);
  reusing.close();
  expect(database.open).toBe(false);
});
