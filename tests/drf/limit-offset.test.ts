import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiSettings,
  LimitOffsetPagination,
  type PageLink,
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

afterEach(() => {
  vi.restoreAllMocks();
});

class ExamplePagination extends LimitOffsetPagination {
  override defaultLimit = 10;
  override maxLimit = 15;
}
const query = () => fromArray(range(1, 101));

async function run(path: string, pagination: LimitOffsetPagination = new ExamplePagination()) {
  const rows = await pagination.paginateQueryset(query(), get(path));
  const response = pagination.getPaginatedResponse(rows ?? []);
  return { pagination, rows, response, content: response.data, context: pagination.getHtmlContext() };
}

describe('TestLimitOffset (default 10, max 15, over 1..100)', () => {
  it('no offset', async () => {
    const { pagination, rows, content, context } = await run('/?limit=5');
    expect(rows).toEqual([1, 2, 3, 4, 5]);
    expect(content).toEqual({
      count: 100,
      next: 'http://testserver/?limit=5&offset=5',
      previous: null,
      results: [1, 2, 3, 4, 5],
    });
    expect(context).toEqual({
      previousUrl: null,
      nextUrl: 'http://testserver/?limit=5&offset=5',
      pageLinks: [
        link('http://testserver/?limit=5', 1, true),
        link('http://testserver/?limit=5&offset=5', 2),
        link('http://testserver/?limit=5&offset=10', 3),
        BREAK,
        link('http://testserver/?limit=5&offset=95', 20),
      ],
    });
    expect(pagination.displayPageControls).toBe(true);
    expect(typeof pagination.toHtml()).toBe('string');
  });

  it('pagination is not applied without a limit or default limit, and nothing is counted', async () => {
    class MockPagination extends LimitOffsetPagination {
      override defaultLimit = null;
    }
    const log = newLog();
    const p = new MockPagination();
    expect(await p.paginateQueryset(wrapQuery(query(), { log }), get('/'))).toBeNull();
    expect(await p.paginateQueryset(wrapQuery(query(), { log }), get('/?limit=junk&offset=3'))).toBeNull();
    expect(
      await new LimitOffsetPagination().paginateQueryset(wrapQuery(query(), { log }), get('/?offset=5')),
    ).toBeNull();
    expect(log.counts).toEqual([]);
    expect(log.fetches).toEqual([]);
    expect(p.displayPageControls).toBe(false);
    // A valid client limit still paginates.
    expect(await p.paginateQueryset(wrapQuery(query(), { log }), get('/?limit=2'))).toEqual([1, 2]);
    expect(log.counts).toHaveLength(1);
  });

  it('single offset: the first page is still offset zero and an extra page appears', async () => {
    const { rows, content, context } = await run('/?limit=5&offset=1');
    expect(rows).toEqual([2, 3, 4, 5, 6]);
    expect(content).toEqual({
      count: 100,
      next: 'http://testserver/?limit=5&offset=6',
      previous: 'http://testserver/?limit=5',
      results: [2, 3, 4, 5, 6],
    });
    // current = ceil(1/5) + 1 = 2; final = ceil(99/5) + ceil(1/5) = 20 + 1 = 21.
    expect(context).toEqual({
      previousUrl: 'http://testserver/?limit=5',
      nextUrl: 'http://testserver/?limit=5&offset=6',
      pageLinks: [
        link('http://testserver/?limit=5', 1),
        link('http://testserver/?limit=5&offset=1', 2, true),
        link('http://testserver/?limit=5&offset=6', 3),
        BREAK,
        link('http://testserver/?limit=5&offset=96', 21),
      ],
    });
  });

  it('first offset', async () => {
    const { rows, content, context } = await run('/?limit=5&offset=5');
    expect(rows).toEqual([6, 7, 8, 9, 10]);
    expect(content).toEqual({
      count: 100,
      next: 'http://testserver/?limit=5&offset=10',
      previous: 'http://testserver/?limit=5',
      results: [6, 7, 8, 9, 10],
    });
    expect(context).toEqual({
      previousUrl: 'http://testserver/?limit=5',
      nextUrl: 'http://testserver/?limit=5&offset=10',
      pageLinks: [
        link('http://testserver/?limit=5', 1),
        link('http://testserver/?limit=5&offset=5', 2, true),
        link('http://testserver/?limit=5&offset=10', 3),
        BREAK,
        link('http://testserver/?limit=5&offset=95', 20),
      ],
    });
  });

  it('middle offset', async () => {
    const { rows, content, context } = await run('/?limit=5&offset=10');
    expect(rows).toEqual([11, 12, 13, 14, 15]);
    expect(content).toEqual({
      count: 100,
      next: 'http://testserver/?limit=5&offset=15',
      previous: 'http://testserver/?limit=5&offset=5',
      results: [11, 12, 13, 14, 15],
    });
    expect(context).toEqual({
      previousUrl: 'http://testserver/?limit=5&offset=5',
      nextUrl: 'http://testserver/?limit=5&offset=15',
      pageLinks: [
        link('http://testserver/?limit=5', 1),
        link('http://testserver/?limit=5&offset=5', 2),
        link('http://testserver/?limit=5&offset=10', 3, true),
        link('http://testserver/?limit=5&offset=15', 4),
        BREAK,
        link('http://testserver/?limit=5&offset=95', 20),
      ],
    });
  });

  it('ending offset', async () => {
    const { rows, content, context } = await run('/?limit=5&offset=95');
    expect(rows).toEqual([96, 97, 98, 99, 100]);
    expect(content).toEqual({
      count: 100,
      next: null,
      previous: 'http://testserver/?limit=5&offset=90',
      results: [96, 97, 98, 99, 100],
    });
    expect(context).toEqual({
      previousUrl: 'http://testserver/?limit=5&offset=90',
      nextUrl: null,
      pageLinks: [
        link('http://testserver/?limit=5', 1),
        BREAK,
        link('http://testserver/?limit=5&offset=85', 18),
        link('http://testserver/?limit=5&offset=90', 19),
        link('http://testserver/?limit=5&offset=95', 20, true),
      ],
    });
  });

  it('erroneous offset: past the end is [] with a previous link, never an error', async () => {
    const { rows, content, context } = await run('/?limit=5&offset=1000');
    expect(rows).toEqual([]);
    expect(content).toEqual({
      count: 100,
      next: null,
      previous: 'http://testserver/?limit=5&offset=995',
      results: [],
    });
    // current = ceil(1000/5) + 1 = 201; final = max(1, ceil(-900/5) + 200) = 20; current is clamped to 20.
    expect(context.pageLinks).toEqual([
      link('http://testserver/?limit=5', 1),
      BREAK,
      link('http://testserver/?limit=5&offset=990', 18),
      link('http://testserver/?limit=5&offset=995', 19),
      link('http://testserver/?limit=5&offset=1000', 20, true),
    ]);
  });

  it('offset equal to the count is [] too', async () => {
    const { rows, content } = await run('/?limit=5&offset=100');
    expect(rows).toEqual([]);
    expect(content).toMatchObject({ next: null, previous: 'http://testserver/?limit=5&offset=95' });
  });

  it.each(['invalid', '-3', '', '1.5', '%20'])('invalid offset %j is treated as 0', async (offset) => {
    const { rows, content } = await run(`/?limit=5&offset=${offset}`);
    expect(rows).toEqual([1, 2, 3, 4, 5]);
    expect(content).toMatchObject({ previous: null, next: 'http://testserver/?limit=5&offset=5' });
  });

  it.each(['invalid', '0', '-5', '', '2.5'])('limit=%j falls back to the default limit', async (limit) => {
    const { rows, content } = await run(`/?limit=${limit}&offset=0`);
    expect(rows).toEqual(range(1, 11));
    expect((content as { next: string }).next).toBe('http://testserver/?limit=10&offset=10');
  });

  it('max limit: ?limit=11235&offset=50 is clamped to 15', async () => {
    const { rows, content } = await run('/?limit=11235&offset=50');
    expect(rows).toEqual(range(51, 66));
    expect(content).toMatchObject({
      next: 'http://testserver/?limit=15&offset=65',
      previous: 'http://testserver/?limit=15&offset=35',
    });
  });

  it('a huge limit is clamped, not rejected', async () => {
    const { rows } = await run('/?limit=99999999999999999999999');
    expect(rows).toEqual(range(1, 16));
  });

  it('the default limit is not clamped by maxLimit', async () => {
    const p = new LimitOffsetPagination({ defaultLimit: 20, maxLimit: 15 });
    expect(await p.paginateQueryset(query(), get('/'))).toEqual(range(1, 21));
  });

  it('previous removes offset when offset - limit <= 0', async () => {
    expect((await run('/?limit=5&offset=1')).content).toMatchObject({
      previous: 'http://testserver/?limit=5',
    });
    expect((await run('/?limit=5&offset=5')).content).toMatchObject({
      previous: 'http://testserver/?limit=5',
    });
    expect((await run('/?limit=5&offset=6')).content).toMatchObject({
      previous: 'http://testserver/?limit=5&offset=1',
    });
  });

  it('an empty set with an offset has a previous link with the effective limit', async () => {
    const p = new ExamplePagination();
    expect(await p.paginateQueryset(fromArray([]), get('/?offset=5'))).toEqual([]);
    expect(p.getPaginatedResponse([]).data).toEqual({
      count: 0,
      next: null,
      previous: 'http://testserver/?limit=10',
      results: [],
    });
    expect(p.displayPageControls).toBe(false);
  });

  it('page links keep the raw limit text while next/previous carry the effective limit', async () => {
    const invalid = await run('/?limit=invalid&offset=0');
    expect(invalid.context.nextUrl).toBe('http://testserver/?limit=10&offset=10');
    expect(invalid.context.pageLinks.slice(0, 3)).toEqual([
      link('http://testserver/?limit=invalid', 1, true),
      link('http://testserver/?limit=invalid&offset=10', 2),
      link('http://testserver/?limit=invalid&offset=20', 3),
    ]);

    const clamped = await run('/?limit=11235&offset=15');
    expect(clamped.context.previousUrl).toBe('http://testserver/?limit=15');
    expect(clamped.context.pageLinks.slice(0, 3)).toEqual([
      link('http://testserver/?limit=11235', 1),
      link('http://testserver/?limit=11235&offset=15', 2, true),
      link('http://testserver/?limit=11235&offset=30', 3),
    ]);

    const none = await run('/');
    expect(none.context.pageLinks).toEqual([
      link('http://testserver/', 1, true),
      link('http://testserver/?offset=10', 2),
      link('http://testserver/?offset=20', 3),
      BREAK,
      link('http://testserver/?offset=90', 10),
    ]);
    expect(none.content).toMatchObject({ next: 'http://testserver/?limit=10&offset=10' });
  });

  it('other parameters are kept and sorted in every link', async () => {
    const { content, context } = await run('/?z=1&offset=10&a=x%20y&limit=5');
    expect(content).toMatchObject({
      next: 'http://testserver/?a=x+y&limit=5&offset=15&z=1',
      previous: 'http://testserver/?a=x+y&limit=5&offset=5&z=1',
    });
    expect(context.pageLinks[0]).toEqual(link('http://testserver/?a=x+y&limit=5&z=1', 1));
  });

  it('displayPageControls needs count > limit and a template', async () => {
    const unbounded = () => new LimitOffsetPagination({ defaultLimit: 10 });
    expect((await run('/?limit=100', unbounded())).pagination.displayPageControls).toBe(false);
    expect((await run('/?limit=99', unbounded())).pagination.displayPageControls).toBe(true);
    expect((await run('/?limit=100', new ExamplePagination())).pagination.displayPageControls).toBe(true);
    const noTemplate = new LimitOffsetPagination({ defaultLimit: 5, template: null });
    await noTemplate.paginateQueryset(query(), get('/'));
    expect(noTemplate.displayPageControls).toBe(false);
    expect(noTemplate.toHtml()).toBe('');
  });

  it('custom parameter names', async () => {
    const p = new LimitOffsetPagination({ defaultLimit: 10, limitQueryParam: 'n', offsetQueryParam: 'from' });
    expect(await p.paginateQueryset(query(), get('/?n=3&from=4&limit=50'))).toEqual([5, 6, 7]);
    expect(p.getNextLink()).toBe('http://testserver/?from=7&limit=50&n=3');
    expect(p.getPreviousLink()).toBe('http://testserver/?from=1&limit=50&n=3');
  });

  it('response key order and Link header', async () => {
    const { content, response } = await run('/?limit=5&offset=10');
    expect(Object.keys(content as object)).toEqual(['count', 'next', 'previous', 'results']);
    expect(response.headers.get('link')).toBe(
      '<http://testserver/?limit=5&offset=15>; rel="next", <http://testserver/?limit=5&offset=5>; rel="prev"',
    );
  });

  it('get_paginated_response_schema (3.0 and 3.1)', () => {
    const unpaginated = { type: 'object', item: { properties: { 'test-property': { type: 'integer' } } } };
    expect(new ExamplePagination().getPaginatedResponseSchema(unpaginated)).toEqual({
      type: 'object',
      required: ['count', 'results'],
      properties: {
        count: { type: 'integer', example: 123 },
        next: {
          type: 'string',
          nullable: true,
          format: 'uri',
          example: 'http://api.example.org/accounts/?offset=400&limit=100',
        },
        previous: {
          type: 'string',
          nullable: true,
          format: 'uri',
          example: 'http://api.example.org/accounts/?offset=200&limit=100',
        },
        results: unpaginated,
      },
    });
    const p = new LimitOffsetPagination({ limitQueryParam: 'n', offsetQueryParam: 'from' });
    expect(p.getPaginatedResponseSchema({ type: 'array' }, { openapi: '3.1' })).toEqual({
      type: 'object',
      required: ['count', 'results'],
      properties: {
        count: { type: 'integer', example: 123 },
        next: {
          type: ['string', 'null'],
          format: 'uri',
          example: 'http://api.example.org/accounts/?from=400&n=100',
        },
        previous: {
          type: ['string', 'null'],
          format: 'uri',
          example: 'http://api.example.org/accounts/?from=200&n=100',
        },
        results: { type: 'array' },
      },
    });
  });

  it('schema operation parameters: limit then offset', () => {
    expect(new ExamplePagination().getSchemaOperationParameters()).toEqual([
      {
        name: 'limit',
        required: false,
        in: 'query',
        description: 'Number of results to return per page.',
        schema: { type: 'integer' },
      },
      {
        name: 'offset',
        required: false,
        in: 'query',
        description: 'The initial index from which to return the results.',
        schema: { type: 'integer' },
      },
    ]);
  });
});

