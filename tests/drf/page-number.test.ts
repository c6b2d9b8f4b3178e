import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiError,
  ApiSettings,
  type CountResult,
  escapeHtml,
  getDisplayedPageNumbers,
  NotFound,
  type OrderedQuery,
  type PageLink,
  PageNumberPagination,
  Paginator,
  type PaginatorOptions,
  UnorderedObjectListWarning,
} from '@pagewise/rest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { get, newLog, range, wrapQuery } from './helpers.js';

const BREAK: PageLink = { url: null, number: null, isActive: false, isBreak: true };
const link = (url: string, number: number, isActive = false): PageLink => ({
  url,
  number,
  isActive,
  isBreak: false,
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function expectNotFound(promise: Promise<unknown>, detail: string): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(NotFound);
  expect((error as NotFound).status).toBe(404);
  expect((error as NotFound).code).toBe('not_found');
  expect((error as NotFound).detail).toBe(detail);
  expect((error as NotFound).toJSON()).toEqual({ detail });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('TestPaginationIntegration (filtered list, page_size query param, max 20)', () => {
  class BasicPagination extends PageNumberPagination {
    override pageSize = 5;
    override pageSizeQueryParam = 'page_size';
    override maxPageSize = 20;
  }
  const evens = () => fromArray(range(1, 101).filter((n) => n % 2 === 0));

  async function body(path: string) {
    const pagination = new BasicPagination();
    const rows = await pagination.paginateQueryset(evens(), get(path));
    expect(rows).not.toBeNull();
    return pagination.getPaginatedResponse(rows!).data;
  }

  it('filtered items are paginated', async () => {
    expect(await body('/?page=2')).toEqual({
      count: 50,
      next: 'http://testserver/?page=3',
      previous: 'http://testserver/',
      results: [12, 14, 16, 18, 20],
    });
  });

  it('the client may choose a page size', async () => {
    expect(await body('/?page_size=10')).toEqual({
      count: 50,
      next: 'http://testserver/?page=2&page_size=10',
      previous: null,
      results: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20],
    });
  });

  it('a page size over the maximum is capped, the raw text stays in links', async () => {
    expect(await body('/?page_size=1000')).toEqual({
      count: 50,
      next: 'http://testserver/?page=2&page_size=1000',
      previous: null,
      results: range(1, 21).map((n) => n * 2),
    });
  });

  it('a zero page size falls back to the default, the raw text stays in links', async () => {
    expect(await body('/?page_size=0')).toEqual({
      count: 50,
      next: 'http://testserver/?page=2&page_size=0',
      previous: null,
      results: [2, 4, 6, 8, 10],
    });
  });

  it.each(['-5', 'junk', '', '1.5'])('page_size=%j falls back to the default', async (size) => {
    const data = (await body(`/?page_size=${size}`)) as { results: unknown[]; next: string };
    expect(data.results).toEqual([2, 4, 6, 8, 10]);
    expect(data.next).toBe(`http://testserver/?page=2&page_size=${encodeURIComponent(size)}`);
  });

  it('additional query params are preserved', async () => {
    expect(await body('/?page=2&filter=even')).toEqual({
      count: 50,
      next: 'http://testserver/?filter=even&page=3',
      previous: 'http://testserver/?filter=even',
      results: [12, 14, 16, 18, 20],
    });
  });

  it('empty query params are preserved', async () => {
    expect(await body('/?page=2&filter=')).toEqual({
      count: 50,
      next: 'http://testserver/?filter=&page=3',
      previous: 'http://testserver/?filter=',
      results: [12, 14, 16, 18, 20],
    });
  });

  it.each(['0', 'invalid'])('page=%s is 404 Invalid page.', async (page) => {
    await expectNotFound(
      new BasicPagination().paginateQueryset(evens(), get(`/?page=${page}`)),
      'Invalid page.',
    );
  });

  it('the fallback page size is not clamped by maxPageSize', async () => {
    const pagination = new BasicPagination({ pageSize: 30 });
    // A subclass field wins over the constructor option, so set it after construction.
    pagination.pageSize = 30;
    const rows = await pagination.paginateQueryset(evens(), get('/'));
    expect(rows).toHaveLength(30);
  });
});

describe('TestPageNumberPagination (page_size 5 over 1..100)', () => {
  class ExamplePagination extends PageNumberPagination {
    override pageSize = 5;
  }
  const query = () => fromArray(range(1, 101));

  async function run(path: string) {
    const pagination = new ExamplePagination();
    const rows = await pagination.paginateQueryset(query(), get(path));
    const response = pagination.getPaginatedResponse(rows!);
    return { pagination, rows, response, content: response.data, context: pagination.getHtmlContext() };
  }

  it.each(['/', '/?page='])('no page number (%s) is page 1', async (path) => {
    const { pagination, rows, content, context } = await run(path);
    expect(rows).toEqual([1, 2, 3, 4, 5]);
    expect(content).toEqual({
      count: 100,
      next: 'http://testserver/?page=2',
      previous: null,
      results: [1, 2, 3, 4, 5],
    });
    expect(context).toEqual({
      previousUrl: null,
      nextUrl: 'http://testserver/?page=2',
      pageLinks: [
        link('http://testserver/', 1, true),
        link('http://testserver/?page=2', 2),
        link('http://testserver/?page=3', 3),
        BREAK,
        link('http://testserver/?page=20', 20),
      ],
    });
    expect(pagination.displayPageControls).toBe(true);
    expect(typeof pagination.toHtml()).toBe('string');
  });

  it('second page', async () => {
    const { rows, content, context } = await run('/?page=2');
    expect(rows).toEqual([6, 7, 8, 9, 10]);
    expect(content).toEqual({
      count: 100,
      next: 'http://testserver/?page=3',
      previous: 'http://testserver/',
      results: [6, 7, 8, 9, 10],
    });
    expect(context).toEqual({
      previousUrl: 'http://testserver/',
      nextUrl: 'http://testserver/?page=3',
      pageLinks: [
        link('http://testserver/', 1),
        link('http://testserver/?page=2', 2, true),
        link('http://testserver/?page=3', 3),
        BREAK,
        link('http://testserver/?page=20', 20),
      ],
    });
  });

  it('last page', async () => {
    const { rows, content, context } = await run('/?page=last');
    expect(rows).toEqual([96, 97, 98, 99, 100]);
    expect(content).toEqual({
      count: 100,
      next: null,
      previous: 'http://testserver/?page=19',
      results: [96, 97, 98, 99, 100],
    });
    expect(context).toEqual({
      previousUrl: 'http://testserver/?page=19',
      nextUrl: null,
      pageLinks: [
        link('http://testserver/', 1),
        BREAK,
        link('http://testserver/?page=18', 18),
        link('http://testserver/?page=19', 19),
        link('http://testserver/?page=20', 20, true),
      ],
    });
  });

  it('a middle page shows breaks on both sides', async () => {
    const { context } = await run('/?page=10');
    expect(context.pageLinks).toEqual([
      link('http://testserver/', 1),
      BREAK,
      link('http://testserver/?page=9', 9),
      link('http://testserver/?page=10', 10, true),
      link('http://testserver/?page=11', 11),
      BREAK,
      link('http://testserver/?page=20', 20),
    ]);
  });

  it('invalid page is NotFound', async () => {
    await expectNotFound(
      new ExamplePagination().paginateQueryset(query(), get('/?page=invalid')),
      'Invalid page.',
    );
  });

  it('response key order is count, next, previous, results', async () => {
    const { content } = await run('/?page=3');
    expect(Object.keys(content as object)).toEqual(['count', 'next', 'previous', 'results']);
  });

  it('sends an RFC 8288 Link header', async () => {
    expect((await run('/?page=3')).response.headers.get('link')).toBe(
      '<http://testserver/?page=4>; rel="next", <http://testserver/?page=2>; rel="prev"',
    );
    expect((await run('/')).response.headers.get('link')).toBe('<http://testserver/?page=2>; rel="next"');
    const single = new ExamplePagination();
    await single.paginateQueryset(fromArray([1, 2]), get('/'));
    expect(single.getPaginatedResponse([1, 2]).headers.get('link')).toBeNull();
  });

  it('get_paginated_response_schema (OpenAPI 3.0, the default)', () => {
    const unpaginated = { type: 'object', item: { properties: { 'test-property': { type: 'integer' } } } };
    const expected = {
      type: 'object',
      required: ['count', 'results'],
      properties: {
        count: { type: 'integer', example: 123 },
        next: {
          type: 'string',
          nullable: true,
          format: 'uri',
          example: 'http://api.example.org/accounts/?page=4',
        },
        previous: {
          type: 'string',
          nullable: true,
          format: 'uri',
          example: 'http://api.example.org/accounts/?page=2',
        },
        results: unpaginated,
      },
    };
    expect(new ExamplePagination().getPaginatedResponseSchema(unpaginated)).toEqual(expected);
    expect(new ExamplePagination().getPaginatedResponseSchema(unpaginated, { openapi: '3.0' })).toEqual(
      expected,
    );
  });

  it('get_paginated_response_schema (OpenAPI 3.1) types links ["string", "null"]', () => {
    const schema = new ExamplePagination({ pageQueryParam: 'p' }).getPaginatedResponseSchema(
      { type: 'array' },
      { openapi: '3.1' },
    );
    expect(schema).toEqual({
      type: 'object',
      required: ['count', 'results'],
      properties: {
        count: { type: 'integer', example: 123 },
        next: { type: ['string', 'null'], format: 'uri', example: 'http://api.example.org/accounts/?p=4' },
        previous: {
          type: ['string', 'null'],
          format: 'uri',
          example: 'http://api.example.org/accounts/?p=2',
        },
        results: { type: 'array' },
      },
    });
    expect(JSON.stringify(schema)).not.toContain('nullable');
  });

  it('schema operation parameters', () => {
    const page = {
      name: 'page',
      required: false,
      in: 'query',
      description: 'A page number within the paginated result set.',
      schema: { type: 'integer' },
    };
    expect(new ExamplePagination().getSchemaOperationParameters()).toEqual([page]);
    expect(new ExamplePagination({ pageSizeQueryParam: 'size' }).getSchemaOperationParameters()).toEqual([
      page,
      {
        name: 'size',
        required: false,
        in: 'query',
        description: 'Number of results to return per page.',
        schema: { type: 'integer' },
      },
    ]);
    expect(new ExamplePagination({ pageQueryParam: 'p' }).getSchemaOperationParameters()[0]!.name).toBe('p');
  });
});

describe('TestPageNumberPaginationOverride (host paginator whose count() is 1)', () => {
  class OverriddenPaginator<Row> extends Paginator<Row> {
    override count(): Promise<number> {
      return Promise.resolve(1);
    }
  }
  class ExamplePagination extends PageNumberPagination {
    override pageSize = 5;
    override hostPaginatorClass = OverriddenPaginator as new (
      query: OrderedQuery<unknown>,
      perPage: number,
      options?: PaginatorOptions,
    ) => Paginator<unknown>;
  }

  it('no page number', async () => {
    const pagination = new ExamplePagination();
    const rows = await pagination.paginateQueryset(fromArray(range(1, 101)), get('/'));
    expect(rows).toEqual([1]);
    expect(pagination.getPaginatedResponse(rows!).data).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [1],
    });
    expect(pagination.getHtmlContext()).toEqual({
      previousUrl: null,
      nextUrl: null,
      pageLinks: [link('http://testserver/', 1, true)],
    });
    expect(pagination.displayPageControls).toBe(false);
    expect(typeof pagination.toHtml()).toBe('string');
  });

  it('invalid page', async () => {
    await expectNotFound(
      new ExamplePagination().paginateQueryset(fromArray(range(1, 101)), get('/?page=invalid')),
      'Invalid page.',
    );
  });

  it('the class may also be passed as the hostPaginatorClass option', async () => {
    const pagination = new PageNumberPagination({ pageSize: 5, hostPaginatorClass: OverriddenPaginator });
    expect(await pagination.paginateQueryset(fromArray(range(1, 101)), get('/'))).toEqual([1]);
    await expectNotFound(
      new PageNumberPagination({ pageSize: 5, hostPaginatorClass: OverriddenPaginator }).paginateQueryset(
        fromArray(range(1, 101)),
        get('/?page=2'),
      ),
      'Invalid page.',
    );
  });
});

