import { type KeyTerm, paginateCursor } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { postgresMajor } from '../support/postgres-server.js';
import { explain, explainGeneric } from './plan-suite.js';

// What changes from one Postgres major to the next and decides a page: unique indexes that hold
// one NULL (NULLS NOT DISTINCT, from 15), the generic plan a prepared page statement gets, and the
// server the project claims to run. Runs in every major's project (vitest.config.ts) and on
// PG_URL's server; the conformance, type, collation and plan suites run there beside it.

const ROWS = 20_000;
const PAGE = 50;
const target = databaseTarget('postgres');

type Row = { id: number; code: number | null };

describeDatabase(target, 'what differs between Postgres majors', () => {
  let database: TestDatabase;
  let major: number;
  const statements: CompiledQuery[] = [];
  const table = tableName('pw_major_nnd');
  const plain = tableName('pw_major_plain');
  const events = tableName('pw_major_generic');

  beforeAll(async () => {
    database = await target.open((event) => {
      if (event.level === 'query') statements.push(event.query);
    });
    const { rows } = await sql<{ v: string; text: string }>`select current_setting('server_version_num') as v,
      current_setting('server_version') as text`.execute(database.db);
    major = Math.floor(Number(rows[0]!.v) / 10_000);
    console.log(`postgres server: ${rows[0]!.text} (project major ${postgresMajor() ?? 'of PG_URL'})`);
  });
  afterAll(async () => {
    for (const name of [table, plain, events])
      await sql`drop table if exists ${sql.table(name)}`.execute(database.db);
    await database.close();
  });

  it('[postgres] the server is the major its vitest project names', () => {
    // A project of one major must never run on another server (PG_URL's 15) by mistake.
    expect(major).toBe(postgresMajor() ?? major);
    expect(major).toBeGreaterThanOrEqual(13);
  });

  /** Ids of a forward walk, then of the walk back from its last page, under `ordering`. */
  async function walk(name: string, ordering: string, pageSize: number) {
    const { db } = database;
    const query = fromKysely(db.selectFrom(name).select(['id', 'code']), { db, uniqueKey: 'code' });
    const forward: number[][] = [];
    let page = await paginateCursor<Row>(query, { pageSize, ordering });
    forward.push(page.results.map((r) => r.id));
    while (page.nextCursor !== null && forward.length < ROWS) {
      page = await paginateCursor<Row>(query, { pageSize, ordering, cursor: page.nextCursor });
      forward.push(page.results.map((r) => r.id));
    }
    const backward: number[][] = [];
    while (page.previousCursor !== null && backward.length < ROWS) {
      page = await paginateCursor<Row>(query, { pageSize, ordering, cursor: page.previousCursor });
      backward.unshift(page.results.map((r) => r.id));
    }
    return { forward, backward };
  }

  it('[postgres] NULLS NOT DISTINCT (15+): a unique index that holds one NULL is a unique key: exact pages, an index range', async () => {
    const { db } = database;
    const create = sql.raw(
      `create table ${table} (id integer primary key, code integer, constraint ${table}_code unique nulls not distinct (code))`,
    );
    if (major < 15) {
      // Before 15 there is no such index: a unique index lets NULLs repeat, and the adapter refuses
      // it as a unique key over a nullable column (below, on every major).
      await expect(create.execute(db)).rejects.toThrow(/syntax error/);
      return;
    }
    await create.execute(db);
    // One NULL among the codes (a second would break the constraint), codes out of id order.
    await sql
      .raw(
        `insert into ${table} select n, case when n = 777 then null else (n * 7919) % ${ROWS + 1} end
         from generate_series(1, ${ROWS}) n; analyze ${table}`,
      )
      .execute(db);
    await expect(
      sql.raw(`insert into ${table} values (${ROWS + 1}, null)`).execute(db),
      'the index holds one NULL',
    ).rejects.toThrow(/duplicate key/);
    // Walks over a 200-row slice of it (the whole table is for the plan).
    const slice = tableName('pw_major_nnd_slice');
    await sql
      .raw(
        `create temporary table ${slice} (id integer primary key, code integer, unique nulls not distinct (code));
         insert into ${slice} select id, code from ${table} where id <= 200 or code is null`,
      )
      .execute(db);
    // The unique key's NULL comes last both ways (core places a unique term's NULLs as a column
    // without any would have them: `nulls: 'last'`).
    for (const ordering of ['code', '-code']) {
      const direction = ordering.startsWith('-') ? 'desc' : 'asc';
      const { rows } = await sql
        .raw<{ id: number }>(`select id from ${slice} order by code ${direction} nulls last`)
        .execute(db);
      const expected = rows.map((r) => r.id);
      for (const pageSize of [1, 7]) {
        const { forward, backward } = await walk(slice, ordering, pageSize);
        expect(forward.flat(), `${ordering}, page size ${pageSize}`).toEqual(expected);
        expect(backward, `${ordering}, page size ${pageSize}, backward`).toEqual(forward.slice(0, -1));
      }
    }
    // A page deep in the table is a range of that index.
    const query = fromKysely(db.selectFrom(table).select(['id', 'code']), { db, uniqueKey: 'code' });
    const order: KeyTerm[] = [{ field: 'code', direction: 'asc', nulls: 'last', unique: true }];
    const [at] = await query.fetch({ order, after: null, offset: ROWS / 2, limit: 1 });
    statements.length = 0;
    const rows = await query.fetch({ order, after: [...at!.position], offset: 0, limit: PAGE + 1 });
    expect(rows).toHaveLength(PAGE + 1);
    const plan = (await explain(database, statements[0]!)).join('\n');
    console.log(
      `EXPLAIN postgres ${major} | unique nulls not distinct (code) | ${plan.replaceAll('\n', ' / ')}`,
    );
    expect(plan).toMatch(new RegExp(`Index (Only )?Scan using ${table}_code `));
    expect(plan).toMatch(/Index Cond: \(code > /);
    expect(plan).not.toMatch(/\bSort\b|Seq Scan/);
  });

  it('[postgres] a unique index whose NULLs are distinct is refused as a unique key over a nullable column, naming why', async () => {
    const { db } = database;
    await sql
      .raw(
        `create table ${plain} (id integer primary key, code integer unique);
         insert into ${plain} values (1, null), (2, null), (3, 5)`,
      )
      .execute(db);
    const query = fromKysely(db.selectFrom(plain).select(['id', 'code']), { db, uniqueKey: 'code' });
    await expect(paginateCursor(query, { pageSize: 2, ordering: 'code' })).rejects.toThrow(
      /"code" may be NULL, and NULL is never equal to NULL/,
    );
  });

  it('[postgres] the generic plan a prepared cursor page gets is an index range too', async () => {
    const { db } = database;
    await sql
      .raw(
        `create table ${events} (id integer primary key, created timestamptz(3) not null);
         insert into ${events} select n, timestamptz '2024-01-01 00:00:00+00' + ((n * 7919) % ${ROWS}) * interval '1 second'
           + (n % 1000) * interval '1 millisecond' from generate_series(1, ${ROWS}) n;
         create index ${events}_created_id on ${events} (created, id); analyze ${events}`,
      )
      .execute(db);
    const query = fromKysely(db.selectFrom(events).selectAll(), { db });
    const order: KeyTerm[] = [
      { field: 'created', direction: 'desc', nulls: 'first' },
      { field: 'id', direction: 'desc', nulls: 'last', unique: true },
    ];
    const [at] = await query.fetch({ order, after: null, offset: ROWS / 2, limit: 1 });
    statements.length = 0;
    await query.fetch({ order, after: [...at!.position], offset: 0, limit: PAGE + 1 });
    const statement = statements[0]!;
    // A statement prepared once and run often (a pool's named statements) gets a generic plan,
    // planned without the cursor's values: every major must still range the index with them.
    const plan = await explainGeneric(database, statement);
    const text = plan.join('\n');
    console.log(`EXPLAIN postgres ${major} | generic | ${plan.map((l) => l.trim()).join(' / ')}`);
    expect(text).toMatch(new RegExp(`Index (Only )?Scan Backward using ${events}_created_id `));
    expect(text).toMatch(/Index Cond: .*ROW\(created, id\) < ROW\(\$\d+, \$\d+\)/);
    expect(text).not.toMatch(/\bSort\b|Seq Scan/);
  });
});
