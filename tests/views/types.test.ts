// Types that flow (issue 11, item 4): the row type travels from the queryset to the serializer,
// orderings are checked against the row's fields, and page bodies are typed per style.

import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  type ApiResponse,
  type CursorPaginated,
  CursorPagination,
  type LimitOffsetPaginated,
  LimitOffsetPagination,
  ListView,
  type OrderingField,
  type PageNumberPaginated,
  PageNumberPagination,
  type Paginated,
  type RouteHandler,
  type TypedOrdering,
} from '@pagewise/rest';
import Database from 'better-sqlite3';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, expectTypeOf, it } from 'vitest';

interface Article {
  id: number;
  title: string;
  created: Date;
}

const articles: Article[] = [
  { id: 1, title: 'a', created: new Date(Date.UTC(2024, 0, 1)) },
  { id: 2, title: 'b', created: new Date(Date.UTC(2024, 0, 2)) },
  { id: 3, title: 'c', created: new Date(Date.UTC(2024, 0, 3)) },
];
const get = (search = '') => new ApiRequest({ url: `http://testserver/${search}` });

describe('ListView.asView infers the row from the queryset', () => {
  it("the README's serializer compiles under strict without annotations", async () => {
    const handler = ListView.asView({
      queryset: fromArray(articles),
      paginationClass: PageNumberPagination,
      serializer: (row) => {
        expectTypeOf(row).toEqualTypeOf<Article>();
        return { ...row, url: `/articles/${row.id}/` };
      },
    });
    expectTypeOf(handler).toEqualTypeOf<RouteHandler>();
    const response = (await handler(get('?format=json'))) as ApiResponse;
    expect(JSON.parse(response.data as string)).toEqual(
      articles.map((a) => ({ ...a, created: a.created.toISOString(), url: `/articles/${a.id}/` })),
    );
  });

  it('a queryset made per request infers the row too, and so does a Kysely query', async () => {
    interface DB {
      article: { id: Generated<number>; title: string; created: string };
    }
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    await sql`create table article (id integer primary key, title text not null, created text not null)`.execute(
      db,
    );
    await db.insertInto('article').values({ title: 'x', created: '2024-01-01' }).execute();
    const handler = ListView.asView({
      queryset: () => fromKysely(db.selectFrom('article').select(['id', 'title']).orderBy('id'), { db }),
      ordering: '-title',
      orderingFields: ['id', 'title'],
      serializer: (row) => {
        expectTypeOf(row).toEqualTypeOf<{ id: number; title: string }>();
        return { ...row, upper: row.title.toUpperCase() };
      },
    });
    const response = (await handler(get('?format=json'))) as ApiResponse;
    expect(JSON.parse(response.data as string)).toEqual([{ id: 1, title: 'x', upper: 'X' }]);
    await db.destroy();
  });

  it('a subclass keeps its declared row', () => {
    class ArticleList extends ListView<Article> {
      override queryset = fromArray(articles);
    }
    ArticleList.asView({
      ordering: ['-created', 'id'],
      serializer: (row) => {
        expectTypeOf(row).toEqualTypeOf<Article>();
        return row.title;
      },
    });
  });
});

describe('ordering and orderingFields are checked against the row', () => {
  it('accepts fields of the row, with or without "-", and terms', () => {
    expectTypeOf<OrderingField<Article>>().toEqualTypeOf<'id' | 'title' | 'created'>();
    expectTypeOf<'-created'>().toExtend<TypedOrdering<Article>>();
    expectTypeOf<['-created', 'id']>().toExtend<TypedOrdering<Article>>();
    expectTypeOf<[{ field: 'created'; direction: 'desc'; nulls: 'last' }]>().toExtend<
      TypedOrdering<Article>
    >();
    ListView.asView({
      queryset: fromArray(articles),
      ordering: [{ field: 'created', direction: 'desc' }, 'id'],
      orderingFields: ['title', 'created'],
    });
  });

  it('rejects names the row does not have', () => {
    expectTypeOf<'-published'>().not.toExtend<TypedOrdering<Article>>();
    expectTypeOf<[{ field: 'published'; direction: 'desc' }]>().not.toExtend<TypedOrdering<Article>>();
    // @ts-expect-error: 'published' is not a field of Article
    ListView.asView({ queryset: fromArray(articles), ordering: '-published' });
    // @ts-expect-error: 'author' is not a field of Article
    ListView.asView({ queryset: fromArray(articles), orderingFields: ['title', 'author'] });
    // @ts-expect-error: terms are checked too
    ListView.asView({ queryset: fromArray(articles), ordering: [{ field: 'author', direction: 'asc' }] });
  });

  it('untyped rows keep any string', () => {
    expectTypeOf<OrderingField<unknown>>().toEqualTypeOf<string>();
    expectTypeOf<OrderingField<Record<string, unknown>>>().toEqualTypeOf<string>();
    expectTypeOf<OrderingField<number>>().toEqualTypeOf<string>();
    ListView.asView({ queryset: fromArray<Record<string, unknown>>([]), ordering: '-anything' });
    ListView.asView({ ordering: '-anything', orderingFields: ['whatever'] });
  });
});

