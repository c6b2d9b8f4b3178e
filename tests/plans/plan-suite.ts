import type { KeyTerm, PositionValue } from '@pagewise/core';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import type { OrderedQuery } from '@pagewise/rest';
import { datetime, int, mysqlTable } from 'drizzle-orm/mysql-core';
import { integer as pgInteger, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { CompiledQuery, type LogEvent, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DatabaseTarget, type TestDatabase, tableName } from '../support/databases.js';
import type { DrizzleTarget, DrizzleTestDatabase, StatementLog } from '../support/drizzle-databases.js';

const ROWS = 30_000;

const QUOTED = /'(?:[^']|'')*'/g;

/**
 * The literals in `text` a cursor's values could have been written as: quoted strings holding a
 * digit, and numbers of three digits or more outside them (`date_trunc('second', x)` or `/ 1e3`
 * in a position expression are neither).
 */
function cursorLiterals(text: string): string[] {
  const quoted = (text.match(QUOTED) ?? []).filter((literal) => /\d/.test(literal));
  return [...quoted, ...(text.replace(QUOTED, "''").match(/\b\d{3,}\b/g) ?? [])];
}
const DEPTH = 20_000;
const PAGE = 50;

interface Shape {
  readonly title: string;
  readonly index: string;
  readonly order: readonly KeyTerm[];
  /** Where the bound sits: at depth in the ordering, or inside the NULL block. */
  readonly bound: 'depth' | 'null-block';
  /** The column(s) the index range may be on (a regular expression alternative). */
  readonly seekColumn: string;
  /**
   * Only on the index written for `-score NULLS LAST, -id`: Postgres declares the placement
   * (`score desc nulls last, id desc`); MariaDB's `(score desc, id desc)` has it natively.
   */
  readonly declaredIndex?: true;
  /**
   * The index MySQL/MariaDB read, where it is not `index`: the adapter names the ordering's index
   * (`FORCE INDEX`), and of two that serve it the one sorted as the ordering is, not the one read
   * backwards.
   */
  readonly mysqlIndex?: string;
}

const asc = (field: string, unique?: true): KeyTerm => ({
  field,
  direction: 'asc',
  nulls: 'last',
  ...(unique ? { unique } : {}),
});
const desc = (field: string, unique?: true): KeyTerm => ({
  field,
  direction: 'desc',
  nulls: 'first',
  ...(unique ? { unique } : {}),
});

/** `-score` NULLs last, `-id`: the order of the index declared as `(score desc nulls last, id desc)`. */
const SCORE_DESC_NULLS_LAST: readonly KeyTerm[] = [
  { ...desc('score'), nulls: 'last' },
  { ...desc('id', true), nulls: 'last' },
];

const SHAPES: readonly Shape[] = [
  {
    title: 'uniform -created, -id',
    index: 'created_id',
    order: [desc('created'), { ...desc('id', true), nulls: 'last' }],
    bound: 'depth',
    seekColumn: 'created',
  },
  {
    title: 'mixed grp, -created, -id',
    index: 'grp_created_id',
    order: [asc('grp'), desc('created'), { ...desc('id', true), nulls: 'last' }],
    bound: 'depth',
    seekColumn: 'grp',
  },
  {
    title: 'nullable score (NULLs last), id',
    index: 'score_id',
    order: [asc('score'), asc('id', true)],
    bound: 'depth',
    seekColumn: 'score',
  },
  {
    title: 'nullable -score (NULLs first), -id',
    index: 'score_id',
    order: [desc('score'), { ...desc('id', true), nulls: 'last' }],
    bound: 'depth',
    seekColumn: 'score',
    mysqlIndex: 'score_desc_nulls_last',
  },
  {
    title: 'nullable -score NULLs last, -id, on the index declared for it',
    index: 'score_desc_nulls_last',
    order: SCORE_DESC_NULLS_LAST,
    bound: 'depth',
    seekColumn: 'score',
    declaredIndex: true,
  },
  {
    title: 'nullable score, bound inside the NULL block',
    index: 'score_id',
    order: [asc('score'), asc('id', true)],
    bound: 'null-block',
    seekColumn: 'score|id',
  },
  {
    title: 'nullable -score NULLs last, -id, bound inside the NULL block, on the index declared for it',
    index: 'score_desc_nulls_last',
    order: SCORE_DESC_NULLS_LAST,
    bound: 'null-block',
    seekColumn: 'score|id',
    declaredIndex: true,
  },
];

