import type { KeyTerm, PositionValue } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { int, primaryKey as mysqlPrimaryKey, mysqlTable } from 'drizzle-orm/mysql-core';
import { integer as pgInteger, primaryKey as pgPrimaryKey, pgTable } from 'drizzle-orm/pg-core';
import { integer, primaryKey as sqlitePrimaryKey, sqliteTable } from 'drizzle-orm/sqlite-core';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { type DatabaseTarget, type TestDatabase, tableName } from '../support/databases.js';
import type { DrizzleTarget, DrizzleTestDatabase } from '../support/drizzle-databases.js';
import { explain, loggedTable } from './plan-suite.js';

// Composite unique keys (issue 38 §3) EXPLAINed: a multi-tenant table whose only key is PRIMARY
// KEY (tenant_id, id), paged deep by the key itself and by a column full of duplicates with the
// key as its tiebreak; the adapter's keyset statement must be an index range, never a full sort.

const ROWS = 30_000;
const DEPTH = 20_000;
const PAGE = 50;
const TENANTS = 10;

const key = (field: string, direction: 'asc' | 'desc'): KeyTerm => ({
  field,
  direction,
  nulls: 'last',
  unique: true,
});

interface CompositeShape {
  readonly title: string;
  readonly order: readonly KeyTerm[];
  /** The index the range is on, as each dialect names it. */
  readonly index: 'primary' | 'score_key' | 'tenant_score';
}

/** What core's key order makes of these orderings over `uniqueKey: ['tenant_id', 'id']`. */
const SHAPES: readonly CompositeShape[] = [
  {
    title: 'the key itself, (tenant_id, id)',
    order: [key('tenant_id', 'asc'), key('id', 'asc')],
    index: 'primary',
  },
  {
    title: '-score (duplicates), then the key (-tenant_id, -id)',
    order: [
      { field: 'score', direction: 'desc', nulls: 'first' },
      key('tenant_id', 'desc'),
      key('id', 'desc'),
    ],
    index: 'score_key',
  },
];

const quoted = (database: TestDatabase, name: string) =>
  database.dialect === 'mysql' ? `\`${name}\`` : `"${name}"`;

async function seed(database: TestDatabase, table: string): Promise<void> {
  const { db, dialect } = database;
  const t = quoted(database, table);
  await sql.raw(`drop table if exists ${t}`).execute(db);
  await sql
    .raw(
      `create table ${t} (tenant_id integer not null, id integer not null, score integer not null, primary key (tenant_id, id))`,
    )
    .execute(db);
  // Every id in each tenant (no column unique alone), 10 rows per score.
  const values = `n % ${TENANTS} + 1, n / ${TENANTS}, (n * 7919) % ${ROWS / 10}`;
  const integerDivision = dialect === 'mysql' ? values.replace(' / ', ' div ') : values;
  if (dialect === 'postgres') {
    await sql.raw(`insert into ${t} select ${values} from generate_series(0, ${ROWS - 1}) n`).execute(db);
  } else if (dialect === 'sqlite') {
    await sql
      .raw(
        `insert into ${t} with recursive s(n) as (select 0 union all select n + 1 from s where n < ${ROWS - 1})
         select ${values} from s`,
      )
      .execute(db);
  } else {
    const digits =
      '(select 0 d union all select 1 union all select 2 union all select 3 union all select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9)';
    await sql
      .raw(
        `insert into ${t} select ${integerDivision}
         from (select a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d as n
               from ${digits} a, ${digits} b, ${digits} c, ${digits} e, ${digits} f) s where n < ${ROWS}`,
      )
      .execute(db);
  }
  await sql
    .raw(`create index ${quoted(database, `${table}_score_key`)} on ${t} (score, tenant_id, id)`)
    .execute(db);
  await sql
    .raw(`create index ${quoted(database, `${table}_tenant_score`)} on ${t} (tenant_id, score, id)`)
    .execute(db);
  await sql.raw(dialect === 'mysql' ? `analyze table ${t}` : `analyze ${t}`).execute(db);
}

/** The table in Drizzle's schema, its key declared as Drizzle does: `primaryKey({ columns })`. */
function schemaOf(database: DrizzleTestDatabase, table: string) {
  if (database.dialect === 'postgres') {
    return pgTable(
      table,
      {
        tenant_id: pgInteger('tenant_id').notNull(),
        id: pgInteger('id').notNull(),
        score: pgInteger('score').notNull(),
      },
      (t) => [pgPrimaryKey({ columns: [t.tenant_id, t.id] })],
    );
  }
  if (database.dialect === 'mysql') {
    return mysqlTable(
      table,
      { tenant_id: int('tenant_id').notNull(), id: int('id').notNull(), score: int('score').notNull() },
      (t) => [mysqlPrimaryKey({ columns: [t.tenant_id, t.id] })],
    );
  }
  return sqliteTable(
    table,
    {
      tenant_id: integer('tenant_id').notNull(),
      id: integer('id').notNull(),
      score: integer('score').notNull(),
    },
    (t) => [sqlitePrimaryKey({ columns: [t.tenant_id, t.id] })],
  );
}

