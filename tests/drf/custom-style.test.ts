import { fromArray } from '@pagewise/memory-adapter';
import {
  type ApiRequest,
  ApiResponse,
  ApiSettings,
  BasePagination,
  CursorPagination,
  type JsonSchema,
  LimitOffsetPagination,
  linkHeader,
  type OrderedQuery,
  type OrderingInput,
  PageNumberPagination,
  replaceQueryParam,
  type SchemaOptions,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { get, range } from './helpers.js';

/** A custom style on BasePagination: `?from=N`, a bare list body and the links in a `Link` header only. */
class FromPagination extends BasePagination {
  readonly size = 3;
  #next: string | null = null;

  async paginateQueryset<Row>(query: OrderedQuery<Row>, request: ApiRequest): Promise<Row[] | null> {
    const from = Number(request.queryParams.get('from') ?? '0');
    const start = Number.isSafeInteger(from) && from >= 0 ? from : 0;
    const fetched = await query.fetch({ order: null, after: null, offset: start, limit: this.size + 1 });
    this.#next =
      fetched.length > this.size
        ? replaceQueryParam(request.buildAbsoluteUri(), 'from', start + this.size)
        : null;
    return fetched.slice(0, this.size).map((r) => r.row);
  }

  getPaginatedResponse(data: unknown[]): ApiResponse {
    const response = new ApiResponse(data);
    const link = linkHeader(this.#next, null);
    if (link !== null) response.headers.set('link', link);
    return response;
  }

  override getNextLink(): string | null {
    return this.#next;
  }
}

/** DRF's documented custom layout: `{ count, results, links: { next, previous } }`. */
class LinksPagination extends PageNumberPagination {
  override pageSize = 5;

  override getPaginatedResponse(data: unknown[]): ApiResponse {
    return new ApiResponse({
      count: this.page!.count,
      results: data,
      links: { next: this.getNextLink(), previous: this.getPreviousLink() },
    });
  }

  override getPaginatedResponseSchema(schema: JsonSchema, options: SchemaOptions = {}): JsonSchema {
    const base = super.getPaginatedResponseSchema(schema, options) as {
      properties: { count: JsonSchema; next: JsonSchema; previous: JsonSchema; results: JsonSchema };
    };
    const { count, next, previous, results } = base.properties;
    return {
      type: 'object',
      required: ['count', 'results', 'links'],
      properties: {
        count,
        results,
        links: { type: 'object', required: ['next', 'previous'], properties: { next, previous } },
      },
    };
  }
}

describe('a custom style on BasePagination', () => {
  it('pages with its own parameter and response', async () => {
    const p = new FromPagination();
    expect(await p.paginateQueryset(fromArray(range(0, 7)), get('/?from=3&x=1'))).toEqual([3, 4, 5]);
    const response = p.getPaginatedResponse([3, 4, 5]);
    expect(response.data).toEqual([3, 4, 5]);
    expect(response.headers.get('link')).toBe('<http://testserver/?from=6&x=1>; rel="next"');
    expect(await p.paginateQueryset(fromArray(range(0, 7)), get('/?from=6'))).toEqual([6]);
    expect(p.getPaginatedResponse([6]).headers.get('link')).toBeNull();
  });

  it('inherits the base defaults (section 1.4)', async () => {
    const p = new FromPagination();
    await p.paginateQueryset(fromArray(range(0, 2)), get('/'));
    const schema = { type: 'array', items: { type: 'integer' } };
    expect(p.getPaginatedResponseSchema(schema)).toBe(schema);
    expect(p.getSchemaOperationParameters()).toEqual([]);
    expect(p.getPreviousLink()).toBeNull();
    expect(p.getHtmlContext()).toEqual({});
    expect(p.toHtml()).toBe('');
    expect(p.displayPageControls).toBe(false);
    expect(p.getResults({ results: [1, 2], other: true })).toEqual([1, 2]);
  });
});

describe('a changed layout on PageNumberPagination', () => {
  it('answers { count, results, links: { next, previous } }', async () => {
    const p = new LinksPagination();
    const rows = await p.paginateQueryset(fromArray(range(1, 101)), get('/?page=2'));
    const data = p.getPaginatedResponse(rows!).data;
    expect(data).toEqual({
      count: 100,
      results: [6, 7, 8, 9, 10],
      links: { next: 'http://testserver/?page=3', previous: 'http://testserver/' },
    });
    expect(Object.keys(data as object)).toEqual(['count', 'results', 'links']);
  });

  it('has a matching schema in 3.0 and 3.1', () => {
    const items = { type: 'array', items: { type: 'integer' } };
    expect(new LinksPagination().getPaginatedResponseSchema(items)).toEqual({
      type: 'object',
      required: ['count', 'results', 'links'],
      properties: {
        count: { type: 'integer', example: 123 },
        results: items,
        links: {
          type: 'object',
          required: ['next', 'previous'],
          properties: {
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
          },
        },
      },
    });
    const schema31 = new LinksPagination().getPaginatedResponseSchema(items, { openapi: '3.1' }) as {
      properties: { links: { properties: { next: JsonSchema } } };
    };
    expect(schema31.properties.links.properties.next).toEqual({
      type: ['string', 'null'],
      format: 'uri',
      example: 'http://api.example.org/accounts/?page=4',
    });
  });

  it('the schema describes the response it answers', async () => {
    const p = new LinksPagination();
    const rows = await p.paginateQueryset(fromArray(range(1, 101)), get('/'));
    const data = p.getPaginatedResponse(rows!).data as Record<string, unknown>;
    const schema = p.getPaginatedResponseSchema({ type: 'array' }) as {
      required: string[];
      properties: object;
    };
    expect(Object.keys(data).sort()).toEqual(Object.keys(schema.properties).sort());
    for (const key of schema.required) expect(data).toHaveProperty(key);
  });
});

describe('options as subclass fields', () => {
  const settings = new ApiSettings({ pageSize: 4, defaultPaginationClass: PageNumberPagination });

  it('PageNumberPagination fields', async () => {
    class P extends PageNumberPagination {
      override pageSize = 50;
      override pageQueryParam = 'p';
      override pageSizeQueryParam = 'size';
      override maxPageSize = 60;
      override lastPageStrings = ['end'];
      override invalidPageMessage = 'Nope: {message}';
    }
    const p = new P();
    expect(await p.paginateQueryset(fromArray(range(0, 200)), get('/'))).toHaveLength(50);
    expect(await p.paginateQueryset(fromArray(range(0, 200)), get('/?p=end&size=70'))).toEqual(
      range(180, 200),
    );
    expect(p.getPreviousLink()).toBe('http://testserver/?p=3&size=70');
    await expect(p.paginateQueryset(fromArray(range(0, 200)), get('/?p=9'))).rejects.toMatchObject({
      status: 404,
      detail: 'Nope: That page contains no results',
    });
  });

  it('LimitOffsetPagination fields', async () => {
    class P extends LimitOffsetPagination {
      override defaultLimit = 3;
      override limitQueryParam = 'n';
      override offsetQueryParam = 'skip';
      override maxLimit = 4;
    }
    const p = new P();
    expect(await p.paginateQueryset(fromArray(range(0, 20)), get('/?skip=2'))).toEqual([2, 3, 4]);
    expect(await p.paginateQueryset(fromArray(range(0, 20)), get('/?skip=2&n=9'))).toEqual([2, 3, 4, 5]);
    expect(p.getNextLink()).toBe('http://testserver/?n=4&skip=6');
  });

  it('CursorPagination fields', async () => {
    class P extends CursorPagination {
      override pageSize = 2;
      override ordering: OrderingInput = '-id';
      override cursorQueryParam = 'c';
    }
    const p = new P();
    const rows = range(0, 5).map((id) => ({ id }));
    expect(await p.paginateQueryset(fromArray(rows), get('/'))).toEqual([{ id: 4 }, { id: 3 }]);
    expect(await p.paginateQueryset(fromArray(rows), get(p.getNextLink()!))).toEqual([{ id: 2 }, { id: 1 }]);
    expect(p.getNextLink()).toMatch(/\?c=/);
  });

  it('an omitted page size comes from the settings for every style', async () => {
    class PN extends PageNumberPagination {
      override settings = settings;
    }
    class LO extends LimitOffsetPagination {
      override settings = settings;
    }
    class CP extends CursorPagination {
      override settings = settings;
      override ordering: OrderingInput = 'id';
    }
    const rows = range(0, 10).map((id) => ({ id }));
    expect(await new PN().paginateQueryset(fromArray(rows), get('/'))).toHaveLength(4);
    expect(await new LO().paginateQueryset(fromArray(rows), get('/'))).toHaveLength(4);
    expect(await new CP().paginateQueryset(fromArray(rows), get('/'))).toHaveLength(4);
    expect(
      await new PageNumberPagination({ settings }).paginateQueryset(fromArray(rows), get('/')),
    ).toHaveLength(4);
    expect(
      await new LimitOffsetPagination({ settings }).paginateQueryset(fromArray(rows), get('/')),
    ).toHaveLength(4);
    expect(
      await new CursorPagination({ settings, ordering: 'id' }).paginateQueryset(fromArray(rows), get('/')),
    ).toHaveLength(4);
  });

  it('an explicit page size wins over the settings', async () => {
    const rows = range(0, 10);
    expect(
      await new PageNumberPagination({ settings, pageSize: 3 }).paginateQueryset(fromArray(rows), get('/')),
    ).toHaveLength(3);
    expect(
      await new LimitOffsetPagination({ settings, defaultLimit: 2 }).paginateQueryset(
        fromArray(rows),
        get('/'),
      ),
    ).toHaveLength(2);
  });
});