export async function seed(database: TestDatabase, table: string): Promise<void> {
  const { db, dialect } = database;
  const t = dialect === 'mysql' ? `\`${table}\`` : `"${table}"`;
  await sql.raw(`drop table if exists ${t}`).execute(db);
  const created =
    dialect === 'postgres' ? 'timestamptz(3)' : dialect === 'mysql' ? 'datetime(3)' : 'datetime';
  await sql
    .raw(
      `create table ${t} (id integer primary key, created ${created} not null, grp integer not null, score integer)`,
    )
    .execute(db);
  const score = `case when n % 10 = 0 then null else (n * 31) % 1000 end`;
  if (dialect === 'postgres') {
    await sql
      .raw(
        `insert into ${t} select n, timestamptz '2024-01-01 00:00:00+00' + ((n * 7919) % ${ROWS}) * interval '1 second'
         + (n % 1000) * interval '1 millisecond', n % 50, ${score} from generate_series(1, ${ROWS}) n`,
      )
      .execute(db);
  } else if (dialect === 'sqlite') {
    await sql
      .raw(
        `insert into ${t} with recursive s(n) as (select 1 union all select n + 1 from s where n < ${ROWS})
         select n, strftime('%Y-%m-%dT%H:%M:%fZ', 1704067200 + ((n * 7919) % ${ROWS}) + (n % 1000) / 1000.0, 'unixepoch'),
         n % 50, ${score} from s`,
      )
      .execute(db);
  } else {
    const digits =
      '(select 0 d union all select 1 union all select 2 union all select 3 union all select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9)';
    await sql
      .raw(
        `insert into ${t} select n, timestamp '2024-01-01 00:00:00' + interval ((n * 7919) % ${ROWS}) second
         + interval (n % 1000) * 1000 microsecond, n % 50, ${score}
         from (select a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d + 1 as n
               from ${digits} a, ${digits} b, ${digits} c, ${digits} e, ${digits} f) s where n <= ${ROWS}`,
      )
      .execute(db);
  }
  const q = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`);
  await sql.raw(`create index ${q(`${table}_created_id`)} on ${t} (created, id)`).execute(db);
  await sql
    .raw(`create index ${q(`${table}_grp_created_id`)} on ${t} (grp, created desc, id desc)`)
    .execute(db);
  await sql.raw(`create index ${q(`${table}_score_id`)} on ${t} (score, id)`).execute(db);
  if (dialect !== 'sqlite') {
    const nullsLast = dialect === 'postgres' ? ' nulls last' : '';
    await sql
      .raw(`create index ${q(`${table}_score_desc_nulls_last`)} on ${t} (score desc${nullsLast}, id desc)`)
      .execute(db);
  }
  await sql.raw(dialect === 'mysql' ? `analyze table ${t}` : `analyze ${t}`).execute(db);
}

/** The plan table in Drizzle's schema, Drizzle's default modes (`Date` timestamps). */
export function planSchema(database: DrizzleTestDatabase, table: string) {
  if (database.dialect === 'postgres') {
    return pgTable(table, {
      id: pgInteger('id').primaryKey(),
      created: timestamp('created', { withTimezone: true, precision: 3 }).notNull(),
      grp: pgInteger('grp').notNull(),
      score: pgInteger('score'),
    });
  }
  if (database.dialect === 'mysql') {
    return mysqlTable(table, {
      id: int('id').primaryKey(),
      created: datetime('created', { fsp: 3 }).notNull(),
      grp: int('grp').notNull(),
      score: int('score'),
    });
  }
  return sqliteTable(table, {
    id: integer('id').primaryKey(),
    created: text('created').notNull(),
    grp: integer('grp').notNull(),
    score: integer('score'),
  });
}

/** The plan table's columns, as a query selecting them by name lists them. */
const PLAN_COLUMNS = ['id', 'created', 'grp', 'score'] as const;

/** The database's plan for `statement`, one line per row (Postgres), detail (SQLite) or access (MySQL). */
export async function explain(database: TestDatabase, statement: CompiledQuery): Promise<string[]> {
  const prefix = { postgres: 'explain ', sqlite: 'explain query plan ', mysql: 'explain ' }[database.dialect];
  const { rows } = await database.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(prefix + statement.sql, [...statement.parameters]),
  );
  if (database.dialect === 'postgres') return rows.map((r) => String(r['QUERY PLAN']));
  if (database.dialect === 'sqlite') return rows.map((r) => String(r.detail));
  return rows.map((r) => `type=${r.type} key=${r.key} rows=${r.rows} Extra=${r.Extra}`);
}

/**
 * The generic plan of `statement` (Postgres): prepared, `plan_cache_mode = force_generic_plan`,
 * EXPLAIN EXECUTE with its own bound values. EXPLAIN of a statement with parameters plans it with
 * their values (a custom plan); a prepared statement reused often gets a generic one, planned
 * without them.
 */
export async function explainGeneric(database: TestDatabase, statement: CompiledQuery): Promise<string[]> {
  return database.db.connection().execute(async (connection) => {
    await sql`set plan_cache_mode = force_generic_plan`.execute(connection);
    await sql.raw(`prepare pw_generic as ${statement.sql}`).execute(connection);
    try {
      // EXECUTE's arguments are literals (a utility statement takes no parameters): the
      // statement's own bound values.
      const literals = statement.parameters.map((v) =>
        typeof v === 'number' || typeof v === 'bigint'
          ? String(v)
          : `'${(v instanceof Date ? v.toISOString() : String(v)).replaceAll("'", "''")}'`,
      );
      const { rows } = await connection.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(`explain execute pw_generic(${literals.join(', ')})`),
      );
      return rows.map((r) => String(r['QUERY PLAN']));
    } finally {
      await sql`deallocate pw_generic`.execute(connection);
      await sql`reset plan_cache_mode`.execute(connection);
    }
  });
}

