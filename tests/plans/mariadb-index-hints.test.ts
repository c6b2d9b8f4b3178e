import type { KeyTerm } from '@pagewise/core';
import { fromKysely, mysqlCapabilities } from '@pagewise/kysely-adapter';
import { raw } from '@pagewise/sql';
import { CompiledQuery, type LogEvent, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { explain } from './plan-suite.js';

// MariaDB prefers `ref` on an equality over a range of more columns of the same index, and reads
// by it from the start of the equal rows to the bound; the adapter names the index where that
// would make a page cost what the rows before it do (`FORCE INDEX`, `indexQuery`).
//
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

/**
 * A table seeded for one describe block: `columns` filled by `select n, <values> from` the numbers
 * 1 to `rows`, with `indexes` (`name suffix: columns`), analyzed; dropped afterwards. The database
 * logs every statement into `statements`, failed ones included.
 */
function seededTable(
  base: string,
  columns: string,
  rows: number,
  values: string,
  indexes: Record<string, string>,
): { readonly table: string; readonly statements: CompiledQuery[]; readonly database: TestDatabase } {
  const table = tableName(base);
  const statements: CompiledQuery[] = [];
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    // Statements that failed too: a page may try one and read again.
    database = await target.open((event: LogEvent) => {
      statements.push(event.query);
    });
    const { db } = database;
    await sql.raw(`drop table if exists \`${table}\``).execute(db);
    await sql.raw(`create table \`${table}\` (${columns})`).execute(db);
    await sql.raw('set session max_recursive_iterations = 100000').execute(db);
    await sql
      .raw(
        `insert into \`${table}\` with recursive s(n) as (select 1 union all select n + 1 from s where n < ${rows})
         select n, ${values} from s`,
      )
      .execute(db);
    for (const [name, parts] of Object.entries(indexes)) {
      await sql.raw(`create index \`${table}_${name}\` on \`${table}\` (${parts})`).execute(db);
    }
    await sql.raw(`analyze table \`${table}\``).execute(db);
  });
  afterAll(async () => {
    if (!database) return;
    await sql.raw(`drop table if exists \`${table}\``).execute(database.db);
    await database.close();
  });
  return {
    table,
    statements,
    get database() {
      return database!;
    },
  };
}

describeDatabase(target, 'NULL blocks where NULLs are many', () => {
  const seeded = seededTable(
    'pw_null_block',
    'id integer primary key, score integer null, title varchar(20) not null',
    ROWS,
    "case when n % 5 = 0 then null else n % 1000 end, concat('t', n)",
    { score_id: 'score desc, id desc' },
  );
  const { table, statements } = seeded;

  it('a page deep in the NULL block is a range of the ordering index, with the same rows', async () => {
    const query = fromKysely(seeded.database.db.selectFrom(table).selectAll(), { db: seeded.database.db });
    statements.length = 0;
    const rows = await query.fetch({ order: ORDER, after: [null, 3000], offset: 0, limit: 51 });
    // NULL scores are the multiples of 5, read by descending id below the bound.
    expect(rows.map((r) => r.row.id)).toEqual(Array.from({ length: 51 }, (_, i) => 2995 - 5 * i));
    // The catalog and driver probes of a first fetch come first; the page is one statement.
    const pages = statements.filter((s) => /`score` is null/.test(s.sql));
    expect(pages).toHaveLength(1);
    const statement = pages[0]!;
    expect(statement.sql).toMatch(/`score` is null and `id` < \?/);
    const [plan] = await explain(seeded.database, statement);
    console.log(`EXPLAIN mariadb | NULL block, NULLs every fifth row | ${plan}`);
    expect(plan).toMatch(new RegExp(`^type=range key=${table}_score_id `));
  });

  it('a page of the NULL block from a filtered query is left to the optimizer, and right', async () => {
    const filtered = seeded.database.db.selectFrom(table).selectAll().where('title', '<>', 't2990');
    const query = fromKysely(filtered, { db: seeded.database.db });
    statements.length = 0;
    const rows = await query.fetch({ order: ORDER, after: [null, 3000], offset: 0, limit: 3 });
    expect(rows.map((r) => r.row.id)).toEqual([2995, 2985, 2980]);
    const page = statements.find((s) => /`score` is null/.test(s.sql));
    expect(page?.sql).not.toMatch(/force index/);
  });

  it('a catalog that cannot list the indexes leaves the page without a hint, and right', async () => {
    const unreadable = { ...mysqlCapabilities, indexQuery: () => raw('select * from pw_no_such_table') };
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
      seeded.database,
      CompiledQuery.raw(`select * from \`${table}\` where id < ? order by id desc limit 1`, [10]),
    );
    expect(plan[0]).toMatch(/^type=range key=PRIMARY /);
  });
});

