import { fromArray } from '@pagewise/memory-adapter';
import { ApiRequest, ApiResponse, CursorPagination, cursorPage } from '@pagewise/rest';
import { describe, expect, test } from 'vitest';
import { asApiResponse, pageResponse } from './page-response.js';

const rows = [1, 2, 3, 4, 5].map((id) => ({ id, name: `n${id}` }));
const url = 'http://testserver/items?x=1';

describe('asApiResponse: what the interceptor answers', () => {
  test("an engine page: DRF's body around its rows and its Link header", async () => {
    const page = await cursorPage(fromArray(rows), url, { pageSize: 2, ordering: 'id' });
    const response = asApiResponse(page)!;
    expect(response.status).toBe(200);
    expect(response.data).toEqual(page.body(page.rows));
    expect(response.headers.get('link')).toBe(`<${page.next}>; rel="next"`);
  });

  test("a DRF paginator's page: the response it makes itself", async () => {
    const pagination = new CursorPagination({ pageSize: 2, ordering: 'id' });
    const page = (await pagination.paginate(fromArray(rows), new ApiRequest({ url })))!;
    const response = asApiResponse(page)!;
    expect(response.data).toEqual(page.response([...page.rows]).data);
    expect(response.headers.get('link')).toBe(`<${page.next}>; rel="next"`);
  });

  test('an ApiResponse as it is, and one of another copy of @pagewise/rest by its shape', () => {
    const own = new ApiResponse({ ok: true }, { status: 202 });
    expect(asApiResponse(own)).toBe(own);
    class ForeignApiResponse {
      readonly status = 201;
      readonly headers = new Headers({ location: '/items/7' });
      readonly data = { id: 7 };
      toFetchResponse(): Response {
        return new Response();
      }
    }
    const foreign = asApiResponse(new ForeignApiResponse())!;
    expect(foreign).toBeInstanceOf(ApiResponse);
    expect([foreign.status, foreign.headers.get('location'), foreign.data]).toEqual([
      201,
      '/items/7',
      { id: 7 },
    ]);
  });

  test('anything else is not Pagewise’s', () => {
    for (const value of [null, undefined, 'text', 7, rows, { results: rows }, { status: 200, data: 1 }]) {
      expect(asApiResponse(value)).toBeNull();
    }
  });
});

test('pageResponse: the page body around serialized rows, with the page’s headers', async () => {
  const page = await cursorPage(fromArray(rows), url, { pageSize: 2, ordering: 'id' });
  const response = pageResponse(
    page,
    page.rows.map((row) => row.name),
  );
  expect(response.data).toEqual({ next: page.next, previous: null, results: ['n1', 'n2'] });
  expect(response.headers.get('link')).toBe(`<${page.next}>; rel="next"`);
});
