import { fromKysely } from '@pagewise/kysely-adapter';
import {
  ApiRequest,
  ConfigurationError,
  CursorPagination,
  type CursorPaginationOptions,
} from '@pagewise/rest';
import { type Kysely, type LogEvent, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DatabaseName,
  databaseTarget,
  describeDatabase,
  type TestDatabase,
  tableName,
} from '../support/databases.js';

type Row = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: test tables are created at run time.
type AnyDb = Kysely<any>;

/**
 * Follows `next` from the first page; the ids of every page, as exact text (better-sqlite3
 * without safe integers rounds the row's own id past 2^53, whatever the adapter does).
 */
async function walkIds(db: AnyDb, table: string, options: CursorPaginationOptions): Promise<string[]> {
  const text = db.getExecutor().adapter.constructor.name.startsWith('Mysql') ? 'char' : 'text';
  const query = fromKysely(
    db
      .selectFrom(table)
      .selectAll()
      .select(sql<string>`cast(id as ${sql.raw(text)})`.as('tid')),
    { db },
  );
  const ids: string[] = [];
  let url: string | null = 'http://testserver/';
  for (let pages = 0; url !== null && pages < 100; pages += 1) {
    const pagination = new CursorPagination(options);
    const rows: Row[] | null = await pagination.paginateQueryset(query, new ApiRequest({ url }));
    ids.push(...(rows ?? []).map((r) => String(r.tid)));
    url = pagination.getNextLink();
  }
  return ids;
}

/** Types the adapter cannot bound exactly, per dialect: ordering by them is a configuration error. */
const UNSUPPORTED: Record<TestDatabase['dialect'], ReadonlyArray<[string, string]>> = {
  postgres: [
    ['json', "'{}'"],
    ['jsonb', "'{}'"],
    ['integer[]', "'{1,2}'"],
    ['bytea', "'\\x00'"],
    ['interval', "'1 day'"],
    ['point', "'(1,2)'"],
    ['time with time zone', "'12:00:00+02'"],
  ],
  mysql: [
    ['blob', "'a'"],
    ["set('a','b')", "'a'"],
    ['bit(8)', '1'],
    ['varbinary(10)', "'a'"],
  ],
  sqlite: [['blob', "x'00'"]],
};

const TARGETS: DatabaseName[] = ['sqlite', 'sqlite-safe-integers', 'pglite', 'postgres', 'mariadb'];

