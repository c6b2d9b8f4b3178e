// Kysely's identifier plugins (issue 36 §3): with CamelCasePlugin a snake_case table is read as
// camelCase rows, and orderings, the query's own ORDER BY, unique keys and lookups are written in
// the rows' names (`createdAt`), on every SQL database, with and without `db`. The custom casing
// Kysely documents (a subclass overriding `snakeCase`/`camelCase`) is covered by one that keeps
// acronyms (`authorID` <-> `author_id`).
import { cursorPage, type OrderedQuery, pageNumberPage, paginateCursor } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { CamelCasePlugin, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DatabaseTarget,
  databaseTargets,
  describeDatabase,
  type TestDatabase,
  tableName,
} from '../support/databases.js';
import { quote } from '../support/tables.js';

type Row = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: a select of it, whatever it selects.
type AnySelect = SelectQueryBuilder<any, any, any>;

/** CamelCasePlugin as Kysely documents customising it: `authorID` is `author_id`, and back. */
class AcronymCasePlugin extends CamelCasePlugin {
  protected override snakeCase(str: string): string {
    return super.snakeCase(str.replace(/ID$/, 'Id'));
  }
  protected override camelCase(str: string): string {
    return super.camelCase(str).replace(/Id$/, 'ID');
  }
}

/** 17 posts on 5 days (ties), some without a view count (NULLs), in the app's names. */
const POSTS: readonly Row[] = Array.from({ length: 17 }, (_, i) => ({
  id: i + 1,
  createdAt: `2024-03-0${(i * 7) % 5}`,
  titleText: `post ${String.fromCharCode(97 + ((i * 11) % 17))}`,
  viewCount: i % 4 === 0 ? null : (i * 13) % 6,
  authorID: (i % 3) + 1,
}));

/** Every page's ids of a cursor walk following `next`, then back from the last page by `previous`. */
async function walkBothWays(
  query: OrderedQuery<Row>,
  ordering: readonly string[] | undefined,
  pageSize = 4,
): Promise<{ forward: unknown[][]; back: unknown[][] }> {
  const forward: unknown[][] = [];
  let page = await paginateCursor(query, { pageSize, ...(ordering ? { ordering } : {}) });
  forward.push(page.results.map((r) => r.id));
  while (page.nextCursor !== null && forward.length < 20) {
    page = await paginateCursor(query, {
      pageSize,
      cursor: page.nextCursor,
      ...(ordering ? { ordering } : {}),
    });
    forward.push(page.results.map((r) => r.id));
  }
  const back: unknown[][] = [forward.at(-1)!];
  while (page.previousCursor !== null && back.length < 20) {
    page = await paginateCursor(query, {
      pageSize,
      cursor: page.previousCursor,
      ...(ordering ? { ordering } : {}),
    });
    back.unshift(page.results.map((r) => r.id));
  }
  return { forward, back };
}