describe('limit/offset settings, subclasses and warnings', () => {
  it('an omitted default limit comes from the settings', async () => {
    const settings = new ApiSettings({ pageSize: 4, defaultPaginationClass: LimitOffsetPagination });
    expect(await new LimitOffsetPagination({ settings }).paginateQueryset(query(), get('/'))).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('warns on unordered queries (better than DRF #4); arrays never warn', async () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    await new ExamplePagination().paginateQueryset(query(), get('/'));
    expect(spy).not.toHaveBeenCalled();
    await new ExamplePagination().paginateQueryset(wrapQuery(query(), { ordered: false }), get('/'));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]![0]).toBeInstanceOf(UnorderedObjectListWarning);
  });

  it('one instance answers each request on its own', async () => {
    const p = new ExamplePagination();
    await p.paginateQueryset(query(), get('/?limit=3&offset=3'));
    expect(await p.paginateQueryset(query(), get('/'))).toEqual(range(1, 11));
    expect(p.getNextLink()).toBe('http://testserver/?limit=10&offset=10');
  });
});

describe('limit/offset html', () => {
  it('toHtml escapes the page URLs and marks the current page', async () => {
    const p = new ExamplePagination();
    await p.paginateQueryset(query(), get('/?q=1&limit=5&offset=5'));
    const html = p.toHtml();
    expect(html).toContain(
      'href="http://testserver/?limit=5&amp;offset=5&amp;q=1" aria-current="page" aria-label="Page 2"',
    );
    expect(html).toContain(
      'href="http://testserver/?limit=5&amp;offset=10&amp;q=1" rel="next" aria-label="Next page"',
    );
    expect(html).toContain('href="http://testserver/?limit=5&amp;q=1" rel="prev" aria-label="Previous page"');
    expect(html).not.toMatch(/&(?!amp;|hellip;|laquo;|raquo;)/);
  });
});

describe('exact integers in links (issue 12)', () => {
  it('an unclamped huge limit is echoed exactly, as DRF keeps Python ints', async () => {
    const pagination = new LimitOffsetPagination({ defaultLimit: 10 });
    const rows = await pagination.paginateQueryset(query(), get('/?limit=99999999999999999999999&offset=5'));
    expect(rows).toEqual(range(6, 101));
    expect(pagination.getNextLink()).toBeNull();
    expect(pagination.getPreviousLink()).toBe('http://testserver/?limit=99999999999999999999999');
  });

  it('a huge offset is echoed exactly in the previous link', async () => {
    const pagination = new LimitOffsetPagination({ defaultLimit: 10 });
    const rows = await pagination.paginateQueryset(query(), get('/?limit=5&offset=100000000000000000000'));
    expect(rows).toEqual([]);
    expect(pagination.getPreviousLink()).toBe('http://testserver/?limit=5&offset=99999999999999999995');
  });
});