for (const name of TARGETS) {
  const target = databaseTarget(name);
  describeDatabase(target, 'column types', () => {
    let database: TestDatabase;
    const statements: string[] = [];
    const tables: string[] = [];
    const q = (identifier: string) =>
      database.dialect === 'mysql' ? `\`${identifier}\`` : `"${identifier}"`;
    const create = async (base: string, columns: string, rows: string[]): Promise<string> => {
      const table = tableName(`pw_ct_${name.replaceAll('-', '_')}_${base}`);
      await sql.raw(`drop table if exists ${q(table)}`).execute(database.db);
      await sql.raw(`create table ${q(table)} (${columns})`).execute(database.db);
      if (rows.length > 0)
        await sql.raw(`insert into ${q(table)} values ${rows.join(', ')}`).execute(database.db);
      tables.push(table);
      return table;
    };

    beforeAll(async () => {
      database = await target.open((event: LogEvent) => {
        if (event.level === 'query') statements.push(event.query.sql);
      });
    });
    afterAll(async () => {
      if (!database) return;
      for (const table of tables) await sql.raw(`drop table if exists ${q(table)}`).execute(database.db);
      await database.close();
    });

    it(`[${name}] ordering by a type without an exact order is a ConfigurationError naming the column and type, before any page query`, async () => {
      for (const [type, value] of UNSUPPORTED[database.dialect]) {
        const base = type.replace(/\W+/g, '_');
        const table = await create(base, `id integer primary key, v ${type}`, [`(1, ${value})`]);
        const query = fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db });
        statements.length = 0;
        const pagination = new CursorPagination({ pageSize: 5, ordering: 'v' });
        const error = await pagination
          .paginateQueryset(query, new ApiRequest({ url: 'http://testserver/' }))
          .then(
            () => null,
            (e: unknown) => e,
          );
        expect(error, type).toBeInstanceOf(ConfigurationError);
        expect((error as Error).message, type).toMatch(
          new RegExp(`"v".*${type.split('(')[0]!.replace(/[[\]]/g, '\\$&')}`),
        );
        // Only catalog reads ran: no page query reached the database.
        expect(
          statements.filter((s) => s.includes(table)),
          type,
        ).toEqual([]);
      }
    });

    it(`[${name}] ids and values past 2^53 page exactly, whatever the driver returns for integers`, async () => {
      const ids = Array.from({ length: 9 }, (_, i) => 2n ** 53n + BigInt(i));
      const table = await create(
        'big_ids',
        'id bigint primary key, v bigint, grp integer',
        ids.map((id, i) => `(${id}, ${id - BigInt(i % 3)}, ${i % 2 === 0 ? 'null' : 1})`),
      );
      const expected = ids.map(String);
      expect(await walkIds(database.db, table, { pageSize: 2, ordering: 'id' })).toEqual(expected);
      expect(await walkIds(database.db, table, { pageSize: 2, ordering: '-id' })).toEqual(
        [...expected].reverse(),
      );
      const byV = await walkIds(database.db, table, { pageSize: 2, ordering: ['v', 'id'] });
      expect(new Set(byV).size).toBe(9);
      // A nullable column: the NULL block is fetched too (safe integers report `notnull` as 1n).
      const byGrp = await walkIds(database.db, table, { pageSize: 2, ordering: 'grp' });
      expect(byGrp).toEqual([
        ...expected.filter((_, i) => i % 2 === 1),
        ...expected.filter((_, i) => i % 2 === 0),
      ]);
    });

    it(`[${name}] integer positions need no extra column; only a page holding a rounded integer is fetched again, with its exact text`, async () => {
      // Ids 1-6, then six past 2^53 (better-sqlite3 without safe integers rounds them).
      const ids = [1n, 2n, 3n, 4n, 5n, 6n, ...Array.from({ length: 6 }, (_, i) => 2n ** 53n + BigInt(i + 1))];
      const table = await create(
        'exact_ids',
        'id bigint primary key, v integer',
        ids.map((id) => `(${id}, 1)`),
      );
      const text = database.dialect === 'mysql' ? 'char' : 'text';
      const query = fromKysely(
        database.db
          .selectFrom(table)
          .selectAll()
          .select(sql<string>`cast(id as ${sql.raw(text)})`.as('tid')),
        { db: database.db },
      );
      const pages: Array<{ ids: string[]; statements: string[] }> = [];
      for (const ordering of ['id', '-id']) {
        let url: string | null = 'http://testserver/';
        for (let n = 0; url !== null && n < 20; n += 1) {
          const pagination = new CursorPagination({ pageSize: 3, ordering });
          statements.length = 0;
          const rows: Row[] = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
          expect(
            rows.flatMap((r) => Object.keys(r).filter((k) => /^pagewise(?:x?\d+|tie)$/.test(k))),
          ).toEqual([]);
          pages.push({
            ids: rows.map((r) => String(r.tid)),
            statements: statements.filter((s) => s.includes(table)),
          });
          url = pagination.getNextLink();
        }
      }
      const expected = ids.map(String);
      expect(pages.flatMap((p) => p.ids)).toEqual([...expected, ...[...expected].reverse()]);
      // Every page's statement selects no exact text first.
      for (const page of pages) expect(page.statements[0], page.ids.join()).not.toContain('pagewisex');
      const refetched = pages.filter((p) => p.statements.some((s) => s.includes('pagewisex')));
      if (name === 'sqlite') {
        // The pages of ids past 2^53 (and those whose look-ahead row is one) ran twice.
        expect(refetched.map((p) => p.ids[0])).toEqual(
          expect.arrayContaining([String(ids[6]), String(ids[11])]),
        );
        for (const page of refetched) expect(page.statements).toHaveLength(2);
        expect(pages[0]!.statements).toHaveLength(1);
        expect(pages.at(-1)!.statements).toHaveLength(1);
      } else {
        expect(refetched).toEqual([]);
        for (const page of pages) expect(page.statements, page.ids.join()).toHaveLength(1);
      }
    });

    if (target.name === 'postgres' || target.name === 'pglite') {
      it(`[${name}] a session with a non-ISO DateStyle walks microsecond timestamps exactly`, async () => {
        const rows = Array.from(
          { length: 9 },
          (_, i) =>
            `(${9 - i}, '2024-05-01 12:00:00.123${String(100 + i * 7).padStart(3, '0')}+00', '2024-05-0${i + 1}')`,
        );
        const table = await create(
          'datestyle',
          'id integer primary key, ts timestamptz not null, d date not null',
          rows,
        );
        for (const style of ['SQL, DMY', 'German', 'Postgres, MDY']) {
          // One connection, so the session setting holds for every statement of the walk.
          await database.db.connection().execute(async (db) => {
            await sql.raw(`set DateStyle = '${style}'`).execute(db);
            try {
              expect(await walkIds(db, table, { pageSize: 2, ordering: 'ts' }), style).toEqual([
                '9',
                '8',
                '7',
                '6',
                '5',
                '4',
                '3',
                '2',
                '1',
              ]);
              expect(await walkIds(db, table, { pageSize: 4, ordering: '-d' }), style).toEqual([
                '1',
                '2',
                '3',
                '4',
                '5',
                '6',
                '7',
                '8',
                '9',
              ]);
            } finally {
              await sql`reset DateStyle`.execute(db);
            }
          });
        }
      });
    }
  });
}