describe('page numbers: empty, last, whitespace and invalid values', () => {
  const pagination = () => new PageNumberPagination({ pageSize: 5 });

  it('page 1 of an empty list is fine, page 2 is 404', async () => {
    const p = pagination();
    expect(await p.paginateQueryset(fromArray([]), get('/'))).toEqual([]);
    expect(p.getPaginatedResponse([]).data).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect(p.displayPageControls).toBe(false);
    expect(p.getHtmlContext().pageLinks).toEqual([link('http://testserver/', 1, true)]);
    expect(await pagination().paginateQueryset(fromArray([]), get('/?page=1'))).toEqual([]);
    expect(await pagination().paginateQueryset(fromArray([]), get('/?page=last'))).toEqual([]);
    await expectNotFound(pagination().paginateQueryset(fromArray([]), get('/?page=2')), 'Invalid page.');
  });

  it('"last" is case-sensitive', async () => {
    expect(await pagination().paginateQueryset(fromArray(range(1, 13)), get('/?page=last'))).toEqual([
      11, 12,
    ]);
    await expectNotFound(
      pagination().paginateQueryset(fromArray(range(1, 13)), get('/?page=LAST')),
      'Invalid page.',
    );
  });

  it('lastPageStrings can be changed', async () => {
    const p = new PageNumberPagination({ pageSize: 5, lastPageStrings: ['end', 'LAST'] });
    expect(await p.paginateQueryset(fromArray(range(1, 13)), get('/?page=end'))).toEqual([11, 12]);
    expect(p.getPreviousLink()).toBe('http://testserver/?page=2');
    expect(await p.paginateQueryset(fromArray(range(1, 13)), get('/?page=LAST'))).toEqual([11, 12]);
    await expectNotFound(p.paginateQueryset(fromArray(range(1, 13)), get('/?page=last')), 'Invalid page.');
  });

  it('the last value of a repeated page parameter wins', async () => {
    const p = pagination();
    expect(await p.paginateQueryset(fromArray(range(1, 101)), get('/?page=2&page=3'))).toEqual([
      11, 12, 13, 14, 15,
    ]);
    expect(p.getNextLink()).toBe('http://testserver/?page=4');
    expect(await pagination().paginateQueryset(fromArray(range(1, 101)), get('/?page=3&page='))).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  it("int() forms are page numbers: ' 3 ', '1_0', '+2', '０３'", async () => {
    const rows = fromArray(range(1, 101));
    expect(await pagination().paginateQueryset(rows, get('/?page=%203%20'))).toEqual([11, 12, 13, 14, 15]);
    expect(await pagination().paginateQueryset(rows, get('/?page=1_0'))).toEqual([46, 47, 48, 49, 50]);
    expect(await pagination().paginateQueryset(rows, get('/?page=%2B2'))).toEqual([6, 7, 8, 9, 10]);
    const p = pagination();
    expect(await p.paginateQueryset(rows, get('/?page=%EF%BC%90%EF%BC%93'))).toEqual([11, 12, 13, 14, 15]);
    expect(p.getNextLink()).toBe('http://testserver/?page=4');
    expect(p.getPreviousLink()).toBe('http://testserver/?page=2');
  });

  it.each([
    ['invalid', 'invalid', 'That page number is not an integer'],
    ['2.0', '2.0', 'That page number is not an integer'],
    ['LAST', 'LAST', 'That page number is not an integer'],
    ['0', '0', 'That page number is less than 1'],
    ['-1', '-1', 'That page number is less than 1'],
    ['21', '21', 'That page contains no results'],
  ])('custom invalidPageMessage placeholders for page=%s', async (page, shown, message) => {
    const p = new PageNumberPagination({
      pageSize: 5,
      invalidPageMessage: 'Invalid page "{page_number}": {message}.',
    });
    await expectNotFound(
      p.paginateQueryset(fromArray(range(1, 101)), get(`/?page=${page}`)),
      `Invalid page "${shown}": ${message}.`,
    );
  });

  it('the default message has no placeholders', async () => {
    await expectNotFound(
      pagination().paginateQueryset(fromArray(range(1, 101)), get('/?page=21')),
      'Invalid page.',
    );
  });

  it('a message without placeholders is sent as it is; unknown {names} stay', async () => {
    const p = new PageNumberPagination({
      pageSize: 5,
      invalidPageMessage: 'No {such} page ({page_number}).',
    });
    await expectNotFound(
      p.paginateQueryset(fromArray(range(1, 101)), get('/?page=x')),
      'No {such} page (x).',
    );
  });

  it('pageQueryParam renames the parameter in reads and links', async () => {
    const p = new PageNumberPagination({ pageSize: 5, pageQueryParam: 'p' });
    expect(await p.paginateQueryset(fromArray(range(1, 101)), get('/?p=2&page=7'))).toEqual([6, 7, 8, 9, 10]);
    expect(p.getNextLink()).toBe('http://testserver/?p=3&page=7');
    expect(p.getPreviousLink()).toBe('http://testserver/?page=7');
  });

  it('links keep the path and re-encode other parameters', async () => {
    const p = pagination();
    await p.paginateQueryset(fromArray(range(1, 101)), get('/items/?q=a%20b&page=2&x=1/2'));
    expect(p.getNextLink()).toBe('http://testserver/items/?page=3&q=a+b&x=1%2F2');
    expect(p.getPreviousLink()).toBe('http://testserver/items/?q=a+b&x=1%2F2');
  });

  it('without a page size the request is not paginated', async () => {
    const p = new PageNumberPagination();
    expect(await p.paginateQueryset(fromArray(range(1, 10)), get('/?page=2'))).toBeNull();
    expect(p.displayPageControls).toBe(false);
  });

  it('with no default page size, a valid page_size parameter paginates and a missing one does not', async () => {
    const p = new PageNumberPagination({ pageSizeQueryParam: 'page_size', maxPageSize: 3 });
    expect(await p.paginateQueryset(fromArray(range(1, 10)), get('/?page_size=2'))).toEqual([1, 2]);
    expect(await p.paginateQueryset(fromArray(range(1, 10)), get('/?page_size=9'))).toEqual([1, 2, 3]);
    expect(await p.paginateQueryset(fromArray(range(1, 10)), get('/'))).toBeNull();
    expect(await p.paginateQueryset(fromArray(range(1, 10)), get('/?page_size=0'))).toBeNull();
  });
});

describe('html controls', () => {
  it('toHtml marks up links with aria-label, rel and aria-current and escapes URLs', async () => {
    const p = new PageNumberPagination({ pageSize: 5 });
    await p.paginateQueryset(fromArray(range(1, 101)), get("/it's/?q=1&page=2"));
    const html = p.toHtml();
    expect(p.getNextLink()).toBe("http://testserver/it's/?page=3&q=1");
    expect(html).toContain(
      'href="http://testserver/it&#x27;s/?page=3&amp;q=1" rel="next" aria-label="Next page"',
    );
    expect(html).toContain('href="http://testserver/it&#x27;s/?q=1" rel="prev" aria-label="Previous page"');
    expect(html).toContain(
      'href="http://testserver/it&#x27;s/?page=2&amp;q=1" aria-current="page" aria-label="Page 2">2</a>',
    );
    expect(html).toContain('aria-label="Page 20">20</a>');
    expect(html).toContain('&hellip;');
    expect(html).not.toContain("it's");
    expect(html).not.toMatch(/&(?!amp;|#x27;|hellip;|laquo;|raquo;|quot;|lt;|gt;)/);
  });

  it('the first page disables the previous control', async () => {
    const p = new PageNumberPagination({ pageSize: 5 });
    await p.paginateQueryset(fromArray(range(1, 11)), get('/'));
    expect(p.toHtml()).toContain('href="#" aria-label="Previous page" aria-disabled="true" tabindex="-1"');
    expect(p.toHtml()).toContain('href="http://testserver/?page=2" rel="next"');
  });

  it('escapeHtml escapes & < > " \'', () => {
    expect(escapeHtml(`a&b<c>"d"'e'`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&#x27;e&#x27;');
  });

  it('a custom template receives the context; null disables the controls', async () => {
    const seen: unknown[] = [];
    const p = new PageNumberPagination({
      pageSize: 5,
      template: (context) => {
        seen.push(context);
        return `<p>${context.pageLinks.length}</p>`;
      },
    });
    await p.paginateQueryset(fromArray(range(1, 101)), get('/'));
    expect(p.toHtml()).toBe('<p>5</p>');
    expect(seen[0]).toEqual(p.getHtmlContext());

    const off = new PageNumberPagination({ pageSize: 5, template: null });
    await off.paginateQueryset(fromArray(range(1, 101)), get('/'));
    expect(off.displayPageControls).toBe(false);
    expect(off.toHtml()).toBe('');
  });

  it('displayPageControls is set only when there is more than one page', async () => {
    const p = new PageNumberPagination({ pageSize: 5 });
    await p.paginateQueryset(fromArray(range(1, 6)), get('/'));
    expect(p.displayPageControls).toBe(false);
    await p.paginateQueryset(fromArray(range(1, 7)), get('/'));
    expect(p.displayPageControls).toBe(true);
    await p.paginateQueryset(fromArray(range(1, 7)), get('/?page=2'));
    expect(p.displayPageControls).toBe(true);
  });
});

describe('getDisplayedPageNumbers (section 2.5)', () => {
  // Worked by hand from the algorithm: {1, c-1, c, c+1, f}, plus 2 and 3 when c <= 4, plus f-1 and
  // f-2 when c >= f-3, clipped to 1..f; a break after 1 when c > 4 and before f when c < f-3.
  const N = null;
  const table: Record<number, Array<Array<number | null>>> = {
    1: [[1]],
    2: [
      [1, 2],
      [1, 2],
    ],
    3: [
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ],
    4: [
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [1, 2, 3, 4],
    ],
    5: [
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
    ],
    6: [
      [1, 2, 3, N, 6],
      [1, 2, 3, N, 6],
      [1, 2, 3, 4, 5, 6],
      [1, 2, 3, 4, 5, 6],
      [1, N, 4, 5, 6],
      [1, N, 4, 5, 6],
    ],
    7: [
      [1, 2, 3, N, 7],
      [1, 2, 3, N, 7],
      [1, 2, 3, 4, N, 7],
      [1, 2, 3, 4, 5, 6, 7],
      [1, N, 4, 5, 6, 7],
      [1, N, 5, 6, 7],
      [1, N, 5, 6, 7],
    ],
    8: [
      [1, 2, 3, N, 8],
      [1, 2, 3, N, 8],
      [1, 2, 3, 4, N, 8],
      [1, 2, 3, 4, 5, N, 8],
      [1, N, 4, 5, 6, 7, 8],
      [1, N, 5, 6, 7, 8],
      [1, N, 6, 7, 8],
      [1, N, 6, 7, 8],
    ],
    9: [
      [1, 2, 3, N, 9],
      [1, 2, 3, N, 9],
      [1, 2, 3, 4, N, 9],
      [1, 2, 3, 4, 5, N, 9],
      [1, N, 4, 5, 6, N, 9],
      [1, N, 5, 6, 7, 8, 9],
      [1, N, 6, 7, 8, 9],
      [1, N, 7, 8, 9],
      [1, N, 7, 8, 9],
    ],
  };
  const cases = Object.entries(table).flatMap(([final, rows]) =>
    rows.map((expected, i) => [i + 1, Number(final), expected] as const),
  );

  it('covers every (current, final) for final 1..9', () => {
    expect(cases).toHaveLength(45);
  });

  it.each(cases)('(%d, %d)', (current, final, expected) => {
    expect(getDisplayedPageNumbers(current, final)).toEqual(expected);
  });

  it.each([
    [14, 16, [1, N, 13, 14, 15, 16]],
    [1, 20, [1, 2, 3, N, 20]],
    [10, 20, [1, N, 9, 10, 11, N, 20]],
    [20, 20, [1, N, 18, 19, 20]],
  ])('spec example (%d, %d)', (current, final, expected) => {
    expect(getDisplayedPageNumbers(current, final)).toEqual(expected);
  });
});

describe('count modes (better than DRF #8)', () => {
  const rows = range(1, 13);

  it("'estimated' asks the adapter for an estimate and says so in the body", async () => {
    const log = newLog();
    const query = wrapQuery(fromArray(rows), {
      log,
      count: async (options): Promise<CountResult> => ({
        value: options?.estimate ? 100 : 12,
        exact: !options?.estimate,
      }),
    });
    const p = new PageNumberPagination({ pageSize: 5, count: 'estimated' });
    expect(await p.paginateQueryset(query, get('/?page=2'))).toEqual([6, 7, 8, 9, 10]);
    expect(log.counts).toContainEqual({ estimate: true });
    const data = p.getPaginatedResponse([6, 7, 8, 9, 10]).data;
    expect(data).toEqual({
      count: 100,
      countMode: 'estimated',
      next: 'http://testserver/?page=3',
      previous: 'http://testserver/',
      results: [6, 7, 8, 9, 10],
    });

    // The look-ahead, not the estimate, decides whether there is a next page.
    const last = new PageNumberPagination({ pageSize: 5, count: 'estimated' });
    expect(await last.paginateQueryset(query, get('/?page=3'))).toEqual([11, 12]);
    expect(last.getNextLink()).toBeNull();
    expect(last.getPreviousLink()).toBe('http://testserver/?page=2');
    expect(last.getHtmlContext().pageLinks.at(-1)).toEqual(link('http://testserver/?page=3', 3, true));
  });

  it("'none' never counts; next comes from a look-ahead row", async () => {
    const log = newLog();
    const query = wrapQuery(fromArray(rows), { log });
    const p = new PageNumberPagination({ pageSize: 5, count: 'none' });
    expect(await p.paginateQueryset(query, get('/?page=2'))).toEqual([6, 7, 8, 9, 10]);
    expect(p.getPaginatedResponse([6, 7, 8, 9, 10]).data).toEqual({
      count: null,
      countMode: 'none',
      next: 'http://testserver/?page=3',
      previous: 'http://testserver/',
      results: [6, 7, 8, 9, 10],
    });
    expect(log.fetches.at(-1)).toMatchObject({ offset: 5, limit: 6 });
    expect(await p.paginateQueryset(query, get('/?page=3'))).toEqual([11, 12]);
    expect(p.getNextLink()).toBeNull();
    await expectNotFound(p.paginateQueryset(query, get('/?page=4')), 'Invalid page.');
    expect(await p.paginateQueryset(fromArray([]), get('/'))).toEqual([]);
    expect(log.counts).toEqual([]);
  });

  it("'exact' bodies carry no countMode key", async () => {
    const p = new PageNumberPagination({ pageSize: 5 });
    await p.paginateQueryset(fromArray(rows), get('/'));
    expect(Object.keys(p.getPaginatedResponse([]).data as object)).toEqual([
      'count',
      'next',
      'previous',
      'results',
    ]);
  });

  it('schemas describe countMode; with none the count is nullable', () => {
    const none = new PageNumberPagination({ pageSize: 5, count: 'none' });
    const props30 = none.getPaginatedResponseSchema({}).properties as Record<string, unknown>;
    expect(props30.count).toEqual({ type: 'integer', nullable: true, example: 123 });
    const props31 = none.getPaginatedResponseSchema({}, { openapi: '3.1' }).properties as Record<
      string,
      unknown
    >;
    expect(props31.count).toEqual({ type: ['integer', 'null'], example: 123 });
    expect(props31.countMode).toMatchObject({ type: 'string' });
  });
});

describe('unordered queries warn (UnorderedObjectListWarning)', () => {
  it('page numbers over an unordered query warn; arrays never do', async () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    await new PageNumberPagination({ pageSize: 5 }).paginateQueryset(fromArray(range(1, 20)), get('/'));
    expect(spy).not.toHaveBeenCalled();
    await new PageNumberPagination({ pageSize: 5 }).paginateQueryset(
      wrapQuery(fromArray(range(1, 20)), { ordered: false }),
      get('/'),
    );
    expect(spy).toHaveBeenCalledTimes(1);
    const warning = spy.mock.calls[0]![0];
    expect(warning).toBeInstanceOf(UnorderedObjectListWarning);
    expect((warning as Error).name).toBe('UnorderedObjectListWarning');
    expect((warning as Error).message).toMatch(
      /^Pagination may yield inconsistent results with an unordered object_list: /,
    );
  });
});

describe('options as subclass fields and from settings', () => {
  it('a subclass field sets the page size', async () => {
    class P extends PageNumberPagination {
      override pageSize = 50;
    }
    expect(await new P().paginateQueryset(fromArray(range(0, 200)), get('/'))).toHaveLength(50);
  });

  it('an omitted page size comes from the settings', async () => {
    const settings = new ApiSettings({ pageSize: 7, defaultPaginationClass: PageNumberPagination });
    const p = new PageNumberPagination({ settings });
    expect(await p.paginateQueryset(fromArray(range(0, 20)), get('/'))).toEqual(range(0, 7));
    const explicitNull = new PageNumberPagination({ settings, pageSize: null });
    expect(await explicitNull.paginateQueryset(fromArray(range(0, 20)), get('/'))).toBeNull();
  });

  it('errors are ApiErrors with a JSON body', async () => {
    const error = await rejection(
      new PageNumberPagination({ pageSize: 5 }).paginateQueryset(fromArray([1]), get('/?page=9')),
    );
    expect(error).toBeInstanceOf(ApiError);
  });
});