function assertRange(database: TestDatabase, table: string, shape: CompositeShape, plan: string[]): void {
  const text = plan.join('\n');
  if (database.dialect === 'postgres') {
    const index = shape.index === 'primary' ? `${table}_pkey` : `${table}_${shape.index}`;
    expect(text).toMatch(new RegExp(`Index (Only )?Scan( Backward)? using ${index} `));
    // The whole key order is one row comparison the index ranges on.
    expect(plan.find((line) => line.includes('Index Cond'))).toMatch(/ROW\(|\(\w+, \w+(, \w+)?\) [<>]/);
    expect(text).not.toMatch(/\bSort\b|Seq Scan/);
  } else if (database.dialect === 'sqlite') {
    const index = shape.index === 'primary' ? `sqlite_autoindex_${table}_1` : `${table}_${shape.index}`;
    expect(text).toMatch(new RegExp(`SEARCH ${table} USING (COVERING )?INDEX ${index} \\(`));
    expect(text).not.toMatch(/TEMP B-TREE|\bSCAN\b/);
  } else {
    expect(plan).toHaveLength(1);
    const index = shape.index === 'primary' ? 'PRIMARY' : `${table}_${shape.index}`;
    expect(plan[0]).toMatch(new RegExp(`^type=range key=${index} `));
    expect(plan[0]).not.toMatch(/filesort/);
  }
}

/**
 * EXPLAINs a cursor page at depth over the composite key, through `fromKysely(q, { uniqueKey:
 * ['tenant_id', 'id'] })` or `fromDrizzle` (its default key: the schema's composite primary key),
 * and demands an index range with no sort on every dialect.
 */
export function compositePlanCases(
  target: DatabaseTarget | DrizzleTarget,
  orm: 'kysely' | 'drizzle' = 'kysely',
): void {
  const table = tableName(`pw_plan_ck_${orm === 'drizzle' ? 'dz_' : ''}${target.name}`);
  const {
    statements,
    database: databaseOf,
    paged,
  } = loggedTable(target, orm, table, {
    schema: schemaOf,
    seed,
    uniqueKey: ['tenant_id', 'id'],
  });

  it(`[${target.name}] the query's key is the composite one (${orm})`, () => {
    const query = paged();
    expect(query.uniqueKey).toBeNull();
    expect(query.uniqueKeys).toEqual(['tenant_id', 'id']);
  });

  for (const shape of SHAPES) {
    it(`[${target.name}] EXPLAIN (${orm}): composite key, ${shape.title}: a cursor page at depth ${DEPTH} is an index range, no sort`, async () => {
      const query = paged();
      const [at] = await query.fetch({ order: shape.order, after: null, offset: DEPTH, limit: 1 });
      const bound: PositionValue[] = [...at!.position];
      expect(bound).toHaveLength(shape.order.length);
      expect(bound.every((value) => value !== null)).toBe(true);
      statements.length = 0;
      const rows = await query.fetch({ order: shape.order, after: bound, offset: 0, limit: PAGE + 1 });
      expect(rows).toHaveLength(PAGE + 1);
      // The page begins right after the bound: the row at depth + 1 of the offset walk.
      const [next] = await query.fetch({ order: shape.order, after: null, offset: DEPTH + 1, limit: 1 });
      expect(rows[0]!.position).toEqual(next!.position);
      const statement = statements[0]!;
      // Every key column is a bound parameter.
      expect(statement.parameters.length).toBeGreaterThanOrEqual(bound.length);
      const plan = await explain(databaseOf(), statement);
      console.log(
        `EXPLAIN ${target.name} (${orm}) | composite key, ${shape.title} | ${plan.map((l) => l.trim()).join(' / ')}`,
      );
      assertRange(databaseOf(), table, shape, plan);
    });
  }

  if (orm === 'kysely') {
    // One tenant's rows (`where tenant_id = ?`, the multi-tenant page): the key's tenant_id is
    // fixed, and an index (tenant_id, score, id) serves the ordering `-score` then the key.
    it(`[${target.name}] EXPLAIN (${orm}): composite key, one tenant's rows by -score: a cursor page at depth is an index range, no sort`, async () => {
      const database = databaseOf();
      const query = fromKysely(database.db.selectFrom(table).selectAll().where('tenant_id', '=', 5), {
        db: database.db,
        uniqueKey: ['tenant_id', 'id'],
      });
      const shape = SHAPES[1]!;
      const [at] = await query.fetch({ order: shape.order, after: null, offset: DEPTH / TENANTS, limit: 1 });
      const bound: PositionValue[] = [...at!.position];
      statements.length = 0;
      const rows = await query.fetch({ order: shape.order, after: bound, offset: 0, limit: PAGE + 1 });
      expect(rows).toHaveLength(PAGE + 1);
      expect(rows.every((r) => r.row.tenant_id === 5)).toBe(true);
      const plan = await explain(database, statements[0]!);
      console.log(
        `EXPLAIN ${target.name} (${orm}) | composite key, one tenant by -score | ${plan.map((l) => l.trim()).join(' / ')}`,
      );
      assertRange(database, table, { ...shape, index: 'tenant_score' }, plan);
    });
  }
}