function assertSeek(database: TestDatabase, shape: Shape, table: string, plan: string[]): void {
  const text = plan.join('\n');
  if (database.dialect === 'postgres') {
    expect(text).toMatch(/Index (Only )?Scan/);
    expect(plan.find((line) => line.includes('Index Cond'))).toMatch(
      new RegExp(`\\b(?:${shape.seekColumn})\\b`),
    );
    expect(text).not.toMatch(/\bSort\b|Seq Scan/);
    // The ORDER BY states each term's NULL placement, so the index written for the ordering serves it.
    expect(text).toContain(`using ${table}_${shape.index} `);
    // Inside the NULL block too: `score IS NULL AND id > $1` is one range of that index, not a
    // primary-key walk that filters out every non-NULL row on the way.
    if (shape.bound === 'null-block') expect(text).not.toMatch(/\bFilter:/);
  } else if (database.dialect === 'sqlite') {
    expect(text).toMatch(
      new RegExp(
        `SEARCH ${table} USING (COVERING )?INDEX ${table}_${shape.index} \\(.*(?:${shape.seekColumn})`,
      ),
    );
    expect(text).not.toMatch(/TEMP B-TREE/);
    // SQLite ranges a row value on its first column only: the rows tied with the bound on it would
    // be read and filtered one by one. The tie group is a range on the whole of an index instead
    // (for mixed, SQLite takes `(created, id)` for `grp = ? AND created = ? AND id < ?`).
    if (shape.bound === 'depth') {
      expect(text).toMatch(
        new RegExp(`SEARCH ${table} USING (COVERING )?INDEX ${table}_\\w+ \\((?:\\w+=\\? AND )+id[<>]\\?\\)`),
      );
    }
  } else {
    expect(plan).toHaveLength(1);
    // Inside the NULL block too: `score IS NULL AND id < ?` read by `ref` on `score IS NULL` would
    // walk the NULL block from its start to the bound (MariaDB picks it where NULLs are many).
    // MariaDB would range the values on either score index, forwards or backwards; the adapter
    // names the ordering's own (`FORCE INDEX`), the one whose directions it has.
    expect(plan[0]).toMatch(new RegExp(`^type=range key=${table}_${shape.mysqlIndex ?? shape.index} `));
    expect(plan[0]).not.toMatch(/filesort/);
  }
}

