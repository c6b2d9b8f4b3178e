import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  CursorPagination,
  LimitOffsetPagination,
  NotFound,
  PageNumberPagination,
} from '@pagewise/rest';
import { describe, expect, test } from 'vitest';

const rows = Array.from({ length: 100 }, (_, id) => ({ id, created: id % 7 }));
const request = (query: string) => new ApiRequest({ url: `http://testserver/${query}` });

/** Counts every row the paginator asks the adapter for. */
function countingQuery() {
  const query = fromArray(rows);
  const fetched: number[] = [];
  return {
    fetched,
    query: {
      adapter: query.adapter,
      ordering: query.ordering,
      ordered: query.ordered,
      uniqueKey: query.uniqueKey,
      description: query.description,
      orderBy: (terms: Parameters<typeof query.orderBy>[0]) => query.orderBy(terms),
      count: () => query.count(),
      fetch: async (window: Parameters<typeof query.fetch>[0]) => {
        fetched.push(window.limit ?? Number.POSITIVE_INFINITY);
        return query.fetch(window);
      },
    },
  };
}

describe('maxOffset', () => {
  test('limit/offset: offsets up to the cap are served, beyond it 404 with a clear detail', async () => {
    const pagination = new LimitOffsetPagination({ defaultLimit: 10, maxOffset: 50 });
    expect(await pagination.paginateQueryset(fromArray(rows), request('?offset=50'))).toHaveLength(10);
    const error = await pagination
      .paginateQueryset(fromArray(rows), request('?offset=51'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFound);
    expect((error as NotFound).detail).toBe('Offset 51 is beyond the maximum offset of 50.');
  });

  test('page number: a page starting beyond the cap is 404, page=last included', async () => {
    const pagination = new PageNumberPagination({ pageSize: 10, maxOffset: 50 });
    expect(await pagination.paginateQueryset(fromArray(rows), request('?page=6'))).toHaveLength(10);
    for (const page of ['7', 'last']) {
      const error = await pagination
        .paginateQueryset(fromArray(rows), request(`?page=${page}`))
        .catch((e: unknown) => e);
      expect((error as NotFound).detail).toBe(
        `Offset ${page === 'last' ? 90 : 60} is beyond the maximum offset of 50.`,
      );
    }
  });

  test('off by default', async () => {
    expect(
      await new LimitOffsetPagination({ defaultLimit: 10 }).paginateQueryset(
        fromArray(rows),
        request('?offset=95'),
      ),
    ).toHaveLength(5);
  });
});

describe('a request never makes the server fetch more than maxPageSize + 1 rows', () => {
  const huge = ['1000', '99999999999999999999', '1e9', '-5', '0', ' 200 ', '１０００'];
  test.each(huge)('page_size/limit=%s', async (value) => {
    const { query, fetched } = countingQuery();
    const styles = [
      [
        new PageNumberPagination({ pageSize: 5, pageSizeQueryParam: 'page_size', maxPageSize: 20 }),
        `?page_size=${value}`,
      ],
      [new LimitOffsetPagination({ defaultLimit: 5, maxLimit: 20 }), `?limit=${value}`],
      [
        new CursorPagination({
          pageSize: 5,
          pageSizeQueryParam: 'page_size',
          maxPageSize: 20,
          ordering: 'created',
        }),
        `?page_size=${encodeURIComponent(value)}`,
      ],
    ] as const;
    for (const [pagination, query_] of styles) await pagination.paginateQueryset(query, request(query_));
    expect(fetched.length).toBe(3);
    expect(Math.max(...fetched)).toBeLessThanOrEqual(21);
  });
});

describe('Link header size', () => {
  test('a Link header that would exceed 8 KiB is left out; the body keeps the links', async () => {
    const pagination = new PageNumberPagination({ pageSize: 10 });
    await pagination.paginateQueryset(fromArray(rows), request(`?page=2&q=${'x'.repeat(5000)}`));
    const response = pagination.getPaginatedResponse([]);
    expect(response.headers.get('link')).toBeNull();
    expect((response.data as { next: string }).next).toContain('x'.repeat(5000));
    await pagination.paginateQueryset(fromArray(rows), request('?page=2&q=short'));
    expect(pagination.getPaginatedResponse([]).headers.get('link')).toBe(
      '<http://testserver/?page=3&q=short>; rel="next", <http://testserver/?q=short>; rel="prev"',
    );
  });
});
