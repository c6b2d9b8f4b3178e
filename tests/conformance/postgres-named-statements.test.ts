import { fromKysely } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination, type OrderingInput } from '@pagewise/rest';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { expect, it } from 'vitest';
import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { conformanceCases, sqlBackend } from './conformance-suite.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';

// Postgres through `nameStatements`: every page is a named prepared statement, rerun with new
// values, so the suite and the type matrix check that named statements answer as unnamed ones.
const target = databaseTarget('postgres-named-statements');
const PLANNED = tableName('pw_generic_plans');

/**
 * Walks `pages` cursor pages of `PLANNED` (newest first) on one connection, each query from
 * `query`, and answers how Postgres planned the keyset statement those pages ran: the count of
 * generic and custom plans, and its text.
 */
async function keysetPlans(
  // biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
  db: Kysely<any>,
  // biome-ignore lint/suspicious/noExplicitAny: see above.
  query: (connection: Kysely<any>) => SelectQueryBuilder<any, any, { id: number }>,
  pages: number,
  ordering: OrderingInput = ['-created', '-id'],
) {
  const pagination = new CursorPagination({ pageSize: 50, ordering });
  return db.connection().execute(async (connection) => {
    let url: string | null = 'http://testserver/items';
    const ids: number[] = [];
    for (let i = 0; i < pages && url !== null; i += 1) {
      const page: Array<{ id: number }> | null = await pagination.paginateQueryset(
        fromKysely(query(connection), { db: connection }),
        new ApiRequest({ url }),
      );
      ids.push(...page!.map((row) => row.id));
      url = (pagination.getPaginatedResponse(page!).data as { next: string | null }).next;
    }
    const { rows } = await sql<{ statement: string; generic: string; custom: string }>`
      select statement, generic_plans as generic, custom_plans as custom from pg_prepared_statements
      where statement like ${`%${PLANNED}%`}`.execute(connection);
    const plans = rows.map((r) => ({ ...r, generic: Number(r.generic), custom: Number(r.custom) }));
    return {
      ids,
      first: plans.filter((plan) => !plan.statement.includes('<')),
      plans: plans.filter((plan) => plan.statement.includes('<')),
    };
  });
}

