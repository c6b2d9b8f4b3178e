import { connectionFromQuery, type OrderedQuery, type OrderingInput, paginateCursor } from '@pagewise/core';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { sql as drizzleSql } from 'drizzle-orm';
import { int, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { integer as pgInteger, pgTable, text as pgText } from 'drizzle-orm/pg-core';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseTarget, databaseTargets, describeDatabase, tableName } from '../support/databases.js';
import {
  type DrizzleDatabaseName,
  type DrizzleTestDatabase,
  drizzleTarget,
} from '../support/drizzle-databases.js';
import { postgresMajor } from '../support/postgres-server.js';

// Cursor walks under the collations users' columns carry (issue 29): every comparison that decides
// which rows a page holds must be the database's, so each walk is checked against the database's
// own ORDER BY under that collation, never against JavaScript's code-point order. Shapes: forward
// and backward walks, Relay windows bounded by `after` and `before` (with `first` and with `last`),
// and DRF's position + offset walk of a query without a unique key, whose ties only the database
// can see ('a' = 'A' under a case-insensitive collation, 'a' = 'a ' under PAD SPACE).

type Row = { id: number; title: string };
// biome-ignore lint/suspicious/noExplicitAny: tables are created at run time.
type Db = Kysely<any>;

/** Strings that binary, case-insensitive, accent-insensitive, padding and ICU collations order apart. */
const WORDS = [
  'a',
  'A',
  'a ',
  'á',
  'Á',
  'à',
  'ä',
  'b',
  'B',
  'c',
  'C',
  'ç',
  'e',
  'é',
  'e\u0301',
  'E',
  'ß',
  'ss',
  'SS',
  'æ',
  'ae',
  'z',
  'Z',
  '',
  ' ',
  '1',
  '10',
  '2',
  'ａ',
  'ø',
  'o',
  'Ö',
  'straße',
  'Strasse',
  'x y',
  'x  y',
  'é ',
  'ǆ',
];
/** 114 rows, each word three times, inserted out of order. */
const ROWS: Row[] = Array.from({ length: 3 * WORDS.length }, (_, i) => ({
  id: i + 1,
  title: WORDS[(i * 7) % WORDS.length]!,
}));

interface Collated {
  /** The query over the table (`uniqueKey: null`: DRF's position + offset scheme). */
  query(uniqueKey: 'id' | null): OrderedQuery<Row>;
  /** Ids in the database's `ORDER BY title <dir>, id <dir>`. */
  order(direction: 'asc' | 'desc'): Promise<number[]>;
  /** Each id's tie group under the collation: the database's `dense_rank() over (order by title)`. */
  groups(): Promise<Map<number, number>>;
  /** Runs a walk of a query without a unique key where the database returns ties in a stable order. */
  stable<T>(walk: (query: OrderedQuery<Row>) => Promise<T>): Promise<T>;
}

/** Counts of the windows a shape checked and the ones that came out wrong, printed as the matrix. */
const matrix: string[] = [];

