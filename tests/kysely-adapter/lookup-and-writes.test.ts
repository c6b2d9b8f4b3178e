// The adapter's equality lookup and writes on every SQL database: generated keys (RETURNING on
// Postgres and SQLite, the insert id on MariaDB), type checks before any SQL runs, the slice.
import { ConfigurationError } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DatabaseTarget,
  databaseTargets,
  describeDatabase,
  type TestDatabase,
  tableName,
} from '../support/databases.js';

type Row = Record<string, unknown>;

function lookupCases(target: DatabaseTarget): void {
  const table = tableName(`pw_writes_${target.name}`);
  let database: TestDatabase;
  const statements: string[] = [];

  beforeAll(async () => {
    // Every statement sent, to show that ill-typed lookups send none.
    database = await target.open((event) => {
      if (event.level === 'query') statements.push(event.query.sql);
    });
    await database.db.schema.dropTable(table).ifExists().execute();
    await database.db.schema
      .createTable(table)
      .addColumn('id', database.dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        database.dialect === 'mysql' ? c.primaryKey().autoIncrement() : c.primaryKey(),
      )
      .addColumn('name', 'varchar(50)', (c) => c.notNull())
      .execute();
  });
  afterAll(async () => {
    await database?.db.schema.dropTable(table).ifExists().execute();
    await database?.close();
  });

  const query = () =>
    fromKysely(database.db.selectFrom(table).selectAll().orderBy('id'), { db: database.db });

  it(`[${target.name}] insert answers the row with its generated key; find, update and delete by it`, async () => {
    const ada = (await query().insert({ name: 'Ada' })) as Row;
    const grace = (await query().insert({ name: 'Grace' })) as Row;
    expect(ada.name).toBe('Ada');
    expect(Number(grace.id)).toBe(Number(ada.id) + 1);
    expect(await query().find('id', String(grace.id))).toMatchObject({ name: 'Grace' });
    expect(await query().update('id', String(grace.id), { name: 'Hopper' })).toMatchObject({
      name: 'Hopper',
    });
    expect(await query().find('name', 'Hopper')).toMatchObject({ id: grace.id });
    expect(await query().delete('id', String(ada.id))).toBe(1);
    expect(await query().find('id', String(ada.id))).toBeNull();
    expect(await query().update('id', String(ada.id), { name: 'x' })).toBeNull();
  });

  it(`[${target.name}] a value that cannot be of the column's type finds nothing and sends no SQL`, async () => {
    const q = query();
    await q.find('id', '1'); // reads the catalog once
    statements.length = 0;
    const bits = target.name === 'sqlite' ? ['9223372036854775808'] : ['2147483648', '9223372036854775808'];
    for (const value of ['abc', '1.5', '', ' 1', '1e3', ...bits]) {
      expect([value, await q.find('id', value)]).toEqual([value, null]);
      expect([value, await q.delete('id', value)]).toEqual([value, 0]);
    }
    expect(statements).toEqual([]);
  });

  it(`[${target.name}] accepts tells a value the column's type cannot hold from a key no row has`, async () => {
    const q = query();
    await q.find('id', '1'); // reads the catalog once
    statements.length = 0;
    const past = target.name === 'sqlite' ? '99999999999999999999' : '2147483648';
    for (const value of ['1', '999', '-1', past])
      expect([value, await q.accepts('id', value)]).toEqual([value, true]);
    for (const value of ['abc', '1.5', "1' or 1=1", '', '1e3', '\u0000']) {
      expect([value, await q.accepts('id', value)]).toEqual([value, false]);
    }
    expect(await q.accepts('name', "1' or 1=1")).toBe(true);
    expect(statements).toEqual([]);
  });

  it(`[${target.name}] a sliced builder finds only rows inside its slice`, async () => {
    await query().insert({ name: 'Barbara' });
    await query().insert({ name: 'Edsger' });
    const rows = (await database.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) =>
      String(r.id),
    );
    const sliced = fromKysely(database.db.selectFrom(table).selectAll().orderBy('id').limit(1), {
      db: database.db,
    });
    expect(await sliced.find('id', rows[0]!)).not.toBeNull();
    expect(await sliced.find('id', rows[1]!)).toBeNull();
  });

  it(`[${target.name}] writes need db and one table`, async () => {
    const withoutDb = fromKysely(database.db.selectFrom(table).selectAll());
    await expect(withoutDb.insert({ name: 'x' })).rejects.toThrow(ConfigurationError);
    const joined = fromKysely(
      database.db
        .selectFrom(table)
        .innerJoin(`${table} as other`, 'other.id', `${table}.id`)
        .selectAll(table),
      { db: database.db },
    );
    await expect(joined.insert({ name: 'x' })).rejects.toThrow(/reads several tables/);
  });
}

for (const target of databaseTargets())
  describeDatabase(target, 'kysely lookups and writes', () => lookupCases(target));