/** A seeded plan table, opened with every statement its adapter runs logged (`loggedTable`). */
export interface LoggedTable {
  /** The statements the adapter ran, in order (Kysely's log; Drizzle's logger, which sees them all). */
  readonly statements: CompiledQuery[];
  database(): TestDatabase;
  /** A fresh query over the whole table. */
  paged(): OrderedQuery<Record<string, unknown>>;
}

/**
 * Opens `target` before the suite's cases, seeds `table` and pages it through `orm` (Drizzle over
 * `schema`; Kysely with `uniqueKey` when given), every statement logged; drops it after them.
 */
export function loggedTable(
  target: DatabaseTarget | DrizzleTarget,
  orm: 'kysely' | 'drizzle',
  table: string,
  setup: {
    readonly schema: (database: DrizzleTestDatabase, table: string) => unknown;
    readonly seed: (database: TestDatabase, table: string) => Promise<void>;
    readonly uniqueKey?: readonly string[];
    /**
     * Kysely: the columns the query selects by name (`select([...])`), where a timestamp's text
     * is selected in place of its column (`TextInPlace`); `selectAll()` without.
     */
    readonly columns?: readonly string[];
  },
): LoggedTable {
  const statements: CompiledQuery[] = [];
  let database: TestDatabase | undefined;
  let paged: (() => OrderedQuery<Record<string, unknown>>) | undefined;
  beforeAll(async () => {
    if (orm === 'drizzle') {
      const logged: StatementLog = {
        statements: new Proxy([], {
          set(list, key, value) {
            if (key !== 'length') statements.push(CompiledQuery.raw(String(value), []));
            return Reflect.set(list, key, value);
          },
        }),
        parameters: new Proxy([], {
          set(list, key, value) {
            if (key !== 'length') {
              const last = statements.at(-1);
              if (last) statements[statements.length - 1] = CompiledQuery.raw(last.sql, value as unknown[]);
            }
            return Reflect.set(list, key, value);
          },
        }),
      };
      const opened = await (target as DrizzleTarget).open(undefined, logged);
      const db = opened.drizzle;
      const schema = setup.schema(opened, table);
      database = opened;
      paged = () =>
        fromDrizzle(db.select().from(schema as never) as never, { db }) as OrderedQuery<
          Record<string, unknown>
        >;
    } else {
      const opened = await (target as DatabaseTarget).open((event: LogEvent) => {
        if (event.level === 'query') statements.push(event.query);
      });
      const options =
        setup.uniqueKey === undefined ? { db: opened.db } : { db: opened.db, uniqueKey: setup.uniqueKey };
      database = opened;
      const columns = setup.columns;
      paged = () =>
        fromKysely(
          columns === undefined
            ? opened.db.selectFrom(table).selectAll()
            : opened.db.selectFrom(table).select(columns as never),
          options,
        );
    }
    await setup.seed(database, table);
  });
  afterAll(async () => {
    if (!database) return;
    await sql
      .raw(`drop table if exists ${database.dialect === 'mysql' ? `\`${table}\`` : `"${table}"`}`)
      .execute(database.db);
    await database.close();
  });
  return { statements, database: () => database!, paged: () => paged!() };
}

/**
 * EXPLAINs the adapter's own SQL for a cursor page deep into a seeded table and demands an index
 * range on the keyset predicate: Postgres an Index Scan whose Index Cond holds the bound and no
 * Sort; SQLite `SEARCH ... USING INDEX`; MariaDB/MySQL access type `range`, no filesort.
 */
export function planCases(
  target: DatabaseTarget | DrizzleTarget,
  orm: 'kysely' | 'drizzle' = 'kysely',
  selection: 'all' | 'columns' = 'all',
): void {
  const suffix = selection === 'columns' ? 'cols_' : '';
  const table = tableName(`pw_plan_${orm === 'drizzle' ? 'dz_' : ''}${suffix}${target.name}`);
  const columns = selection === 'columns' ? PLAN_COLUMNS : undefined;
  const {
    statements,
    database: databaseOf,
    paged,
  } = loggedTable(target, orm, table, { schema: planSchema, seed, ...(columns ? { columns } : {}) });
  const named = selection === 'columns' ? ', columns selected by name' : '';
  for (const shape of SHAPES) {
    if (shape.declaredIndex && target.name === 'sqlite') continue;
    it(`[${target.name}] EXPLAIN: ${shape.title}${named}: a cursor page at depth ${DEPTH} seeks the index`, async () => {
      const query = paged();
      let bound: PositionValue[];
      if (shape.bound === 'depth') {
        const [at] = await query.fetch({ order: shape.order, after: null, offset: DEPTH, limit: 1 });
        bound = [...at!.position];
        expect(bound[0]).not.toBeNull();
      } else {
        // Deep in the NULL block (ids run to 30,000), where a primary-key scan would have to filter.
        bound = [null, 25_000];
      }
      statements.length = 0;
      const rows = await query.fetch({ order: shape.order, after: bound, offset: 0, limit: PAGE + 1 });
      expect(rows).toHaveLength(PAGE + 1);
      const statement = statements[0]!;
      // Postgres, columns by name: the timestamp's text in place of its column, ordered by the table's.
      if (
        columns !== undefined &&
        databaseOf().dialect === 'postgres' &&
        shape.seekColumn.includes('created')
      ) {
        expect(statement.sql).toContain(`cast("${table}"."created" as text) as "created"`);
        expect(statement.sql).not.toContain('as "pagewise');
      }
      // Every value is a bound parameter: no literal from the cursor in the SQL text.
      expect(cursorLiterals(statement.sql)).toEqual([]);
      // The LIMIT is a parameter too, or on Postgres the page size written as a number (`literalLimit`).
      const written = /\blimit (\d+)$/.exec(statement.sql)?.[1];
      if (written !== undefined) expect(Number(written)).toBe(PAGE + 1);
      expect(statement.parameters.length).toBeGreaterThanOrEqual(
        bound.filter((v) => v !== null).length + (written === undefined ? 1 : 0),
      );
      // MySQL/MariaDB: the statement names the ordering's index, as the plan below reads it.
      if (databaseOf().dialect === 'mysql') expect(statement.sql.toLowerCase()).toContain(' force index (');
      const plan = await explain(databaseOf(), statement);
      console.log(`EXPLAIN ${target.name} | ${shape.title} | ${plan.map((l) => l.trim()).join(' / ')}`);
      assertSeek(databaseOf(), shape, table, plan);
    });

    if (shape.bound !== 'depth') continue;
    // A Relay window between two cursors: the far bound is in the SQL too (the database compares
    // it under the column's collation), and the statement stays the same index range.
    it(`[${target.name}] EXPLAIN: ${shape.title}${named}, between two cursors: a window at depth ${DEPTH} seeks the index`, async () => {
      const query = paged();
      const near = await query.fetch({ order: shape.order, after: null, offset: DEPTH, limit: PAGE + 1 });
      const after = [...near[0]!.position];
      const before = [...near[PAGE]!.position];
      statements.length = 0;
      const rows = await query.fetch({ order: shape.order, after, before, offset: 0, limit: PAGE + 1 });
      expect(rows.map((r) => r.row)).toEqual(near.slice(1, PAGE).map((r) => r.row));
      const statement = statements[0]!;
      expect(cursorLiterals(statement.sql)).toEqual([]);
      const plan = await explain(databaseOf(), statement);
      console.log(
        `EXPLAIN ${target.name} | ${shape.title}, between two cursors | ${plan.map((l) => l.trim()).join(' / ')}`,
      );
      assertSeek(databaseOf(), shape, table, plan);
    });
  }
}