// A query filtered by equality (`tenant = ?`, the list of one account) over an index written for
// it, `(tenant, score desc, id desc)`: MariaDB reads a page past the middle of the tenant's rows by
// `ref` on `tenant`, from the tenant's first row to the bound (1.2 ms at 30,000 rows a tenant
// against 0.07 ms for the range; MariaDB's own choice by cost, which changes with the bound), unless
// the statement names the index.
describeDatabase(target, 'queries filtered by equality', () => {
  const seeded = seededTable(
    'pw_tenant_pages',
    'id integer primary key, tenant integer not null, score integer null, deleted tinyint(1) null, title varchar(20) not null',
    60_000,
    "n % 2, case when n % 5 = 0 then null else n % 1000 end, null, concat('t', n)",
    { tenant_score_id: 'tenant, score desc, id desc', score_id: 'score desc, id desc' },
  );
  const { table, statements } = seeded;

  /** The tenant's ids after `[score, id]` in the ordering, as the rows say. */
  async function expectedAfter(tenant: number, score: number, id: number, limit: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} where tenant = ${tenant}
      and score is not null and (score < ${score} or (score = ${score} and id < ${id}))
      order by score desc, id desc limit ${limit}`.execute(seeded.database.db);
    return rows.map((r) => r.id);
  }

  /** The keyset statements sent since `statements` was last emptied (NULL blocks left out). */
  const keysetStatements = () => statements.filter((s) => /`score` <= \?/.test(s.sql));

  it("a page in the middle of one tenant's rows is a range of the tenant's index, with the same rows", async () => {
    const filtered = seeded.database.db.selectFrom(table).selectAll().where('tenant', '=', 0);
    const query = fromKysely(filtered, { db: seeded.database.db });
    statements.length = 0;
    const rows = await query.fetch({ order: ORDER, after: [500, 6000], offset: 0, limit: 51 });
    expect(rows.map((r) => r.row.id)).toEqual(await expectedAfter(0, 500, 6000, 51));
    const pages = keysetStatements();
    expect(pages).toHaveLength(1);
    const [plan] = await explain(seeded.database, pages[0]!);
    console.log(`EXPLAIN mariadb | tenant = ?, -score, -id, bound mid-tenant | ${plan}`);
    expect(plan).toMatch(new RegExp(`^type=range key=${table}_tenant_score_id `));
  });

  it('a filtered column the index does not begin with leaves the statements to the optimizer', async () => {
    const filtered = seeded.database.db
      .selectFrom(table)
      .selectAll()
      .where((eb) => eb.and([eb('deleted', 'is', null), eb(eb.val(0), '=', eb.ref('tenant'))]));
    const query = fromKysely(filtered, { db: seeded.database.db });
    statements.length = 0;
    const rows = await query.fetch({ order: ORDER, after: [500, 6000], offset: 0, limit: 5 });
    expect(rows.map((r) => r.row.id)).toEqual(await expectedAfter(0, 500, 6000, 5));
    // `deleted` is in no index: the tenant's index does not begin with every filtered column.
    expect(keysetStatements()[0]?.sql).not.toMatch(/force index/);
  });

  it('an index dropped while the process runs stops being named, and the page is read without it', async () => {
    const query = () =>
      fromKysely(seeded.database.db.selectFrom(table).selectAll().where('tenant', '=', 1), {
        db: seeded.database.db,
      });
    const page = (after: [number, number]) => query().fetch({ order: ORDER, after, offset: 0, limit: 5 });
    statements.length = 0;
    await page([700, 7001]);
    expect(keysetStatements()[0]?.sql).toMatch(/force index/);
    await sql.raw(`drop index \`${table}_tenant_score_id\` on \`${table}\``).execute(seeded.database.db);
    statements.length = 0;
    const rows = await page([700, 7001]);
    expect(rows.map((r) => r.row.id)).toEqual(await expectedAfter(1, 700, 7001, 5));
    // The hinted statement failed once (1176), then the same page went without the hint.
    const sent = keysetStatements().map((s) => /force index/.test(s.sql));
    expect(sent).toEqual([true, false]);
    statements.length = 0;
    expect((await page([600, 6001])).map((r) => r.row.id)).toEqual(await expectedAfter(1, 600, 6001, 5));
    expect(statements.filter((s) => /force index/.test(s.sql))).toEqual([]);
  });

  it('a filter that is not an equality leaves every statement to the optimizer', async () => {
    const filtered = seeded.database.db.selectFrom(table).selectAll().where('tenant', '<', 1);
    const query = fromKysely(filtered, { db: seeded.database.db });
    statements.length = 0;
    const rows = await query.fetch({ order: ORDER, after: [500, 6000], offset: 0, limit: 5 });
    expect(rows.map((r) => r.row.id)).toEqual(await expectedAfter(0, 500, 6000, 5));
    expect(keysetStatements()[0]?.sql).not.toMatch(/force index/);
  });
});