function collationCases(
  backend: string,
  collation: string,
  open: () => Promise<Collated>,
  withoutUniqueKey = true,
): void {
  let collated: Collated;
  beforeAll(async () => {
    collated = await open();
  });

  const label = `[${backend} ${collation}]`;
  const report = (shape: string, checked: number, wrong: number) =>
    matrix.push(`${backend} | ${collation} | ${shape} | ${checked} | ${wrong}`);

  for (const direction of ['asc', 'desc'] as const) {
    const ordering: OrderingInput = direction === 'asc' ? 'title' : '-title';

    it(`${label} ${ordering}: forward and backward walks are the database's ORDER BY`, async () => {
      const expected = await collated.order(direction);
      const query = collated.query('id');
      const forward: number[][] = [];
      let page = await paginateCursor(query, { pageSize: 7, ordering });
      forward.push(page.results.map((r) => Number(r.id)));
      while (page.nextCursor !== null && forward.length < 50) {
        page = await paginateCursor(query, { pageSize: 7, ordering, cursor: page.nextCursor });
        forward.push(page.results.map((r) => Number(r.id)));
      }
      const backward: number[][] = [];
      while (page.previousCursor !== null && backward.length < 50) {
        page = await paginateCursor(query, { pageSize: 7, ordering, cursor: page.previousCursor });
        backward.push(page.results.map((r) => Number(r.id)));
      }
      backward.reverse();
      // Pages checked: each forward page against the database's rows in its place, each page
      // walked back against the forward page it repeats.
      const wrong =
        forward.filter((ids, k) => ids.join() !== expected.slice(7 * k, 7 * k + 7).join()).length +
        backward.filter((ids, k) => ids.join() !== forward[k]!.join()).length;
      report(`${ordering} walks`, forward.length + backward.length, wrong);
      expect(forward.flat()).toEqual(expected);
      expect(backward.flat()).toEqual(forward.slice(0, -1).flat());
    });

    it(`${label} ${ordering}: Relay windows between two cursors (first, last) are the database's rows`, async () => {
      const expected = await collated.order(direction);
      const query = collated.query('id');
      const all = await connectionFromQuery(query, { first: 200 }, { ordering, maxPageSize: 200 });
      expect(all.edges.map((e) => Number(e.node.id))).toEqual(expected);
      const cursors = all.edges.map((e) => e.cursor);
      let checked = 0;
      const wrong: string[] = [];
      // i = -1: no `after`; j = length: no `before`.
      for (let i = -1; i < expected.length; i += 3) {
        for (const gap of [1, 2, 3, 4, 7, 12, 30]) {
          const j = Math.min(i + gap, expected.length);
          const between = expected.slice(i + 1, j);
          const args = {
            after: i < 0 ? null : cursors[i]!,
            before: j >= expected.length ? null : cursors[j]!,
          };
          for (const [side, take] of [
            ['first', between.slice(0, 10)],
            ['last', between.slice(-10)],
          ] as const) {
            const connection = await connectionFromQuery(query, { ...args, [side]: 10 }, { ordering });
            const got = connection.edges.map((e) => Number(e.node.id));
            checked += 1;
            if (got.join() !== take.join()) wrong.push(`${side} (${i}, ${j}): ${got} instead of ${take}`);
          }
        }
      }
      report(`${ordering} after+before`, checked, wrong.length);
      expect(wrong).toEqual([]);
    });

    if (!withoutUniqueKey) continue;
    it(`${label} ${ordering}: without a unique key (position + offset), every row once, in the database's tie groups`, async () => {
      const groups = await collated.groups();
      const { forward, backward } = await collated.stable(async (query) => {
        const forward: number[] = [];
        let page = await paginateCursor(query, { pageSize: 2, ordering });
        forward.push(...page.results.map((r) => Number(r.id)));
        for (let n = 0; page.nextCursor !== null && n < 200; n += 1) {
          page = await paginateCursor(query, { pageSize: 2, ordering, cursor: page.nextCursor });
          forward.push(...page.results.map((r) => Number(r.id)));
        }
        const backward: number[] = [];
        for (let n = 0; page.previousCursor !== null && n < 200; n += 1) {
          page = await paginateCursor(query, { pageSize: 2, ordering, cursor: page.previousCursor });
          backward.unshift(...page.results.map((r) => Number(r.id)));
        }
        return { forward, backward };
      });
      const sortedGroups = (ids: number[]) => ids.map((id) => groups.get(id)!);
      const inOrder = (ids: number[]) => {
        const seq = sortedGroups(ids);
        return seq.every((g, k) => k === 0 || (direction === 'asc' ? g >= seq[k - 1]! : g <= seq[k - 1]!));
      };
      const all = ROWS.map((r) => r.id).sort((a, b) => a - b);
      const lastPage = forward.length - (forward.length % 2 === 0 ? 2 : 1);
      report(`${ordering} no unique key: rows seen`, all.length, all.length - new Set(forward).size);
      expect(new Set(forward).size, 'distinct rows the forward walk saw').toBe(all.length);
      expect([...forward].sort((a, b) => a - b)).toEqual(all);
      expect(inOrder(forward)).toBe(true);
      // Walking back from the last page sees the pages before it again. Rows that tie may come in
      // another order on a page (ORDER BY leaves it open), never on another page.
      const pages = (ids: number[]) =>
        Array.from({ length: Math.ceil(ids.length / 2) }, (_, k) =>
          ids.slice(2 * k, 2 * k + 2).sort((a, b) => a - b),
        );
      expect(pages(backward)).toEqual(pages(forward.slice(0, lastPage)));
    });
  }
}

