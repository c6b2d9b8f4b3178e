import type { KeyTerm } from '@pagewise/core';
import { fromKysely, mysqlCapabilities } from '@pagewise/kysely-adapter';
import { CompiledQuery, type LogEvent, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { explain } from './plan-suite.js';

// A NULL block on MariaDB where NULLs are many (every fifth row, as in the benchmark's table) and
// the ordering's index is the only one on the nullable column: MariaDB reads
// `score IS NULL AND id < ? ORDER BY id DESC` by `ref` on `score IS NULL`, from the start of the
// NULL block to the bound, every page deeper than the last (5 ms at depth 900k of 1M rows, 50 ms
// at 9M of 10M in `pnpm bench`), unless the statement names the index.

const target = databaseTarget('mariadb');
const ROWS = 30_000;
const ORDER: readonly KeyTerm[] = [
  { field: 'score', direction: 'desc', nulls: 'last' },
  { field: 'id', direction: 'desc', nulls: 'last', unique: true },
];

describeDatabase(target, 'NULL blocks where NULLs are many', () => {
  const table = tableName('pw_null_block');
  const statements: CompiledQuery[] = [];
  let database: TestDatabase;

  beforeAll(async () => {
    database = await target.open((event: LogEvent) => {
      if (event.level === 'query') statements.push(event.query);
    });
    const { db } = database;
    await sql.raw(`drop table if exists \`${table}\``).execute(db);
    await sql
      .raw(
        `create table \`${table}\` (id integer primary key, score integer null, title varchar(20) not null)`,
      )
      .execute(db);
    await sql.raw('set session max_recursive_iterations = 100000').execute(db);
    await sql
      .raw(
        `insert into \`${table}\` with recursive s(n) as (select 1 union all select n + 1 from s where n < ${ROWS})
         select n, case when n % 5 = 0 then null else n % 1000 end, concat('t', n) from s`,
      )
      .execute(db);
    await sql.raw(`create index \`${table}_score_id\` on \`${table}\` (score desc, id desc)`).execute(db);
    await sql.raw(`analyze table \`${table}\``).execute(db);
  });
  afterAll(async () => {
    if (!database) return;
    await sql.raw(`drop table if exists \`${table}\``).execute(database.db);
    await database.close();
  });

  it('a page deep in the NULL block is a range of the ordering index, with the same rows', async () => {
    const query = fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db });
    statements.length = 0;
    const rows = await query.fetch({ order: ORDER, after: [null, 3000], offset: 0, limit: 51 });
    // NULL scores are the multiples of 5, read by descending id below the bound.
    expect(rows.map((r) => r.row.id)).toEqual(Array.from({ length: 51 }, (_, i) => 2995 - 5 * i));
    // The catalog and driver probes of a first fetch come first; the page is one statement.
    const pages = statements.filter((s) => /`score` is null/.test(s.sql));
    expect(pages).toHaveLength(1);
    const statement = pages[0]!;
    expect(statement.sql).toMatch(/`score` is null and `id` < \?/);
    const [plan] = await explain(database, statement);
    console.log(`EXPLAIN mariadb | NULL block, NULLs every fifth row | ${plan}`);
    expect(plan).toMatch(new RegExp(`^type=range key=${table}_score_id `));
  });

  it('a page of the NULL block from a filtered query is left to the optimizer, and right', async () => {
    const filtered = database.db.selectFrom(table).selectAll().where('title', '<>', 't2990');
    const query = fromKysely(filtered, { db: database.db });
    statements.length = 0;
    const rows = await query.fetch({ order: ORDER, after: [null, 3000], offset: 0, limit: 3 });
    expect(rows.map((r) => r.row.id)).toEqual([2995, 2985, 2980]);
    const page = statements.find((s) => /`score` is null/.test(s.sql));
    expect(page?.sql).not.toMatch(/force index/);
  });

  it('a catalog that cannot list the indexes leaves the page without a hint, and right', async () => {
    const unreadable = { ...mysqlCapabilities, indexQuery: () => sql<never>`select * from pw_no_such_table` };
    // A Kysely instance of its own: the indexes read once are kept per instance.
    const own: CompiledQuery[] = [];
    const fresh = await target.open((event: LogEvent) => {
      if (event.level === 'query') own.push(event.query);
    });
    try {
      const query = fromKysely(fresh.db.selectFrom(table).selectAll(), { db: fresh.db, dialect: unreadable });
      const rows = await query.fetch({ order: ORDER, after: [null, 3000], offset: 0, limit: 2 });
      expect(rows.map((r) => r.row.id)).toEqual([2995, 2990]);
      const page = own.find((s) => /`score` is null/.test(s.sql));
      expect(page?.sql).not.toMatch(/force index/);
    } finally {
      await fresh.close();
    }
  });

  it('EXPLAINs a statement as sent (the check reads the plan of real SQL)', async () => {
    const plan = await explain(
      database,
      CompiledQuery.raw(`select * from \`${table}\` where id < ? order by id desc limit 1`, [10]),
    );
    expect(plan[0]).toMatch(/^type=range key=PRIMARY /);
  });
});
