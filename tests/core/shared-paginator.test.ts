import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  type ApiResponse,
  ConfigurationError,
  type CursorPage,
  CursorPagination,
  LimitOffsetPagination,
  PageNumberPagination,
} from '@pagewise/rest';
import { describe, expect, it } from 'vitest';

const rows = Array.from({ length: 100 }, (_, i) => ({ id: i, created: i }));
const request = (search: string) => new ApiRequest({ url: `http://testserver/${search}` });
/** A serializer that waits, as one reading another table would. */
const serialize = async (page: readonly { id: number }[]) => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return page.map((row) => row.id);
};

describe('the issue 11 report: one paginator shared by concurrent requests', () => {
  it('the two-step API never answers another request its links: it refuses loudly instead', async () => {
    const pagination = new PageNumberPagination({ pageSize: 10 });
    const answer = async (search: string): Promise<ApiResponse | Error> => {
      const page = await pagination.paginateQueryset(fromArray(rows), request(search));
      const data = await serialize(page!);
      try {
        return pagination.getPaginatedResponse(data);
      } catch (error) {
        return error as Error;
      }
    };
    const [second, seventh] = await Promise.all([answer('?page=2'), answer('?page=7')]);
    for (const [result, page] of [
      [second, 2],
      [seventh, 7],
    ] as const) {
      if (result instanceof Error) {
        expect(result).toBeInstanceOf(ConfigurationError);
        expect(result.message).toMatch(/paginate\(\)|one paginator per request/);
        continue;
      }
      expect(result.data).toMatchObject({ next: `http://testserver/?page=${page + 1}` });
    }
    // Overlapping requests are detected, so at least one was refused rather than answered wrongly.
    expect([second, seventh].some((result) => result instanceof ConfigurationError)).toBe(true);

    // Requests that do not overlap keep working on the same instance.
    const alone = await pagination.paginateQueryset(fromArray(rows), request('?page=3'));
    expect(pagination.getPaginatedResponse(alone!).data).toMatchObject({
      next: 'http://testserver/?page=4',
      previous: 'http://testserver/?page=2',
    });
  });

  it('the stateless path answers each request its own page, for every style', async () => {
    const styles = [
      new PageNumberPagination({ pageSize: 10 }),
      new LimitOffsetPagination({ defaultLimit: 10 }),
      new CursorPagination({ pageSize: 10, ordering: 'id' }),
    ];
    for (const pagination of styles) {
      const answer = async (search: string) => {
        const page = await pagination.paginate(fromArray(rows), request(search));
        return page!.response(await serialize(page!.rows));
      };
      const first = await answer('');
      const next = (first.data as { next: string }).next;
      const [again, following] = await Promise.all([
        answer(''),
        answer(next.slice('http://testserver/'.length)),
      ]);
      expect(again.data).toEqual(first.data);
      expect(again.headers.get('link')).toBe(first.headers.get('link'));
      expect((following.data as { results: number[] }).results).toEqual(
        Array.from({ length: 10 }, (_, i) => i + 10),
      );
      expect((following.data as { previous: string | null }).previous).not.toBeNull();
    }
  });

  it('links, body, Link header and html controls are functions of the page value alone', async () => {
    const styles = [
      new PageNumberPagination({ pageSize: 10 }),
      new LimitOffsetPagination({ defaultLimit: 10 }),
      new CursorPagination({ pageSize: 10, ordering: 'id' }),
    ];
    for (const pagination of styles) {
      const first = await pagination.paginate(fromArray(rows), request(''));
      const before = {
        response: first!.response([1, 2]),
        html: first!.toHtml(),
        context: first!.htmlContext(),
        links: [first!.next, first!.previous],
      };
      expect(first!.next).not.toBeNull();
      expect(first!.displayPageControls).toBe(true);
      await Promise.all(
        ['?page=5', '?offset=50', '?page=9&limit=3', '?cursor=junk'].map((search) =>
          pagination.paginate(fromArray(rows), request(search)).catch(() => null),
        ),
      );
      const after = first!.response([1, 2]);
      expect(after.data).toEqual(before.response.data);
      expect(after.headers.get('link')).toBe(before.response.headers.get('link'));
      expect(first!.toHtml()).toBe(before.html);
      expect(first!.htmlContext()).toEqual(before.context);
      expect([first!.next, first!.previous]).toEqual(before.links);
    }
  });

  it('a cursor paginator shared by requests of other orderings and unique keys links each as a fresh one would', async () => {
    const view = {
      filterBackends: [{ getOrdering: (r: ApiRequest) => r.queryParams.get('ordering')?.split(',') ?? null }],
    };
    const queries = {
      id: () => fromArray(rows, { uniqueKey: 'id' }),
      none: () => fromArray(rows, { uniqueKey: null }),
    };
    const cases = ['', '?ordering=-created', '?ordering=created,-id', '?ordering=-id'].flatMap((search) =>
      (['id', 'none'] as const).map((key) => ({ search, key })),
    );
    const shared = new CursorPagination({ pageSize: 7, ordering: 'id' });
    const walk = async (pagination: CursorPagination, search: string, key: 'id' | 'none') => {
      const links: Array<string | null> = [];
      let url: string | null = `http://testserver/${search}`;
      for (let i = 0; i < 3 && url !== null; i += 1) {
        const page: CursorPage<unknown> | null = await pagination.paginate(
          queries[key](),
          new ApiRequest({ url }),
          view,
        );
        expect(Object.isFrozen(page!.order)).toBe(true);
        expect(page!.order.every((term) => Object.isFrozen(term))).toBe(true);
        links.push(page!.next, page!.previous);
        url = page!.next;
      }
      return links;
    };
    const together = await Promise.all(cases.map(({ search, key }) => walk(shared, search, key)));
    for (const [i, { search, key }] of cases.entries()) {
      const alone = await walk(new CursorPagination({ pageSize: 7, ordering: 'id' }), search, key);
      expect(together[i], `${search} ${key}`).toEqual(alone);
    }
  });
});

describe('the orderings a cursor paginator hands adapters', () => {
  it('are frozen, terms and all, and equal page after page, so adapters may keep plans for them', async () => {
    const memory = fromArray(rows, { uniqueKey: 'id' });
    const orders: unknown[] = [];
    const recording: typeof memory = Object.assign(Object.create(memory), {
      fetch: (window: Parameters<typeof memory.fetch>[0]) => {
        orders.push(window.order);
        return memory.fetch(window);
      },
    });
    const pagination = new CursorPagination({ pageSize: 10, ordering: '-created' });
    const first = await pagination.paginate(recording, request(''));
    const second = await pagination.paginate(recording, new ApiRequest({ url: first!.next! }));
    const third = await pagination.paginate(recording, new ApiRequest({ url: second!.next! }));
    const back = await pagination.paginate(recording, new ApiRequest({ url: third!.previous! }));
    await pagination.paginate(recording, new ApiRequest({ url: back!.previous! }));
    expect(back!.rows).toEqual(second!.rows);
    const [forward, , , reversed] = orders as Array<ReadonlyArray<object>>;
    expect(orders).toEqual([forward, forward, forward, reversed, reversed]);
    expect(reversed).toEqual([
      { field: 'created', direction: 'asc', nulls: 'last' },
      { field: 'id', direction: 'asc', nulls: 'first', unique: true },
    ]);
    for (const order of orders as Array<ReadonlyArray<object>>) {
      expect(Object.isFrozen(order)).toBe(true);
      for (const term of order) expect(Object.isFrozen(term)).toBe(true);
    }
  });
});
