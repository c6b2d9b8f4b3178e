// ListView wiring (drf-behaviors.md 1.3) and the OrderingFilter / CursorPagination interplay (4.3).

import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  ApiResponse,
  ApiSettings,
  CursorPagination,
  type FilterBackend,
  ListView,
  type OrderedQuery,
  OrderingFilter,
  type OrderTerm,
  type PageFields,
  type PageNumberPage,
  PageNumberPagination,
  QueryParameterVersioning,
  URLPathVersioning,
  ValidationError,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

interface Row {
  id: number;
  name: string;
  rank: number;
}

const ROWS: Row[] = [
  { id: 1, name: 'c', rank: 2 },
  { id: 2, name: 'a', rank: 2 },
  { id: 3, name: 'b', rank: 1 },
  { id: 4, name: 'e', rank: 3 },
  { id: 5, name: 'd', rank: 1 },
];

const request = (
  path: string,
  init: { params?: Record<string, string>; headers?: Record<string, string> } = {},
) => new ApiRequest({ url: `http://testserver${path}`, ...init });

async function body(response: ApiResponse): Promise<unknown> {
  expect(typeof response.data).toBe('string');
  return JSON.parse(response.data as string);
}

class TwoPerPage extends PageNumberPagination {
  override pageSize = 2;
}

class RowList extends ListView<Row> {
  override queryset = fromArray(ROWS);
  override paginationClass = TwoPerPage;
  override serialize(row: Row): unknown {
    return row.id;
  }
}

describe('ListView', () => {
  it('paginates automatically and renders JSON', async () => {
    const response = await new RowList().dispatch(request('/?page=2'));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await body(response)).toEqual({
      count: 5,
      next: 'http://testserver/?page=3',
      previous: 'http://testserver/',
      results: [3, 4],
    });
  });

  it('asView options win over subclass fields; paginationClass null lists everything', async () => {
    const response = await RowList.asView({ paginationClass: null })(request('/?page=2'));
    expect(await body(response as ApiResponse)).toEqual([1, 2, 3, 4, 5]);
  });

  it('options copied onto views and paginators: own enumerable keys only, undefined keeps the default', async () => {
    // Inherited and non-enumerable options were never copied (Object.entries): neither are they now.
    const inherited = Object.create({ paginationClass: null }) as { title?: string };
    inherited.title = 'Mine';
    Object.defineProperty(inherited, 'description', { value: 'hidden', enumerable: false });
    const view = new RowList(inherited as never).configure(inherited);
    expect(view.title).toBe('Mine');
    expect(view.description).toBeUndefined();
    expect(view.paginationClass).toBe(TwoPerPage);
    expect(new RowList({ paginationClass: undefined } as never).paginationClass).toBe(TwoPerPage);
    const paginator = new TwoPerPage(Object.create({ pageSize: 9 }) as never);
    expect(paginator.pageSize).toBe(2);
    const response = await RowList.asView(inherited as never)(request('/?page=2'));
    expect(await body(response as ApiResponse)).toEqual({
      count: 5,
      next: 'http://testserver/?page=3',
      previous: 'http://testserver/',
      results: [3, 4],
    });
  });

  it('settings supply the pagination class and page size; a view can opt out of versioning', async () => {
    const settings = new ApiSettings({
      defaultPaginationClass: PageNumberPagination,
      pageSize: 3,
      defaultVersioningClass: QueryParameterVersioning,
    });
    const view = new ListView<Row>({ queryset: fromArray(ROWS), settings, serializer: (row) => row.id });
    const paged = (await body(await view.dispatch(request('/?version=v2')))) as { results: number[] };
    expect(paged.results).toEqual([1, 2, 3]);
    const versioned = request('/?version=v2');
    await new ListView<Row>({ queryset: fromArray(ROWS), settings }).dispatch(versioned);
    expect(versioned.version).toBe('v2');
    expect(versioned.versioningScheme).toBeInstanceOf(QueryParameterVersioning);
    const unversioned = request('/?version=v2');
    await new ListView<Row>({ queryset: fromArray(ROWS), settings, versioningClass: null }).dispatch(
      unversioned,
    );
    expect([unversioned.version, unversioned.versioningScheme]).toEqual([null, null]);
  });

  it('a fresh paginator per request, nothing sticky', async () => {
    class Sized extends CursorPagination {
      override pageSize = 2;
      override ordering = 'id';
      override pageSizeQueryParam = 'size';
    }
    const handler = ListView.asView({
      queryset: fromArray(ROWS),
      paginationClass: Sized,
      serializer: (r: Row) => r.id,
    });
    const big = (await body((await handler(request('/?size=4'))) as ApiResponse)) as { results: number[] };
    const plain = (await body((await handler(request('/'))) as ApiResponse)) as { results: number[] };
    expect([big.results, plain.results]).toEqual([
      [1, 2, 3, 4],
      [1, 2],
    ]);
    const view = new RowList();
    expect(view.paginator).toBe(view.paginator);
    expect(new RowList().paginator).not.toBe(view.paginator);
  });

  it('filters first, then paginates', async () => {
    const onlyRankTwo: FilterBackend = {
      filterQueryset: <R>(_request: ApiRequest, _query: OrderedQuery<R>) =>
        fromArray(ROWS.filter((row) => row.rank === 2)) as unknown as OrderedQuery<R>,
    };
    const view = new RowList({ filterBackends: [onlyRankTwo] });
    expect(await body(await view.dispatch(request('/')))).toMatchObject({ count: 2, results: [1, 2] });
  });

  it('the serializer branches on request.version', async () => {
    const view = ListView.asView({
      queryset: fromArray(ROWS),
      paginationClass: null,
      versioningClass: URLPathVersioning,
      serializer: (row: Row, { request: r }) =>
        r.version === 'v1' ? row.id : { id: row.id, name: row.name },
    });
    const v1 = await body((await view(request('/v1/', { params: { version: 'v1' } }))) as ApiResponse);
    const v2 = (await body(
      (await view(request('/v2/', { params: { version: 'v2' } }))) as ApiResponse,
    )) as object[];
    expect(v1).toEqual([1, 2, 3, 4, 5]);
    expect(v2[0]).toEqual({ id: 1, name: 'c' });
  });
});

