// Issue 36 §3: mistakes that say how to fix them. A client-settable page size with no maximum is
// warned of once per options object, naming the option; an unordered query's warning names the
// fix and is given once per options object, not on every request; no ordering anywhere says so
// (not "created", a field the user never wrote) and how to give one; a relative URL says it must
// be absolute and how to build one in Hono, Express and Fastify.
import {
  ConfigurationError,
  connectionFromQuery,
  cursorPage,
  limitOffsetPage,
  type OrderedQuery,
  PaginationWarning,
  pageNumberPage,
  paginateCursor,
  streamRows,
  UnorderedObjectListWarning,
} from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROWS = Array.from({ length: 30 }, (_, i) => ({
  id: i + 1,
  created_at: `2024-01-${String(i + 1).padStart(2, '0')}`,
}));
// biome-ignore lint/suspicious/noExplicitAny: the table is made at run time.
let db: Kysely<any>;

beforeAll(async () => {
  db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  await db.schema
    .createTable('posts')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('created_at', 'text')
    .execute();
  await db.insertInto('posts').values(ROWS).execute();
});
afterAll(() => db.destroy());

const backends: ReadonlyArray<[string, () => OrderedQuery<Record<string, unknown>>]> = [
  ['memory', () => fromArray(ROWS, { uniqueKey: 'id' })],
  ['sqlite', () => fromKysely(db.selectFrom('posts').selectAll(), { db })],
];

describe('a client-settable page size without a maximum', () => {
  it('pageNumberPage and cursorPage warn once per options object, naming maxPageSize', async () => {
    const seen: unknown[] = [];
    const onWarning = (warning: unknown) => seen.push(warning);
    const numbered = { pageSize: 2, pageSizeQueryParam: 'page_size', onWarning };
    for (let i = 0; i < 3; i += 1) {
      const page = await pageNumberPage(fromArray(ROWS), 'http://testserver/?page_size=1000', numbered);
      expect(page.rows).toHaveLength(30);
    }
    expect(seen).toEqual([expect.any(PaginationWarning)]);
    const [warning] = seen as PaginationWarning[];
    expect(warning!.message).toMatch(
      /pageNumberPage: pageSizeQueryParam 'page_size' lets a client choose any page size/,
    );
    expect(warning!.message).toContain('maxPageSize');

    // cursorPage has no hook of its own: process.emitWarning hears it.
    const heard: unknown[] = [];
    const listen = (w: Error) => heard.push(w);
    process.on('warning', listen);
    try {
      const feed = { pageSize: 2, ordering: 'id', pageSizeQueryParam: 'page_size' };
      for (let i = 0; i < 3; i += 1)
        await cursorPage(fromArray(ROWS, { uniqueKey: 'id' }), 'http://testserver/', feed);
      await new Promise((resolve) => setImmediate(resolve));
      expect(heard.filter((w) => w instanceof PaginationWarning)).toHaveLength(1);
      expect(String((heard[0] as Error).message)).toContain('maxPageSize');
    } finally {
      process.off('warning', listen);
    }
  });

  it('limitOffsetPage warns once per options object, naming maxLimit', async () => {
    const seen: unknown[] = [];
    const options = { defaultLimit: 2, onWarning: (warning: unknown) => seen.push(warning) };
    for (let i = 0; i < 3; i += 1) {
      const page = await limitOffsetPage(fromArray(ROWS), 'http://testserver/?limit=1000', options);
      expect(page!.rows).toHaveLength(30);
    }
    expect(seen).toEqual([expect.any(PaginationWarning)]);
    expect((seen[0] as Error).message).toMatch(/limitOffsetPage: .*maxLimit/);
  });

  it('a maximum, or no client-settable size, is not warned of', async () => {
    const seen: unknown[] = [];
    const onWarning = (warning: unknown) => seen.push(warning);
    await pageNumberPage(fromArray(ROWS), 'http://testserver/?page_size=1000', {
      pageSize: 2,
      pageSizeQueryParam: 'page_size',
      maxPageSize: 10,
      onWarning,
    });
    await pageNumberPage(fromArray(ROWS), 'http://testserver/', { pageSize: 2, onWarning });
    await limitOffsetPage(fromArray(ROWS), 'http://testserver/?limit=5', { maxLimit: 10, onWarning });
    expect(seen).toEqual([]);
  });
});