// A query without WHERE: the keyset bound and the ORDER BY are the whole statement, and the
// ordering's index serves both. MariaDB finds that index by itself, but weighs every index the
// bound could use first (the primary key, each index beginning with the ordering's column) and
// again for the ORDER BY ... LIMIT: `SHOW PROFILE` of the benchmark's page at depth 10k (1M
// rows, two indexes on `created`) spends 48-54 us in Statistics and 41-44 us in Preparing (means
// of 90 statements), against 27-28 and 20-21 us when the statement names the index. The adapter
// names it on every statement.
describeDatabase(target, 'queries without WHERE', () => {
  const seeded = seededTable(
    'pw_unfiltered_pages',
    'id integer primary key, created datetime not null, title varchar(20) not null',
    20_000,
    "timestamp '2024-01-01 00:00:00' + interval (n div 4) second, concat('t', n)",
    { created_id: 'created desc, id desc', created_id_asc: 'created desc, id asc', title: 'title' },
  );
  const { table, statements } = seeded;
  const CREATED: readonly KeyTerm[] = [
    { field: 'created', direction: 'desc', nulls: 'last' },
    { field: 'id', direction: 'desc', nulls: 'last', unique: true },
  ];

  /** The ids after `[created, id]` in `-created, -id`, as the rows say. */
  async function expectedAfter(created: Date, id: number, limit: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)}
      where created < ${created} or (created = ${created} and id < ${id})
      order by created desc, id desc limit ${limit}`.execute(seeded.database.db);
    return rows.map((r) => r.id);
  }

  const keysetStatements = () => statements.filter((s) => /order by `created` desc, `id` desc/.test(s.sql));

  it("names the ordering's index on a page after a bound, and reads the same rows by a range of it", async () => {
    const query = fromKysely(seeded.database.db.selectFrom(table).selectAll(), { db: seeded.database.db });
    const [middle] = await query.fetch({ order: CREATED, after: null, offset: 9_999, limit: 1 });
    statements.length = 0;
    const rows = await query.fetch({ order: CREATED, after: middle!.position, offset: 0, limit: 51 });
    const row = middle!.row as { created: Date; id: number };
    expect(rows.map((r) => r.row.id)).toEqual(await expectedAfter(row.created, row.id, 51));
    const pages = keysetStatements();
    expect(pages).toHaveLength(1);
    expect(pages[0]!.sql).toContain(`force index (\`${table}_created_id\`)`);
    const [plan] = await explain(seeded.database, pages[0]!);
    console.log(`EXPLAIN mariadb | no WHERE, -created, -id, bound mid-table | ${plan}`);
    expect(plan).toMatch(new RegExp(`^type=range key=${table}_created_id `));
  });

  it("names it on the first page too, which reads the index's first rows", async () => {
    const query = fromKysely(seeded.database.db.selectFrom(table).selectAll(), { db: seeded.database.db });
    statements.length = 0;
    const rows = await query.fetch({ order: CREATED, after: null, offset: 0, limit: 3 });
    expect(rows.map((r) => r.row.id)).toEqual([20_000, 19_999, 19_998]);
    const pages = keysetStatements();
    expect(pages).toHaveLength(1);
    expect(pages[0]!.sql).toContain(`force index (\`${table}_created_id\`)`);
    const [plan] = await explain(seeded.database, pages[0]!);
    expect(plan).toMatch(new RegExp(`^type=index key=${table}_created_id `));
  });

  it('names none where no index serves the ordering (`title` has one of its own, without `id`)', async () => {
    const query = fromKysely(seeded.database.db.selectFrom(table).selectAll(), { db: seeded.database.db });
    const order: readonly KeyTerm[] = [
      { field: 'title', direction: 'desc', nulls: 'last' },
      { field: 'id', direction: 'desc', nulls: 'last', unique: true },
    ];
    statements.length = 0;
    const rows = await query.fetch({ order, after: ['t5', 5], offset: 0, limit: 3 });
    // Titles compare as text: 't49999' < 't5' is not a row here (20,000 rows), 't4999' is the next below 't5'.
    expect(rows.map((r) => r.row.id)).toEqual([4999, 4998, 4997]);
    const page = statements.find((s) => /order by `title` desc, `id` desc/.test(s.sql));
    expect(page?.sql).not.toMatch(/force index/);
  });
});
