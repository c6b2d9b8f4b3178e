import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  ConfigurationError,
  CursorPagination,
  connectionTypeDefs,
  LimitOffsetPagination,
  PageNumberPagination,
  selectsField,
} from '@pagewise/rest';
import { buildSchema, type GraphQLObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';

// CursorPagination's counts on DRF's layer (issue 38 §1): the body and the OpenAPI schema carry
// count fields only where a count is configured; the GraphQL SDL has totalCount only when asked.

const rows = Array.from({ length: 12 }, (_, i) => ({ id: i + 1 }));
const query = () => fromArray(rows, { uniqueKey: 'id' });
const get = (url = 'http://testserver/items') => new ApiRequest({ url });

describe('CursorPagination counts', () => {
  it('answers { count, next, previous, results } with count, the old body without', async () => {
    const plain = await new CursorPagination({ pageSize: 5, ordering: 'id' }).paginate(query(), get());
    expect(Object.keys(plain!.response([]).data)).toEqual(['next', 'previous', 'results']);
    const pagination = new CursorPagination({ pageSize: 5, ordering: 'id', count: 'exact' });
    const page = await pagination.paginate(query(), get());
    expect(page!.response([]).data).toEqual({ count: 12, next: page!.next, previous: null, results: [] });
    expect(Object.keys(page!.response([]).data)).toEqual(['count', 'next', 'previous', 'results']);
    const second = await pagination.paginate(query(), get(page!.next!));
    expect(second!.count).toBe(12);
    expect(second!.rows.map((r) => r.id)).toEqual([6, 7, 8, 9, 10]);
  });

  it('refuses a bad countCacheTtl or countTimeout', async () => {
    expect(() => new CursorPagination({ pageSize: 5, count: 'exact', countCacheTtl: -1 })).toThrow(
      ConfigurationError,
    );
    const pagination = new CursorPagination({ pageSize: 5, count: 'exact', countTimeout: 1.5 });
    await expect(pagination.paginate(query(), get())).rejects.toThrow(ConfigurationError);
  });

  it('the OpenAPI schema shows count fields only where a count is configured', () => {
    const item = { type: 'object' };
    const props = (p: {
      getPaginatedResponseSchema(s: object): { properties?: object; required?: unknown };
    }) => p.getPaginatedResponseSchema(item);
    expect(Object.keys(props(new CursorPagination({ pageSize: 5 })).properties!)).toEqual([
      'next',
      'previous',
      'results',
    ]);
    const exact = props(new CursorPagination({ pageSize: 5, count: 'exact' }));
    expect(Object.keys(exact.properties!)).toEqual(['count', 'next', 'previous', 'results']);
    expect(exact.required).toEqual(['count', 'results']);
    expect(Object.keys(props(new CursorPagination({ pageSize: 5, count: 'estimated' })).properties!)).toEqual(
      ['count', 'countMode', 'next', 'previous', 'results'],
    );
    expect(
      Object.keys(
        props(new CursorPagination({ pageSize: 5, count: 'exact', countCacheTtl: 1000 })).properties!,
      ),
    ).toEqual(['count', 'countMode', 'countAge', 'next', 'previous', 'results']);
    expect(
      Object.keys(
        props(new CursorPagination({ pageSize: 5, count: 'exact', countTimeout: 500 })).properties!,
      ),
    ).toEqual(['count', 'countMode', 'next', 'previous', 'results']);
    expect(Object.keys(props(new LimitOffsetPagination({ defaultLimit: 5 })).properties!)).toEqual([
      'count',
      'next',
      'previous',
      'results',
    ]);
    expect(
      Object.keys(props(new LimitOffsetPagination({ defaultLimit: 5, countTimeout: 500 })).properties!),
    ).toEqual(['count', 'countMode', 'next', 'previous', 'results']);
    expect(
      Object.keys(props(new PageNumberPagination({ pageSize: 5, countTimeout: 500 })).properties!),
    ).toContain('countMode');
  });
});

describe('GraphQL totalCount', () => {
  it('connectionTypeDefs has totalCount only when asked, and the SDL builds', () => {
    expect(connectionTypeDefs('Article')).not.toContain('totalCount');
    const sdl = connectionTypeDefs('Article', { totalCount: true });
    expect(sdl).toContain('totalCount: Int!');
    const schema =
      buildSchema(`type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Article { id: Int! }
${sdl}
type Query { articles: ArticleConnection! }`);
    expect(Object.keys((schema.getType('ArticleConnection') as GraphQLObjectType).getFields())).toEqual([
      'edges',
      'pageInfo',
      'totalCount',
    ]);
  });

  it('selectsField finds a field directly, in inline fragments and in named ones', () => {
    const info = (source: string) => {
      const document = parse(source);
      const operation = document.definitions.find((d) => d.kind === 'OperationDefinition')!;
      const fragments = Object.fromEntries(
        document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d]] : [])),
      );
      const field = (operation as unknown as { selectionSet: { selections: readonly unknown[] } })
        .selectionSet.selections[0];
      return { fieldNodes: [field], fragments } as unknown as Parameters<typeof selectsField>[0];
    };
    expect(selectsField(info('{ articles { totalCount } }'), 'totalCount')).toBe(true);
    expect(selectsField(info('{ articles { edges { cursor } } }'), 'totalCount')).toBe(false);
    expect(selectsField(info('{ articles { ... on ArticleConnection { totalCount } } }'), 'totalCount')).toBe(
      true,
    );
    expect(
      selectsField(
        info('{ articles { ...a } } fragment a on ArticleConnection { ...a totalCount }'),
        'totalCount',
      ),
    ).toBe(true);
    // A nested field of the same name does not count: only the connection's own selection does.
    expect(selectsField(info('{ articles { edges { node { totalCount } } } }'), 'totalCount')).toBe(false);
  });
});