describe('an unordered query', () => {
  it('is told once per hook (once per options object without one), and the warning names the fix', async () => {
    const seen: unknown[] = [];
    const numbered = { pageSize: 2, onWarning: (warning: unknown) => seen.push(warning) };
    const window = { defaultLimit: 2, maxLimit: 10, onWarning: (warning: unknown) => seen.push(warning) };
    for (let i = 0; i < 3; i += 1) {
      const query = fromKysely(db.selectFrom('posts').selectAll(), { db });
      await pageNumberPage(query, 'http://testserver/?page=2', numbered);
      await limitOffsetPage(query, 'http://testserver/', window);
    }
    expect(seen).toEqual([expect.any(UnorderedObjectListWarning), expect.any(UnorderedObjectListWarning)]);
    for (const warning of seen as Error[]) {
      expect(warning.message).toMatch(
        /^Pagination may yield inconsistent results with an unordered object_list: kysely query on "posts"\./,
      );
      expect(warning.message).toContain(".orderBy('id')");
      expect(warning.message).toContain('`ordering`');
    }
    // Without a hook: once per options object, through process.emitWarning.
    const heard: Error[] = [];
    const listen = (w: Error) => heard.push(w);
    process.on('warning', listen);
    try {
      const options = { pageSize: 2 };
      for (let i = 0; i < 3; i += 1) {
        await pageNumberPage(
          fromKysely(db.selectFrom('posts').selectAll(), { db }),
          'http://testserver/',
          options,
        );
      }
      await pageNumberPage(fromKysely(db.selectFrom('posts').selectAll(), { db }), 'http://testserver/', {
        pageSize: 2,
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(heard.filter((w) => w.name === 'UnorderedObjectListWarning')).toHaveLength(2);
    } finally {
      process.off('warning', listen);
    }
  });
});

describe.each(backends)('no ordering anywhere, over %s', (_name, query) => {
  const expectNoOrdering = (error: unknown) => {
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as Error).message;
    expect(message).toMatch(/^No ordering was given/);
    expect(message).toContain("{ ordering: '-id' }");
    expect(message).toContain('.orderBy(');
    expect(message).not.toMatch(/unknown field "created"|"created" is not a column/);
  };

  it('cursorPage, paginateCursor, connectionFromQuery and streamRows say so and how to give one', async () => {
    expectNoOrdering(await cursorPage(query(), 'http://testserver/', { pageSize: 2 }).catch((e) => e));
    expectNoOrdering(await paginateCursor(query(), { pageSize: 2 }).catch((e) => e));
    expectNoOrdering(await connectionFromQuery(query(), { first: 2 }).catch((e) => e));
    const walk = async () => {
      for await (const _row of streamRows(query())) break;
    };
    expectNoOrdering(await walk().catch((e) => e));
  });

  it('an ordering that names no field is still answered with the field and the nearest one', async () => {
    const error = await cursorPage(query(), 'http://testserver/', {
      pageSize: 2,
      ordering: '-createdAt',
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).not.toMatch(/No ordering was given/);
  });
});

describe('a relative URL', () => {
  it('is refused by every page function, saying it must be absolute and how to build it', async () => {
    const query = fromArray(ROWS, { uniqueKey: 'id' });
    const errors = [
      await cursorPage(query, '/posts/?page_size=2', { pageSize: 2, ordering: 'id' }).catch((e) => e),
      await pageNumberPage(query, '/posts/?page=2', { pageSize: 2 }).catch((e) => e),
      await limitOffsetPage(query, 'posts?limit=2', { defaultLimit: 2 }).catch((e) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(ConfigurationError);
      const message = (error as Error).message;
      expect(message).toMatch(/must be the request's absolute URL/);
      expect(message).toMatch(/Hono: c\.req\.url/);
      expect(message).toMatch(/Express: new URL\(req\.originalUrl, /);
      expect(message).toMatch(/Fastify: new URL\(request\.url, /);
    }
    expect((errors[0] as Error).message).toContain('"/posts/?page_size=2"');
  });
});
