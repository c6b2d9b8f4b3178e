import { type OrderedQuery, parseOrdering } from '@pagewise/core';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import { eq } from 'drizzle-orm';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import { type DrizzleTarget, drizzleTarget, type StatementLog } from '../support/drizzle-databases.js';
import { planSchema, seed } from './plan-suite.js';

// Deferred-join offsets (issue 38 §5), as the databases plan them, for both ORM adapters: at
// depth, the derived table of keys is read from the ordering's index alone (Postgres: an Index
// Only Scan; MariaDB: `Using index`, the secondary index holding the primary key), never from the
// rows, and the page's rows are then read by primary key. Plain OFFSET reads every row before the
// page from the table. The table is the plan suite's (30,000 rows, its indexes, ANALYZE).

const DEPTH = 20_000;
const PAGE = 50;

/** The plan suite's table, its statistics and the visibility map an Index Only Scan needs (Postgres). */
async function seeded(database: TestDatabase, table: string): Promise<void> {
  await seed(database, table);
  if (database.dialect !== 'postgres') return;
  // VACUUM marks a page all-visible only when no open snapshot may still not see its rows: under
  // the full suite another file's transaction can hold one, and without the visibility map the
  // planner rules out the Index Only Scan. Vacuum again until every page is marked (bounded).
  for (let attempt = 0; attempt < 60; attempt += 1) {
    await sql.raw(`vacuum analyze "${table}"`).execute(database.db);
    const { rows } = await sql<{ visible: number; pages: number }>`
      select relallvisible as visible, relpages as pages from pg_class where oid = cast(${table} as regclass)`.execute(
      database.db,
    );
    if (rows[0] !== undefined && rows[0].visible >= rows[0].pages) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The plan of `statement`: Postgres's text lines; MariaDB's rows, each with its select type and table. */
async function explain(database: TestDatabase, statement: CompiledQuery): Promise<string[]> {
  const { rows } = await database.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
  );
  if (database.dialect === 'postgres') return rows.map((r) => String(r['QUERY PLAN']));
  return rows.map(
    (r) => `${r.select_type} table=${r.table} type=${r.type} key=${r.key} rows=${r.rows} Extra=${r.Extra}`,
  );
}

for (const name of ['postgres', 'mariadb'] as const) {
  for (const orm of ['kysely', 'drizzle'] as const) {
    const target = orm === 'kysely' ? databaseTarget(name) : drizzleTarget(name);
    describeDatabase(target, `deferred-join plans (${orm})`, () => {
      const table = tableName(`h_deferred_plan_${orm}_${name}`);
      let database: TestDatabase;
      const statements: CompiledQuery[] = [];
      let make: (
        deferredJoin: boolean,
        grp: boolean,
        ordering: string[],
      ) => OrderedQuery<Record<string, unknown>>;

      beforeAll(async () => {
        if (orm === 'kysely') {
          database = await target.open((event) => {
            if (event.level === 'query')
              statements.push(CompiledQuery.raw(event.query.sql, [...event.query.parameters]));
          });
          make = (deferredJoin, grp, ordering) => {
            const builder = database.db.selectFrom(table).selectAll();
            return fromKysely(grp ? builder.where('grp', '=', 7) : builder, {
              db: database.db,
              deferredJoin,
            }).orderBy(parseOrdering(ordering));
          };
        } else {
          // Drizzle's logger sees each statement with its parameters, as Kysely's log does.
          const logged: StatementLog = { statements: [], parameters: [] };
          logged.statements.push = (...texts: string[]) => {
            for (const text of texts) statements.push(CompiledQuery.raw(text, []));
            return statements.length;
          };
          logged.parameters!.push = (...lists: unknown[][]) => {
            lists.forEach((list, i) => {
              const at = statements.length - lists.length + i;
              statements[at] = CompiledQuery.raw(statements[at]!.sql, list);
            });
            return statements.length;
          };
          const drizzleDb = await (target as DrizzleTarget).open(undefined, logged);
          database = drizzleDb;
          const schema = planSchema(drizzleDb, table);
          make = (deferredJoin, grp, ordering) => {
            const builder = drizzleDb.drizzle.select().from(schema);
            return fromDrizzle((grp ? builder.where(eq(schema.grp, 7)) : builder) as never, {
              db: drizzleDb.drizzle,
              deferredJoin,
            }).orderBy(parseOrdering(ordering)) as OrderedQuery<Record<string, unknown>>;
          };
        }
        await seeded(database, table);
      }, 120_000);
      afterAll(async () => {
        if (!database) return;
        await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
        await database.close();
      });

      const cases = [
        {
          title: '-created (the key appended descending)',
          ordering: ['-created'],
          index: 'created_id',
          grp: false,
        },
        {
          title: 'grp = 7, created (an equality WHERE)',
          ordering: ['created'],
          index: 'grp_created_id',
          grp: true,
        },
      ];
      for (const { title, ordering, index, grp } of cases) {
        // grp = 7 holds 600 rows.
        const depth = grp ? 400 : DEPTH;
        it(`EXPLAIN ${title}: at offset ${depth} the keys come from the ordering's index alone`, async () => {
          const window = { order: null, after: null, offset: depth, limit: PAGE };
          statements.length = 0;
          const deferred = await make(true, grp, ordering).fetch(window);
          const statement = statements.find((s) => s.sql.includes('pagewisekeys'))!;
          expect(deferred).toHaveLength(PAGE);
          const plain = await make(false, grp, ordering).fetch(window);
          expect(deferred.map((r) => r.row.id)).toEqual(plain.map((r) => r.row.id));

          const plan = await explain(database, statement);
          console.log(
            `EXPLAIN ${name} ${orm} | deferred ${title} | ${plan.map((l) => l.trim()).join(' / ')}`,
          );
          const text = plan.join('\n');
          const key = `${table}_${index}`;
          if (database.dialect === 'postgres') {
            // The derived table (Postgres plans it in the join, no Subquery Scan of its own): a Limit
            // over an Index Only Scan of the ordering's index.
            expect(text).toMatch(
              new RegExp(`Limit[^\\n]*\\n\\s*->\\s+Index Only Scan(?: Backward)? using ${key} `),
            );
            expect(text).not.toMatch(/Seq Scan/);
            // The page's rows by primary key. Under a WHERE of its own, which the outer select
            // repeats (a join may need it), the planner may read the WHERE's rows and hash-join the keys.
            if (!grp) expect(text).toMatch(new RegExp(`Index Scan using ${table}_pkey on ${table}`));
          } else {
            const derived = plan.filter((line) => line.startsWith('DERIVED'));
            expect(derived).toHaveLength(1);
            expect(derived[0]).toMatch(new RegExp(`table=${table} type=(?:index|ref|range) key=${key} `));
            // Covering: the secondary index holds the primary key, no row is read.
            expect(derived[0]).toMatch(/Extra=[^\n]*Using index/);
            // In the index's order: no sort of the keys before the LIMIT (the outer one sorts the page's 50).
            expect(derived[0]).not.toMatch(/filesort|temporary/);
            expect(
              plan.find((line) => line.includes(`table=${table} `) && !line.startsWith('DERIVED')),
            ).toMatch(/type=eq_ref key=PRIMARY /);
          }

          // Plain OFFSET reads the rows before the page: never from the index alone.
          statements.length = 0;
          await make(false, grp, ordering).fetch(window);
          const plainPlan = await explain(database, statements[0]!);
          console.log(
            `EXPLAIN ${name} ${orm} | plain ${title} | ${plainPlan.map((l) => l.trim()).join(' / ')}`,
          );
          if (database.dialect === 'postgres') expect(plainPlan.join('\n')).not.toMatch(/Index Only Scan/);
          else expect(plainPlan.join('\n')).not.toMatch(/Using index(?! condition)/);
        });
      }
    });
  }
}