function pluginCases(target: DatabaseTarget): void {
  const table = tableName(`pw_camel_${target.name}`);
  let database: TestDatabase;

  beforeAll(async () => {
    database = await target.open();
    const q = (name: string) => quote(database, name);
    const text = database.dialect === 'mysql' ? 'varchar(40) collate utf8mb4_bin' : 'varchar(40)';
    const collate = database.dialect === 'postgres' ? ' collate "C"' : '';
    await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
    await sql
      .raw(
        `create table ${q(table)} (${q('id')} integer primary key, ${q('created_at')} varchar(10) not null, ` +
          `${q('title_text')} ${text}${collate} not null unique, ${q('view_count')} integer, ${q('author_id')} integer not null)`,
      )
      .execute(database.db);
    // An index over the ordering and the key: MariaDB's keyset statements name it (FORCE INDEX).
    await sql
      .raw(`create index ${q(`${table}_created`)} on ${q(table)} (${q('created_at')}, ${q('id')})`)
      .execute(database.db);
    await database.db
      .withPlugin(new AcronymCasePlugin())
      .insertInto(table)
      .values(POSTS as Row[])
      .execute();
  });
  afterAll(async () => {
    if (!database) return;
    await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
    await database.close();
  });

  /** How a plugin names `author_id`: CamelCasePlugin `authorId`, the custom casing `authorID`. */
  const variants: ReadonlyArray<{ name: string; db: () => AnyDb; withDb: boolean; author: string }> = [
    {
      name: 'CamelCasePlugin with db',
      db: () => database.db.withPlugin(new CamelCasePlugin()),
      withDb: true,
      author: 'authorId',
    },
    {
      name: 'CamelCasePlugin without db',
      db: () => database.db.withPlugin(new CamelCasePlugin()),
      withDb: false,
      author: 'authorId',
    },
    {
      name: 'a custom casing with db',
      db: () => database.db.withPlugin(new AcronymCasePlugin()),
      withDb: true,
      author: 'authorID',
    },
  ];

  for (const variant of variants) {
    // The posts as this plugin's rows name them.
    const posts = POSTS.map(({ authorID, ...row }) => ({ ...row, [variant.author]: authorID }));
    const memory = () => fromArray(posts, { uniqueKey: 'id' });
    const from = (build: (db: AnyDb) => AnySelect, options: object = {}) => {
      const db = variant.db();
      return fromKysely(build(db), { ...(variant.withDb ? { db } : {}), ...options }) as OrderedQuery<Row>;
    };

    it(`[${target.name}] ${variant.name}: cursor walks in the rows' names visit every row, both ways`, async () => {
      // `viewCount` holds NULLs; `titleText` is unique; `createdAt` ties (the key breaks them).
      for (const ordering of [['-createdAt'], ['viewCount', '-titleText'], [variant.author, 'createdAt']]) {
        const expected = await walkBothWays(memory(), ordering);
        const walked = await walkBothWays(
          from((db) => db.selectFrom(table).selectAll()),
          ordering,
        );
        expect(walked, JSON.stringify(ordering)).toEqual(expected);
        expect(walked.forward.flat().sort((a, b) => Number(a) - Number(b))).toEqual(POSTS.map((r) => r.id));
      }
    });

    it(`[${target.name}] ${variant.name}: a composite key in the rows' names, a column of it not selected`, async () => {
      const uniqueKey = [variant.author, 'id'];
      for (const ordering of [['-createdAt'], ['viewCount']]) {
        const expected = await walkBothWays(fromArray(posts, { uniqueKey }), ordering);
        const walked = await walkBothWays(
          from((db) => db.selectFrom(table).select(['id', 'createdAt', 'viewCount']), { uniqueKey }),
          ordering,
        );
        expect(walked, JSON.stringify(ordering)).toEqual(expected);
      }
      const page = await cursorPage(
        from((db) => db.selectFrom(table).select(['id', 'createdAt']), { uniqueKey }),
        'http://testserver/',
        { pageSize: 3, ordering: '-createdAt' },
      );
      expect(page.rows.map((r) => Object.keys(r).sort())).toEqual([
        ['createdAt', 'id'],
        ['createdAt', 'id'],
        ['createdAt', 'id'],
      ]);
    });

    it(`[${target.name}] ${variant.name}: fields the query does not select are read and stripped`, async () => {
      const query = from((db) => db.selectFrom(table).select(['titleText']));
      const page = await paginateCursor(query, { pageSize: 5, ordering: ['-createdAt'] });
      expect(page.results.every((r) => Object.keys(r).join() === 'titleText')).toBe(true);
      const expected = await paginateCursor(memory(), { pageSize: 5, ordering: ['-createdAt'] });
      expect(page.results).toEqual(expected.results.map((r) => ({ titleText: r.titleText })));
      const second = await paginateCursor(query, {
        pageSize: 5,
        ordering: ['-createdAt'],
        cursor: page.nextCursor,
      });
      const expectedSecond = await paginateCursor(memory(), {
        pageSize: 5,
        ordering: ['-createdAt'],
        cursor: expected.nextCursor,
      });
      expect(second.results).toEqual(expectedSecond.results.map((r) => ({ titleText: r.titleText })));
    });

    it(`[${target.name}] ${variant.name}: without a unique key the database ranks the ties`, async () => {
      const query = from((db) => db.selectFrom(table).selectAll(), { uniqueKey: null });
      // DRF's position + offset cursors, whose ties the database orders as it likes (and whose
      // walk back may skip or repeat them, as DRF's does): every row once forward, dates in order.
      const { forward, back } = await walkBothWays(query, ['createdAt'], 3);
      const byDate = (pages: unknown[][]) =>
        pages.flat().map((id) => POSTS.find((r) => r.id === id)!.createdAt as string);
      expect([...forward.flat()].sort((a, b) => Number(a) - Number(b))).toEqual(POSTS.map((r) => r.id));
      for (const pages of [forward, back]) expect(byDate(pages)).toEqual([...byDate(pages)].sort());
    });

    it(`[${target.name}] ${variant.name}: the builder's own ORDER BY is the query's ordering`, async () => {
      const query = from((db) => db.selectFrom(table).selectAll().orderBy('createdAt', 'desc').orderBy('id'));
      // Named as the tree the plugin wrote names it (a builder keeps its own node to itself): the
      // plugin renames that name to itself, so it pages as `createdAt` does.
      expect(query.ordering).toEqual([
        { field: 'created_at', direction: 'desc' },
        { field: 'id', direction: 'asc' },
      ]);
      const reference = fromArray(posts, { uniqueKey: 'id', ordering: ['-createdAt', 'id'] });
      expect(await walkBothWays(query, undefined)).toEqual(await walkBothWays(reference, undefined));
      const numbered = await pageNumberPage(query, 'http://testserver/?page=2', { pageSize: 5 });
      const expected = await pageNumberPage(reference, 'http://testserver/?page=2', { pageSize: 5 });
      expect(numbered.rows).toEqual(expected.rows);
    });

    it(`[${target.name}] ${variant.name}: a camelCase unique key, lookups and counts`, async () => {
      const query = from((db) => db.selectFrom(table).select(['titleText', 'createdAt']), {
        uniqueKey: 'titleText',
      });
      const page = await cursorPage(query, 'http://testserver/', { pageSize: 6, ordering: '-createdAt' });
      const expected = await cursorPage(fromArray(posts, { uniqueKey: 'titleText' }), 'http://testserver/', {
        pageSize: 6,
        ordering: '-createdAt',
      });
      expect(page.rows).toEqual(
        expected.rows.map((r) => ({ titleText: r.titleText, createdAt: r.createdAt })),
      );
      const all = from((db) => db.selectFrom(table).selectAll());
      expect(await all.find?.('titleText', String(posts[3]!.titleText))).toEqual(posts[3]);
      expect(await all.find?.(variant.author, '2')).toMatchObject({ [variant.author]: 2 });
      expect(await all.count()).toEqual({ value: POSTS.length, exact: true });
    });
  }
}

for (const target of databaseTargets()) {
  describeDatabase(target, 'identifier plugins', () => pluginCases(target));
}