describe('page bodies are typed per style', () => {
  it('page.response(data).data is the style body of the serialized type', async () => {
    const query = fromArray(articles);
    const numbered = await new PageNumberPagination({ pageSize: 2 }).paginate(query, get());
    expectTypeOf(numbered!.rows).toEqualTypeOf<readonly Article[]>();
    const numberedBody = numbered!.response(numbered!.rows.map((a) => a.title)).data;
    expectTypeOf(numberedBody).toEqualTypeOf<PageNumberPaginated<string>>();
    expect(numberedBody).toEqual({
      count: 3,
      next: 'http://testserver/?page=2',
      previous: null,
      results: ['a', 'b'],
    });

    const window = await new LimitOffsetPagination({ defaultLimit: 2 }).paginate(query, get('?offset=1'));
    const windowBody = window!.response(window!.rows.map((a) => a.id)).data;
    expectTypeOf(windowBody).toEqualTypeOf<LimitOffsetPaginated<number>>();
    expect(windowBody).toEqual({
      count: 3,
      next: null,
      previous: 'http://testserver/?limit=2',
      results: [2, 3],
    });

    const cursor = await new CursorPagination({ pageSize: 2, ordering: 'id' }).paginate(query, get());
    const cursorBody = cursor!.response([...cursor!.rows]).data;
    expectTypeOf(cursorBody).toEqualTypeOf<CursorPaginated<Article>>();
    expect(Object.keys(cursorBody)).toEqual(['next', 'previous', 'results']);

    expectTypeOf(numberedBody).toExtend<Paginated<string>>();
    expectTypeOf(cursor!.response).returns.toEqualTypeOf<ApiResponse<CursorPaginated<unknown>>>();
  });

  it('a page value is frozen and so are the options', async () => {
    const pagination = new PageNumberPagination({ pageSize: 2, lastPageStrings: ['end'] });
    expect(Object.isFrozen(pagination)).toBe(true);
    expect(Object.isFrozen(pagination.lastPageStrings)).toBe(true);
    expect(() => {
      (pagination as { pageSize: number }).pageSize = 5;
    }).toThrow(TypeError);
    const page = await pagination.paginate(fromArray(articles), get());
    expect(Object.isFrozen(page)).toBe(true);
    expect(Object.isFrozen(page!.rows)).toBe(true);

    class Fifty extends PageNumberPagination {
      override pageSize = 50;
    }
    const sub = new Fifty();
    // Subclass fields are assigned after the base constructor: frozen at first use.
    expect(Object.isFrozen(sub)).toBe(false);
    expect((await sub.paginate(fromArray(articles), get()))!.rows).toHaveLength(3);
    expect(Object.isFrozen(sub)).toBe(true);
  });

  it("an option array is copied unless it is frozen through and through: the caller's own array stays theirs", () => {
    const mine = ['-id'];
    const copied = new CursorPagination({ ordering: mine });
    expect(copied.ordering).not.toBe(mine);
    expect(copied.ordering).toEqual(['-id']);
    mine.push('title');
    expect(copied.ordering).toEqual(['-id']);
    // A constant frozen with its terms (a view hands it to the paginator of every request) is kept.
    const constant = Object.freeze(['-id', Object.freeze({ field: 'title', direction: 'asc' as const })]);
    expect(new CursorPagination({ ordering: constant }).ordering).toBe(constant);
    // A frozen array holding a term that is not frozen is copied, term and all.
    const term = { field: 'title', direction: 'asc' as const };
    const shallow = new CursorPagination({ ordering: Object.freeze(['-id', term]) });
    expect(Object.isFrozen((shallow.ordering as readonly unknown[])[1])).toBe(true);
    expect((shallow.ordering as readonly unknown[])[1]).not.toBe(term);
  });
});
