// Issue 36 §3: the page functions' `ordering` is typed by the query's rows. A misspelt field written
// in the call (`'-createdAt'` over a `created_at` column) is a compile error naming it: `pnpm
// typecheck` checks every @ts-expect-error below, and fails if one of them stops being an error.
// An ordering the compiler cannot know (a `string` from configuration, options typed
// `CursorPageOptions` once and shared) still compiles, and is checked at run time.
import {
  type ConnectionOptions,
  type CursorPageOptions,
  connectionFromQuery,
  cursorPage,
  type PaginateCursorOptions,
  paginateCursor,
  streamRows,
} from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';

interface Post {
  id: number;
  created_at: string;
  title: string;
}
const POSTS: Post[] = [
  { id: 1, created_at: '2024-01-02', title: 'b' },
  { id: 2, created_at: '2024-01-01', title: 'a' },
];
const url = 'http://testserver/posts/';

describe('ordering typed by the query row', () => {
  it('fields of the row compile and page; misspelt ones are compile errors', async () => {
    const query = fromArray(POSTS, { uniqueKey: 'id' });
    const page = await cursorPage(query, url, { pageSize: 1, ordering: '-created_at' });
    expect(page.rows.map((r) => r.id)).toEqual([1]);
    await cursorPage(query, url, { pageSize: 1, ordering: ['-created_at', 'id'] });
    await cursorPage(query, url, { pageSize: 1, ordering: [{ field: 'title', direction: 'desc' }] });
    await paginateCursor(query, { pageSize: 1, ordering: 'title' });
    await connectionFromQuery(query, { first: 1 }, { ordering: ['-id'] });

    const misspelt = [
      // @ts-expect-error createdAt is not a field of Post (created_at is)
      () => cursorPage(query, url, { pageSize: 1, ordering: '-createdAt' }),
      // @ts-expect-error a misspelt term in a list
      () => cursorPage(query, url, { pageSize: 1, ordering: ['-created_at', 'titel'] }),
      // @ts-expect-error a misspelt field of a term object
      () => cursorPage(query, url, { pageSize: 1, ordering: [{ field: 'createdAt', direction: 'asc' }] }),
      // @ts-expect-error paginateCursor is typed alike
      () => paginateCursor(query, { pageSize: 1, ordering: 'createdAt' }),
      // @ts-expect-error connectionFromQuery is typed alike
      () => connectionFromQuery(query, { first: 1 }, { ordering: ['-createdAt'] }),
      // @ts-expect-error streamRows is typed alike
      () => streamRows(query, { ordering: 'createdAt' }),
    ];
    // At run time they are refused too, naming the nearest field.
    await expect(misspelt[0]!()).rejects.toThrow(/createdAt/);
  });

  it("a Kysely query's selection types it: columns not selected are not its rows' fields", async () => {
    const db = new Kysely<{ posts: Post }>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
    }) as Kysely<{ posts: Post }>;
    const query = fromKysely(db.selectFrom('posts').select(['id', 'created_at']), { db });
    const check = () => {
      void cursorPage(query, url, { pageSize: 1, ordering: '-created_at' });
      // @ts-expect-error title is not selected
      void cursorPage(query, url, { pageSize: 1, ordering: '-title' });
    };
    expect(typeof check).toBe('function');
    await db.destroy();
  });

  it('orderings the compiler cannot know still compile: a string, options typed once', async () => {
    const query = fromArray(POSTS, { uniqueKey: 'id' });
    const fromConfig: string = process.env.PAGEWISE_TEST_ORDERING ?? '-created_at';
    await cursorPage(query, url, { pageSize: 1, ordering: fromConfig });
    await cursorPage(query, url, { pageSize: 1, ordering: [fromConfig, 'id'] });
    const feed: CursorPageOptions = { pageSize: 1, ordering: '-created_at' };
    expect((await cursorPage(query, url, feed)).rows.map((r) => r.id)).toEqual([1]);
    const job: PaginateCursorOptions = { pageSize: 1, ordering: 'title' };
    await paginateCursor(query, job);
    const relay: ConnectionOptions = { ordering: ['-id'] };
    await connectionFromQuery(query, { first: 1 }, relay);
    // A query of unknown rows takes any field.
    const loose = fromArray<Record<string, unknown>>(POSTS as unknown as Record<string, unknown>[], {
      uniqueKey: 'id',
    });
    await cursorPage(loose, url, { pageSize: 1, ordering: '-created_at' });
  });
});
