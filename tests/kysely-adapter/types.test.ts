import { fromKysely, type KyselyQuery } from '@pagewise/kysely-adapter';
import {
  ApiRequest,
  CursorPagination,
  type OrderedQuery,
  PageNumberPagination,
  type RowOf,
} from '@pagewise/rest';
import Database from 'better-sqlite3';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { expect, expectTypeOf, it } from 'vitest';

interface ArticleTable {
  id: Generated<number>;
  title: string;
  created: string;
  score: number | null;
}

interface DB {
  article: ArticleTable;
}

it('[sqlite] a typed query pages typed rows', async () => {
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  await sql`create table article (id integer primary key, title text not null, created datetime not null, score integer)`.execute(
    db,
  );
  await db
    .insertInto('article')
    .values([
      { title: 'b', created: '2024-01-02T00:00:00.000Z', score: 1 },
      { title: 'a', created: '2024-01-01T00:00:00.000Z', score: null },
    ])
    .execute();

  const query = fromKysely(db.selectFrom('article').select(['id', 'title', 'score']), { db });
  expectTypeOf(query).toEqualTypeOf<KyselyQuery<{ id: number; title: string; score: number | null }>>();
  expectTypeOf(query).toExtend<OrderedQuery<{ id: number; title: string; score: number | null }>>();
  expectTypeOf<RowOf<typeof query>>().toEqualTypeOf<{ id: number; title: string; score: number | null }>();

  const rows = await new CursorPagination({ pageSize: 5, ordering: '-created' }).paginateQueryset(
    query,
    new ApiRequest({ url: 'http://testserver/' }),
  );
  expectTypeOf(rows).toEqualTypeOf<{ id: number; title: string; score: number | null }[] | null>();
  expect(rows).toEqual([
    { id: 1, title: 'b', score: 1 },
    { id: 2, title: 'a', score: null },
  ]);

  const all = fromKysely(db.selectFrom('article').selectAll().orderBy('title'), { db });
  const page = await new PageNumberPagination({ pageSize: 1 }).paginateQueryset(
    all,
    new ApiRequest({ url: 'http://testserver/' }),
  );
  expectTypeOf(page).toEqualTypeOf<
    { id: number; title: string; created: string; score: number | null }[] | null
  >();
  expect(page?.map((r) => r.title)).toEqual(['a']);
  await db.destroy();
});