describeDatabase(target, 'conformance', () => {
  conformanceCases(target.name, async () =>
    sqlBackend(await target.open(), tableName('pw_conf_postgres_named')),
  );
  typeMatrixCases(async () => sqlMatrixBackend(await target.open()), target.name);

  it('statements with parameters and single queries without are prepared under a name; others run as before', async () => {
    const { db, close } = await target.open();
    try {
      const texts = await db.connection().execute(async (connection) => {
        await sql`select ${1}::int as one`.execute(connection);
        await sql`select ${2}::int as one`.execute(connection);
        await sql`select 3 as one`.execute(connection);
        await sql`select 3 as one`.execute(connection);
        // Several statements in one text, and DDL, cannot or need not be prepared.
        await sql.raw('select 4 as one; select 5 as one').execute(connection);
        await sql`create temp table pw_named_ddl (one integer)`.execute(connection);
        const { rows } = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements order by prepare_time`.execute(connection);
        return rows.filter((row) => row.statement.includes('as one'));
      });
      expect(texts).toEqual([
        { name: expect.stringMatching(/^pagewise_\d+$/), statement: 'select $1::int as one' },
        { name: expect.stringMatching(/^pagewise_\d+$/), statement: 'select 3 as one' },
      ]);
    } finally {
      await close();
    }
  });

  it('cursor pages run on one generic plan: their LIMIT is a number, not a parameter', async () => {
    const { db, close } = await target.open();
    try {
      await sql`drop table if exists ${sql.table(PLANNED)}`.execute(db);
      await sql`create table ${sql.table(PLANNED)} (id integer primary key, created timestamptz not null, tenant integer not null, score integer)`.execute(
        db,
      );
      // Timestamps scattered over ids, as in the bench table, and enough rows that a generic
      // plan for an unknown LIMIT (Postgres assumes a tenth of the rows) or for two default
      // estimates of a third costs more than planning 51 rows: then the plan is custom every time.
      await sql`insert into ${sql.table(PLANNED)} select g, timestamptz '2024-01-01' + ((g * 7919) % 20000 / 3) * interval '1 second', g % 2, case when g % 5 = 0 then null else (g * 48271) % 1000 end from generate_series(1, 20000) g`.execute(
        db,
      );
      await sql`create index on ${sql.table(PLANNED)} (created desc, id desc)`.execute(db);
      await sql`create index on ${sql.table(PLANNED)} (created desc, id asc)`.execute(db);
      await sql`create index on ${sql.table(PLANNED)} (score desc nulls last, id desc)`.execute(db);
      await sql`analyze ${sql.table(PLANNED)}`.execute(db);
      const second = (g: number) => Math.floor(((g * 7919) % 20000) / 3);
      const ids = Array.from({ length: 20000 }, (_, i) => i + 1);
      const newest = (idOrder: 1 | -1, tenant?: number) =>
        ids
          .filter((g) => tenant === undefined || g % 2 === tenant)
          .sort((a, b) => second(b) - second(a) || idOrder * (a - b))
          .slice(0, 600);
      const limit51 = / where \("created", "id"\) < \(\$1, \$2\) order by .* limit 51$/;
      const all = await keysetPlans(db, (c) => c.selectFrom(PLANNED).select(['id', 'created']), 12);
      // The pages are right: newest first, ties by id, no row lost or repeated.
      expect(all.ids).toEqual(newest(-1));
      // After five custom plans Postgres keeps the generic one: planned once, not per page. On an
      // ordinary table the row comparison goes without its leading bound (`"created" <= $1 and`,
      // kept for partitioned and foreign tables), whose second estimate of a third made the
      // generic plan look dearer than planning each page.
      expect(all.plans).toEqual([
        expect.objectContaining({ statement: expect.stringMatching(limit51), custom: 5, generic: 6 }),
      ]);
      // The first page has no parameter left: one statement, planned once.
      expect(all.first).toEqual([
        expect.objectContaining({
          statement: expect.stringMatching(/^select "id", "created" from "\w+" order by .* limit 51$/),
          custom: 0,
          generic: 1,
        }),
      ]);
      // Mixed directions (the expanded form): the tie is tested as `not (created = $2 and not
      // (id > $3))`, estimated near all rows, where `(created < $2 or ...)` took another third.
      const mixed = await keysetPlans(db, (c) => c.selectFrom(PLANNED).select(['id', 'created']), 12, [
        '-created',
        'id',
      ]);
      expect(mixed.ids).toEqual(newest(1));
      expect(mixed.plans.filter((plan) => plan.statement.includes('"id" asc'))).toEqual([
        expect.objectContaining({
          statement: expect.stringMatching(
            / where "created" <= \$1 and not \("created" = \$2 and not \("id" > \$3\)\) order by .* limit 51$/,
          ),
          custom: 5,
          generic: 6,
        }),
      ]);
      // A nullable ordering reads its scored rows, then (when they run out) its NULL block, in
      // statements of their own: the first one reads the whole page, its LIMIT written too.
      const nullable = await keysetPlans(db, (c) => c.selectFrom(PLANNED).select(['id', 'created']), 12, [
        { field: 'score', direction: 'desc', nulls: 'last' },
        '-id',
      ]);
      const score = (g: number) => (g * 48271) % 1000;
      expect(nullable.ids).toEqual(
        ids
          .filter((g) => g % 5 !== 0)
          .sort((a, b) => score(b) - score(a) || b - a)
          .slice(0, 600),
      );
      expect(nullable.plans.filter((plan) => plan.statement.includes('"score"'))).toEqual([
        expect.objectContaining({
          statement: expect.stringMatching(/ where \("score", "id"\) < \(\$1, \$2\) order by .* limit 51$/),
          custom: 5,
          generic: 6,
        }),
      ]);
      expect(nullable.first.filter((plan) => plan.statement.includes('"score"'))).toEqual([
        expect.objectContaining({
          statement: expect.stringMatching(/ is not null order by .* limit 51$/),
          generic: 1,
        }),
      ]);
      // A query with parameters of its own (a filter whose values may be skewed) keeps its
      // LIMIT a parameter: Postgres plans each page for its values, as it did before.
      const tenant = await keysetPlans(
        db,
        (c) => c.selectFrom(PLANNED).select(['id', 'created']).where('tenant', '=', 1),
        12,
      );
      expect(tenant.ids).toEqual(newest(-1, 1));
      expect(tenant.plans.filter((plan) => plan.statement.includes('"tenant"'))).toEqual([
        expect.objectContaining({ statement: expect.stringMatching(/ limit \$\d+$/), generic: 0 }),
      ]);
    } finally {
      await sql`drop table if exists ${sql.table(PLANNED)}`.execute(db);
      await close();
    }
  });
});