/** A table of ROWS whose `title` column is `titleType`, with an index on it. */
async function createCollated(
  db: Db,
  table: string,
  titleType: string,
  dialect: 'postgres' | 'mysql' | 'sqlite',
): Promise<void> {
  const q = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`);
  await sql.raw(`drop table if exists ${q(table)}`).execute(db);
  await sql
    .raw(`create table ${q(table)} (${q('id')} integer primary key, ${q('title')} ${titleType} not null)`)
    .execute(db);
  await sql.raw(`create index ${q(`${table}_title`)} on ${q(table)} (${q('title')})`).execute(db);
  await db.insertInto(table).values(ROWS).execute();
}

function sqlCollated(db: Db, table: string, dialect: 'postgres' | 'mysql' | 'sqlite'): Collated {
  const builder = (d: Db) => d.selectFrom(table).select(['id', 'title']);
  return {
    query: (uniqueKey) => fromKysely(builder(db), { db, uniqueKey }) as OrderedQuery<Row>,
    order: async (direction) => {
      const rows = await db
        .selectFrom(table)
        .select('id')
        .orderBy('title', direction)
        .orderBy('id', direction)
        .execute();
      return rows.map((r) => Number(r.id));
    },
    groups: async () => {
      const { rows } = await sql<{
        id: number;
        g: number;
      }>`select ${sql.ref('id')} as id, dense_rank() over (order by ${sql.ref('title')}) as g from ${sql.table(table)}`.execute(
        db,
      );
      return new Map(rows.map((r) => [Number(r.id), Number(r.g)]));
    },
    // DRF's offset scheme counts on ties coming back in one order from one statement to the next;
    // the index on `title` keeps them in row order (Postgres: a plan that uses it, never a sort;
    // MariaDB: the adapter's FORCE INDEX, and its look-ahead row read apart, `resortKeepsTies`).
    stable: (walk) => {
      const positioned = (d: Db) => fromKysely(builder(d), { db: d, uniqueKey: null }) as OrderedQuery<Row>;
      if (dialect === 'postgres') {
        return db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          await sql`set local enable_sort = off`.execute(trx);
          return walk(positioned(trx));
        });
      }
      return walk(positioned(db));
    },
  };
}

/** The collations each backend is walked under: the column type, by its label. */
const COLLATIONS: Record<string, Array<[string, string]>> = {
  sqlite: [
    ['BINARY', 'text collate BINARY'],
    ['NOCASE', 'text collate NOCASE'],
    ['RTRIM', 'text collate RTRIM'],
  ],
  // PGlite is built without ICU: its collations are the byte-wise ones.
  pglite: [
    ['C', 'text collate "C"'],
    ['pg_c_utf8', 'text collate "pg_c_utf8"'],
  ],
  postgres: [
    ['C', 'text collate "C"'],
    ['en-x-icu', 'text collate "en-x-icu"'],
    ['und-x-icu', 'text collate "und-x-icu"'],
    ['und-u-ks-level2 (nondeterministic)', 'text collate pw_und_level2'],
    ['und-u-ks-level1 (nondeterministic)', 'text collate pw_und_level1'],
    // The builtin provider's collations, from 17 and 18 (in a major's project: vitest.config.ts).
    ...((postgresMajor() ?? 0) >= 17
      ? [['pg_c_utf8 (builtin, 17+)', 'text collate "pg_c_utf8"'] as [string, string]]
      : []),
    ...((postgresMajor() ?? 0) >= 18
      ? [['pg_unicode_fast (builtin, 18+)', 'text collate "pg_unicode_fast"'] as [string, string]]
      : []),
  ],
  // 96 characters: a row of the adapter's derived table (`withTieGroups`) then takes 392 bytes in a
  // MariaDB in-memory temporary table, so the low bytes of consecutive rows' addresses step by 136,
  // and a sort that breaks ties by address, least significant byte first, returns six tied rows as
  // 1, 3, 5, 2, 4, 6 (or 2, 4, 6, 1, 3, 5) on every connection. At 64 characters (264 bytes, a step
  // of 8) only the connections whose rows straddle a 256-byte boundary did: the walks were flaky.
  mariadb: [
    ['utf8mb4_general_ci (default)', 'varchar(96) character set utf8mb4 collate utf8mb4_general_ci'],
    ['utf8mb4_unicode_ci', 'varchar(96) character set utf8mb4 collate utf8mb4_unicode_ci'],
    ['utf8mb4_unicode_520_ci', 'varchar(96) character set utf8mb4 collate utf8mb4_unicode_520_ci'],
    ['utf8mb4_uca1400_ai_ci', 'varchar(96) character set utf8mb4 collate utf8mb4_uca1400_ai_ci'],
    ['utf8mb4_bin (PAD SPACE)', 'varchar(96) character set utf8mb4 collate utf8mb4_bin'],
    ['utf8mb4_nopad_bin (NO PAD)', 'varchar(96) character set utf8mb4 collate utf8mb4_nopad_bin'],
  ],
};

function targetCases(target: DatabaseTarget): void {
  const collations = COLLATIONS[target.name];
  if (collations === undefined) return;
  describeDatabase(target, 'collations', () => {
    let database: Awaited<ReturnType<DatabaseTarget['open']>>;
    const tables: string[] = [];
    beforeAll(async () => {
      database = await target.open();
      if (target.name === 'postgres') await createIcuLevels(database.db);
    });
    afterAll(async () => {
      for (const table of tables) await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
      await database.close();
    });
    collations.forEach(([label, type], k) => {
      collationCases(target.name, label, async () => {
        const table = tableName(`pw_coll_${target.name}_${k}`);
        tables.push(table);
        await createCollated(database.db, table, type, database.dialect);
        return sqlCollated(database.db, table, database.dialect);
      });
    });
  });
}

for (const target of databaseTargets()) targetCases(target);

/** The collated table through Drizzle: its `title` a plain text column of Drizzle's schema; the collation is the database's. */
function drizzleCollated(database: DrizzleTestDatabase, table: string): Collated {
  const kysely = sqlCollated(database.db, table, database.dialect);
  const db = database.drizzle;
  const schema =
    database.dialect === 'postgres'
      ? pgTable(table, { id: pgInteger('id').primaryKey(), title: pgText('title').notNull() })
      : database.dialect === 'mysql'
        ? mysqlTable(table, { id: int('id').primaryKey(), title: varchar('title', { length: 96 }).notNull() })
        : sqliteTable(table, { id: integer('id').primaryKey(), title: text('title').notNull() });
  const columns = schema as unknown as { id: unknown; title: unknown };
  return {
    ...kysely,
    query: (uniqueKey) =>
      fromDrizzle(db.select({ id: columns.id, title: columns.title }).from(schema), {
        db,
        uniqueKey,
      }) as OrderedQuery<Row>,
    // DRF's offset scheme counts on ties coming back in one order: on Postgres, in a transaction
    // of Drizzle's that plans by the index on `title`, as the Kysely case above does.
    stable: (walk) => {
      // biome-ignore lint/suspicious/noExplicitAny: a Drizzle database or transaction of any dialect.
      const positioned = (d: any) =>
        fromDrizzle(d.select({ id: columns.id, title: columns.title }).from(schema), {
          db: d,
          uniqueKey: null,
        }) as OrderedQuery<Row>;
      if (database.dialect !== 'postgres') return walk(positioned(db));
      // biome-ignore lint/suspicious/noExplicitAny: Drizzle's Postgres transaction.
      return db.transaction(async (tx: any) => {
        await tx.execute(drizzleSql`set local enable_seqscan = off`);
        await tx.execute(drizzleSql`set local enable_sort = off`);
        return walk(positioned(tx));
      });
    },
  };
}

// The same collations on the Drizzle adapter: forward and backward walks, Relay windows and DRF's
// position + offset walk without a unique key are the database's ORDER BY and tie groups under each.
// A major's project (postgres-13, postgres-18) holds that major's server alone: the Kysely cases.
for (const name of postgresMajor() === undefined
  ? (['sqlite', 'pglite', 'postgres', 'mariadb'] as DrizzleDatabaseName[])
  : []) {
  const collations = COLLATIONS[name];
  if (collations === undefined) continue;
  const target = drizzleTarget(name);
  describeDatabase(target, 'collations (drizzle)', () => {
    let database: DrizzleTestDatabase;
    const tables: string[] = [];
    beforeAll(async () => {
      database = await target.open();
      if (name === 'postgres') await createIcuLevels(database.db);
    });
    afterAll(async () => {
      for (const table of tables) await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
      await database.close();
    });
    collations.forEach(([label, type], k) => {
      collationCases(`drizzle-${name}`, label, async () => {
        const table = tableName(`pw_coll_dz_${name}_${k}`);
        tables.push(table);
        await createCollated(database.db, table, type, database.dialect);
        return drizzleCollated(database, table);
      });
    });
  });
}

// The memory adapter is the reference: JavaScript's code-point order is its collation.
describe('[memory] collations', () => {
  const codePoints = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = (direction: 'asc' | 'desc') =>
    [...ROWS]
      .sort((x, y) => (direction === 'asc' ? 1 : -1) * (codePoints(x.title, y.title) || x.id - y.id))
      .map((r) => r.id);
  const distinct = [...new Set(ROWS.map((r) => r.title))].sort(codePoints);
  // An array always has a unique key (the row's index), so DRF's offset scheme never pages one.
  collationCases(
    'memory',
    'code points',
    async () => ({
      query: () => fromArray(ROWS, { uniqueKey: 'id' }),
      order: async (direction) => sorted(direction),
      groups: async () => new Map(ROWS.map((r) => [r.id, distinct.indexOf(r.title) + 1])),
      stable: (walk) => walk(fromArray(ROWS, { uniqueKey: 'id' })),
    }),
    false,
  );
});

afterAll(() => {
  if (matrix.length > 0) {
    console.log(`collation matrix (backend | collation | shape | checked | wrong):\n${matrix.join('\n')}`);
  }
});

/** Postgres' nondeterministic ICU collations the cases name: `pw_und_level1` and `pw_und_level2`. */
// biome-ignore lint/suspicious/noExplicitAny: tables are created at run time.
async function createIcuLevels(db: Kysely<any>): Promise<void> {
  for (const level of [1, 2]) {
    await sql
      .raw(
        `create collation if not exists pw_und_level${level} (provider = icu, locale = 'und-u-ks-level${level}', deterministic = false)`,
      )
      .execute(db);
  }
}