describe('OrderingFilter', () => {
  /** A query that records every ordering it is asked for. */
  function recording(): { query: OrderedQuery<Row>; asked: OrderTerm[][] } {
    const asked: OrderTerm[][] = [];
    const wrap = (inner: OrderedQuery<Row>): OrderedQuery<Row> =>
      new Proxy(inner, {
        get(target, key, receiver) {
          if (key === 'orderBy') {
            return (terms: OrderTerm[]) => {
              asked.push([...terms]);
              return wrap(target.orderBy(terms));
            };
          }
          const value = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    return { query: wrap(fromArray(ROWS)), asked };
  }

  it('keeps declared fields only, in the order given', () => {
    const filter = new OrderingFilter({ orderingFields: ['name', 'rank'] });
    const ordering = filter.getOrdering(request('/?ordering= -rank ,secret,name,--name,'), fromArray(ROWS));
    expect(ordering).toEqual(['-rank', 'name']);
  });

  it('falls back to its own ordering, then the view ordering, then nothing', () => {
    const r = request('/?ordering=secret');
    expect(
      new OrderingFilter({ ordering: 'name' }).getOrdering(r, fromArray(ROWS), { ordering: 'rank' }),
    ).toBe('name');
    expect(new OrderingFilter().getOrdering(r, fromArray(ROWS), { ordering: 'rank' })).toBe('rank');
    expect(new OrderingFilter().getOrdering(r, fromArray(ROWS))).toBeNull();
  });

  it('without declared fields a client cannot choose, and the query is never ordered by its words', async () => {
    const { query, asked } = recording();
    const view = new ListView<Row>({
      queryset: query,
      paginationClass: TwoPerPage,
      filterBackends: [new OrderingFilter()],
      serializer: (row) => row.id,
    });
    const result = await body(await view.dispatch(request('/?ordering=secret,-id')));
    expect(result).toMatchObject({ results: [1, 2] });
    expect(asked).toEqual([]);
  });

  it('reorders offset-style queries through query.orderBy', async () => {
    const { query, asked } = recording();
    const view = new ListView<Row>({
      queryset: query,
      paginationClass: TwoPerPage,
      orderingFields: ['name'],
      filterBackends: [new OrderingFilter()],
      serializer: (row) => row.name,
    });
    expect(await body(await view.dispatch(request('/?ordering=-name,rank')))).toMatchObject({
      results: ['e', 'd'],
    });
    expect(asked).toEqual([[{ field: 'name', direction: 'desc' }]]);
  });

  it('drives cursor pagination, with the ordering param kept in links', async () => {
    class ByCursor extends CursorPagination {
      override pageSize = 2;
      override ordering = 'id';
    }
    const view = () =>
      new ListView<Row>({
        queryset: fromArray(ROWS),
        paginationClass: ByCursor,
        orderingFields: ['rank', 'name'],
        filterBackends: [new OrderingFilter()],
        serializer: (row) => row.id,
      });
    const first = (await body(await view().dispatch(request('/?ordering=rank,-name')))) as {
      next: string;
      results: number[];
    };
    expect(first.results).toEqual([5, 3]);
    const next = new URL(first.next);
    const second = (await body(await view().dispatch(request(next.pathname + next.search)))) as {
      results: number[];
    };
    expect(second.results).toEqual([1, 2]);
    const fallback = (await body(await view().dispatch(request('/?ordering=id')))) as { results: number[] };
    expect(fallback.results).toEqual([1, 2]);
  });

  it('a field named twice counts once, first mention wins (issue 10)', async () => {
    const filter = new OrderingFilter({ orderingFields: ['name', 'rank'] });
    expect(filter.getOrdering(request('/?ordering=rank,-rank,name,rank,-name'), fromArray(ROWS))).toEqual([
      'rank',
      'name',
    ]);
    const { query, asked } = recording();
    const view = new ListView<Row>({
      queryset: query,
      paginationClass: TwoPerPage,
      orderingFields: ['name', 'rank'],
      filterBackends: [new OrderingFilter()],
      serializer: (row) => row.id,
    });
    await view.dispatch(request(`/?ordering=${'-rank,name,'.repeat(9)}`));
    expect(asked).toEqual([
      [
        { field: 'rank', direction: 'desc' },
        { field: 'name', direction: 'asc' },
      ],
    ]);
  });

  it('more terms than maxOrderingTerms (default 20) are a 400 naming the cap (issue 10)', async () => {
    const filter = new OrderingFilter({ orderingFields: ['name', 'rank'] });
    expect(filter.maxOrderingTerms).toBe(20);
    const terms = (n: number) => request(`/?ordering=${Array(n).fill('name').join(',')}`);
    expect(filter.getOrdering(terms(20), fromArray(ROWS))).toEqual(['name']);
    let error: unknown = null;
    try {
      filter.getOrdering(terms(21), fromArray(ROWS));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 400,
      detail: 'Too many ordering terms: at most 20 are accepted in "ordering".',
    });
    // Empty terms count too: the cap bounds what is read, not what is kept.
    expect(() => filter.getOrdering(request(`/?ordering=name${','.repeat(20)}`), fromArray(ROWS))).toThrow(
      ValidationError,
    );
    const view = new ListView<Row>({
      queryset: fromArray(ROWS),
      paginationClass: TwoPerPage,
      orderingFields: ['name'],
      filterBackends: [new OrderingFilter()],
      serializer: (row) => row.id,
    });
    const response = await view.dispatch(terms(1000));
    expect(response.status).toBe(400);
    const three = new OrderingFilter({ orderingFields: ['name', 'rank'], maxOrderingTerms: 3 });
    expect(() => three.getOrdering(terms(4), fromArray(ROWS))).toThrow(ValidationError);
    const unlimited = new OrderingFilter({ orderingFields: ['name', 'rank'], maxOrderingTerms: null });
    expect(unlimited.getOrdering(terms(5000), fromArray(ROWS))).toEqual(['name']);
  });

  it('the orderingParam comes from the settings', () => {
    const filter = new OrderingFilter({
      orderingFields: ['name'],
      settings: new ApiSettings({ orderingParam: 'sort' }),
    });
    expect(filter.getOrdering(request('/?sort=-name&ordering=name'), fromArray(ROWS))).toEqual(['-name']);
  });
});

describe('ListView and the two paginator APIs', () => {
  class Layout extends PageNumberPagination {
    override pageSize = 2;
    override getPaginatedResponse(data: unknown[]): ApiResponse {
      return new ApiResponse({ total: this.page!.count, items: data, next: this.getNextLink() });
    }
  }

  it("a view pages through its own paginator's two-step API, which holds this request's one page value", async () => {
    const view = new RowList();
    const html = await view.dispatch(request('/?page=2', { headers: { accept: 'text/html' } }));
    expect(html.data).toContain('aria-label="Pagination"');
    expect(html.data).toContain('href="http://testserver/?page=3"');
    const paginator = view.paginator as TwoPerPage;
    expect(paginator.page?.number).toBe(2);
    expect(Object.isFrozen(paginator.page)).toBe(true);
  });

  it('a style that overrides the two-step methods keeps its layout', async () => {
    const view = new ListView<Row>({
      queryset: fromArray(ROWS),
      paginationClass: Layout,
      serializer: (r) => r.id,
    });
    expect(await body(await view.dispatch(request('/?page=2')))).toEqual({
      total: 5,
      items: [3, 4],
      next: 'http://testserver/?page=3',
    });
  });

  it('a pageBody override holds for paginate(), the two-step API and views alike', async () => {
    class WithPage extends PageNumberPagination {
      override pageSize = 2;
      protected override pageBody(
        page: PageFields<PageNumberPage<unknown>>,
        data: unknown[],
        next: string | null,
        previous: string | null,
      ) {
        return { ...super.pageBody(page, data, next, previous), page: page.number };
      }
    }
    const expected = {
      count: 5,
      next: 'http://testserver/?page=3',
      previous: 'http://testserver/',
      results: [3, 4],
      page: 2,
    };
    const shared = new WithPage();
    const page = await shared.paginate(fromArray(ROWS), request('/?page=2'));
    expect(page!.response(page!.rows.map((r) => r.id)).data).toEqual(expected);
    const twoStep = new WithPage();
    const rows = await twoStep.paginateQueryset(fromArray(ROWS), request('/?page=2'));
    expect(twoStep.getPaginatedResponse(rows!.map((r) => r.id)).data).toEqual(expected);
    const view = new ListView<Row>({
      queryset: fromArray(ROWS),
      paginationClass: WithPage,
      serializer: (r) => r.id,
    });
    expect(await body(await view.dispatch(request('/?page=2')))).toEqual(expected);
  });
});
