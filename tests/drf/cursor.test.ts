import { fromArray } from '@pagewise/memory-adapter';
import {
  type ApiRequest,
  ConfigurationError,
  CursorPagination,
  decodeCursor,
  encodeCursor,
  NotFound,
  type OrderedQuery,
  type OrderingInput,
  type OrderingSource,
  type OrderTerm,
  orderingFingerprint,
  type PaginationView,
} from '@pagewise/rest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DUPLICATES, get, newLog, range, wrapQuery } from './helpers.js';

interface Item {
  readonly id: number;
  readonly created: number;
}

const items = (): Item[] => DUPLICATES.map((created, id) => ({ id, created }));

/** The same rows through two adapter configurations (DRF runs its walk on objects and on `.values()`). */
const BACKENDS: Array<{ name: string; make: (rows: readonly Item[]) => OrderedQuery<unknown> }> = [
  { name: 'objects, row-index tiebreaker', make: (rows) => fromArray(rows) },
  {
    name: 'tuples read by getField, "id" tiebreaker',
    make: (rows) =>
      fromArray(
        rows.map((r) => [r.id, r.created] as const),
        {
          uniqueKey: 'id',
          getField: (row, field) => (field === 'id' ? row[0] : field === 'created' ? row[1] : undefined),
        },
      ),
  },
];

function idOf(row: unknown): number {
  return Array.isArray(row) ? (row[0] as number) : (row as Item).id;
}
function createdOf(row: unknown): number {
  return Array.isArray(row) ? (row[1] as number) : (row as Item).created;
}

class ExamplePagination extends CursorPagination {
  override pageSize = 5;
  override pageSizeQueryParam = 'page_size';
  override maxPageSize = 20;
  override ordering: OrderingInput = 'created';
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function expectInvalidCursor(promise: Promise<unknown>, detail = 'Invalid cursor'): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(NotFound);
  expect((error as NotFound).status).toBe(404);
  expect((error as NotFound).detail).toBe(detail);
}

interface Pages {
  previous: number[] | null;
  current: number[];
  next: number[] | null;
  previousIds: number[] | null;
  currentIds: number[];
  nextIds: number[] | null;
  previousUrl: string | null;
  nextUrl: string | null;
}

/** DRF's `get_pages`: the page at `url` and the pages its links lead to, all on one paginator instance. */
async function getPages(
  pagination: CursorPagination,
  query: OrderedQuery<unknown>,
  url: string,
): Promise<Pages> {
  const load = async (u: string) => (await pagination.paginateQueryset(query, get(u)))!;
  const current = await load(url);
  const nextUrl = pagination.getNextLink();
  const previousUrl = pagination.getPreviousLink();
  const next = nextUrl === null ? null : await load(nextUrl);
  const previous = previousUrl === null ? null : await load(previousUrl);
  return {
    previous: previous?.map(createdOf) ?? null,
    current: current.map(createdOf),
    next: next?.map(createdOf) ?? null,
    previousIds: previous?.map(idOf) ?? null,
    currentIds: current.map(idOf),
    nextIds: next?.map(idOf) ?? null,
    previousUrl,
    nextUrl,
  };
}

/** The raw JSON inside an unsigned token, for forging. */
function tokenJson(url: string): Record<string, unknown> {
  const token = new URL(url).searchParams.get('cursor')!;
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
}
function forge(body: unknown): string {
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

const P1 = [1, 1, 1, 1, 1];
const P2 = [1, 2, 3, 4, 4];
const P3 = [4, 4, 5, 6, 7];
const P4 = [7, 7, 7, 7, 7];
const P5 = [7, 7, 7, 8, 9];
const P6 = [9, 9, 9, 9, 9];

describe.each(BACKENDS)('TestCursorPagination, adapted: no paging artifacts ($name)', ({ make }) => {
  const query = make(items());

  async function walk(first: string) {
    const p = new ExamplePagination();
    let pages = await getPages(p, query, first);
    expect(pages).toMatchObject({ previous: null, current: P1, next: P2 });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: P1, current: P2, next: P3 });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: P2, current: P3, next: P4 });
    pages = await getPages(p, query, pages.nextUrl!);
    // DRF: previous == [4, 4, 4, 5, 6] (paging artifact).
    expect(pages).toMatchObject({ previous: P3, current: P4, next: P5 });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: P4, current: P5, next: P6 });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: P5, current: P6, next: null, nextUrl: null });

    pages = await getPages(p, query, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: P4, current: P5, next: P6 });
    pages = await getPages(p, query, pages.previousUrl!);
    // DRF: next == [8, 9, 9, 9, 9] (paging artifact).
    expect(pages).toMatchObject({ previous: P3, current: P4, next: P5 });
    pages = await getPages(p, query, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: P2, current: P3, next: P4 });
    pages = await getPages(p, query, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: P1, current: P2, next: P3 });
    pages = await getPages(p, query, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: null, current: P1, next: P2, previousUrl: null });
    expect(typeof p.toHtml()).toBe('string');
  }

  it('cursor pagination walk, next then previous', async () => {
    await walk('/');
  });

  it('an empty ?cursor= is the first page', async () => {
    await walk('/?cursor=');
  });

  it.each(['/?page_size=0', '/?page_size=-5', '/?page_size=junk', '/?page_size='])(
    'an invalid page size (%s) falls back to the default',
    async (first) => {
      await walk(first);
    },
  );

  it('following next visits every row exactly once; previous of next is the same page', async () => {
    const p = new ExamplePagination();
    const seen: number[] = [];
    let url: string | null = '/';
    while (url !== null) {
      const rows = (await p.paginateQueryset(query, get(url)))!;
      const ids = rows.map(idOf);
      seen.push(...ids);
      const nextUrl = p.getNextLink();
      if (nextUrl !== null) {
        await p.paginateQueryset(query, get(nextUrl));
        const back = (await p.paginateQueryset(query, get(p.getPreviousLink()!)))!;
        expect(back.map(idOf)).toEqual(ids);
      }
      url = nextUrl;
    }
    expect(seen).toEqual(range(0, 30));
  });

  it('page size via the query parameter', async () => {
    const p = new ExamplePagination();
    const first = await getPages(p, query, '/?page_size=20');
    expect(first).toMatchObject({
      previous: null,
      current: [1, 1, 1, 1, 1, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 7, 7, 7, 7, 7],
      next: [7, 7, 7, 8, 9, 9, 9, 9, 9, 9],
    });
    const second = await getPages(p, query, first.nextUrl!);
    expect(second).toMatchObject({
      previous: [1, 1, 1, 1, 1, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 7, 7, 7, 7, 7],
      current: [7, 7, 7, 8, 9, 9, 9, 9, 9, 9],
      next: null,
    });
    expect(first.nextUrl).toMatch(/^http:\/\/testserver\/\?cursor=[A-Za-z0-9_-]+&page_size=20$/);
  });

  it('a page size over maxPageSize is clamped', async () => {
    const p = new ExamplePagination();
    const first = await getPages(p, query, '/?page_size=30');
    expect(first.current).toHaveLength(20);
    expect(first.next).toEqual([7, 7, 7, 8, 9, 9, 9, 9, 9, 9]);
    const second = await getPages(p, query, first.nextUrl!);
    expect(second).toMatchObject({ current: [7, 7, 7, 8, 9, 9, 9, 9, 9, 9], next: null });
  });

  it("ordering '-created' walks the list backwards", async () => {
    const p = new ExamplePagination({ ordering: '-created' });
    p.ordering = '-created';
    let pages = await getPages(p, query, '/');
    expect(pages).toMatchObject({ previous: null, current: [9, 9, 9, 9, 9], next: [9, 8, 7, 7, 7] });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({
      previous: [9, 9, 9, 9, 9],
      current: [9, 8, 7, 7, 7],
      next: [7, 7, 7, 7, 7],
    });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({
      previous: [9, 8, 7, 7, 7],
      current: [7, 7, 7, 7, 7],
      next: [7, 6, 5, 4, 4],
    });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({
      previous: [7, 7, 7, 7, 7],
      current: [7, 6, 5, 4, 4],
      next: [4, 4, 3, 2, 1],
    });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({
      previous: [7, 6, 5, 4, 4],
      current: [4, 4, 3, 2, 1],
      next: [1, 1, 1, 1, 1],
    });
    pages = await getPages(p, query, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: [4, 4, 3, 2, 1], current: [1, 1, 1, 1, 1], next: null });
    pages = await getPages(p, query, pages.previousUrl!);
    expect(pages).toMatchObject({
      previous: [7, 6, 5, 4, 4],
      current: [4, 4, 3, 2, 1],
      next: [1, 1, 1, 1, 1],
    });
  });

  it('current page empty, forward (a cursor past the last row, DRF #6504)', async () => {
    const p = new ExamplePagination();
    await p.paginateQueryset(query, get('/'));
    const order = p.page!.order;
    const cursor = encodeCursor({ offset: 0, reverse: false, position: [100, 1000] }, { order });
    const empty = await getPages(p, query, `/?cursor=${cursor}`);
    expect(empty.current).toEqual([]);
    expect(empty.nextUrl).toBeNull();
    expect(empty.previousUrl).not.toBeNull();
    // The page before it is the last page. DRF also links that page to an empty next page.
    const pages = await getPages(p, query, empty.previousUrl!);
    expect(pages.previous).toEqual([7, 7, 7, 8, 9]);
    expect(pages.current).toEqual([9, 9, 9, 9, 9]);
    expect(pages.currentIds).toEqual([25, 26, 27, 28, 29]);
    expect(pages.next).toBeNull();
    expect(pages.nextUrl).toBeNull();
    expect(pages.previousUrl).not.toBeNull();
  });

  it('current page empty, reverse (DRF #6504): the page before the empty one ends with the last row', async () => {
    const p = new ExamplePagination();
    await p.paginateQueryset(query, get('/'));
    const order = p.page!.order;
    const cursor = encodeCursor({ offset: 0, reverse: true, position: [100, 1000] }, { order });
    const last = await getPages(p, query, `/?cursor=${cursor}`);
    expect(last.current).toEqual(P6);
    expect(last.currentIds).toEqual([25, 26, 27, 28, 29]);
    const pages = await getPages(p, query, last.nextUrl!);
    // DRF answers previous == [7, 7, 7, 7, 8] here: it skips every 9.
    expect(pages.current).toEqual([]);
    expect(pages.next).toBeNull();
    expect(pages.nextUrl).toBeNull();
    expect(pages.previousUrl).not.toBeNull();
    expect(pages.previousIds).toEqual([25, 26, 27, 28, 29]);
  });

  it('an empty reverse page (nothing before a stale cursor) links next to the first page', async () => {
    const p = new ExamplePagination();
    await p.paginateQueryset(query, get('/'));
    const order = p.page!.order;
    const cursor = encodeCursor({ offset: 0, reverse: true, position: [0, -1] }, { order });
    const empty = await getPages(p, query, `/?cursor=${cursor}`);
    expect(empty).toMatchObject({ current: [], previousUrl: null, previous: null, next: P1 });
    expect(empty.nextIds).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('DRF position + offset cursors when no unique key exists', () => {
  /** The memory adapter posing as a query without a unique key: positions hold the ordering fields only. */
  const query = () => wrapQuery(fromArray(items()), { uniqueKey: null });

  it('the window holds the ordering fields only, with a residual offset', async () => {
    const log = newLog();
    const p = new ExamplePagination();
    const q = wrapQuery(fromArray(items()), { uniqueKey: null, log });
    await p.paginateQueryset(q, get('/'));
    expect(log.fetches[0]).toEqual({
      order: [{ field: 'created', direction: 'asc', nulls: 'last' }],
      after: null,
      offset: 0,
      limit: 6,
    });
    await p.paginateQueryset(q, get(p.getNextLink()!));
    expect(log.fetches[1]).toMatchObject({ after: null, offset: 5 });
    await p.paginateQueryset(q, get(p.getNextLink()!));
    expect(log.fetches[2]).toMatchObject({ after: [3], offset: 2 });
  });

  it("reproduces DRF's walk, artifacts included", async () => {
    const p = new ExamplePagination();
    const q = query();
    let pages = await getPages(p, q, '/');
    expect(pages).toMatchObject({ previous: null, current: P1, next: P2 });
    pages = await getPages(p, q, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: P1, current: P2, next: P3 });
    pages = await getPages(p, q, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: P2, current: P3, next: P4 });
    pages = await getPages(p, q, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: [4, 4, 4, 5, 6], current: P4, next: P5 });
    pages = await getPages(p, q, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: P4, current: P5, next: P6 });
    pages = await getPages(p, q, pages.nextUrl!);
    expect(pages).toMatchObject({ previous: P5, current: P6, next: null });
    pages = await getPages(p, q, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: P4, current: P5, next: P6 });
    pages = await getPages(p, q, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: P3, current: P4, next: [8, 9, 9, 9, 9] });
    pages = await getPages(p, q, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: P2, current: P3, next: P4 });
    pages = await getPages(p, q, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: P1, current: P2, next: P3 });
    pages = await getPages(p, q, pages.previousUrl!);
    expect(pages).toMatchObject({ previous: null, current: P1, next: P2 });
  });

  it('offsetCutoff clamps a decoded offset instead of rejecting it', async () => {
    const order = [{ field: 'created', direction: 'asc', nulls: 'last' } as const];
    const k = orderingFingerprint(order);
    const rowsAt = async (cutoff: number | null, o: number) => {
      const p = new ExamplePagination({ offsetCutoff: cutoff });
      p.offsetCutoff = cutoff;
      return (await p.paginateQueryset(query(), get(`/?cursor=${forge({ k, o })}`)))!.map(createdOf);
    };
    expect(await rowsAt(null, 10)).toEqual([4, 4, 5, 6, 7]);
    expect(await rowsAt(3, 10)).toEqual([1, 1, 1, 2, 3]);
    expect(await rowsAt(1000, 5000)).toEqual([]);
    expect(await rowsAt(0, 10)).toEqual([4, 4, 5, 6, 7]);
  });

  it('the composite ordering with repeated positions still returns every row once', async () => {
    const rows = COMPOSITE_ROWS.map(([category, created, pk]) => ({ category, created, pk }));
    const q = wrapQuery(fromArray(rows), { uniqueKey: null });
    const p = new CursorPagination({ pageSize: 3, ordering: ['category', '-created'] });
    const seen: Array<[string, number, number]> = [];
    let url: string | null = '/';
    while (url !== null) {
      const page = (await p.paginateQueryset(q, get(url)))!;
      seen.push(...page.map((r) => [r.category, r.created, r.pk] as [string, number, number]));
      url = p.getNextLink();
    }
    expect(seen).toEqual(COMPOSITE_ORDERED);
  });
});

const COMPOSITE_ROWS: Array<[string, number, number]> = [
  ['b', 40, 1],
  ['a', 10, 2],
  ['a', 20, 3],
  ['c', 5, 4],
  ['b', 10, 5],
  ['a', 20, 6],
  ['c', 15, 7],
  ['a', 30, 8],
  ['b', 10, 9],
];
/** category asc, created desc, pk asc. */
const COMPOSITE_ORDERED: Array<[string, number, number]> = [
  ['a', 30, 8],
  ['a', 20, 3],
  ['a', 20, 6],
  ['a', 10, 2],
  ['b', 40, 1],
  ['b', 10, 5],
  ['b', 10, 9],
  ['c', 15, 7],
  ['c', 5, 4],
];

describe('TestCursorPaginationCompositeOrdering (category, -created, pk)', () => {
  type Row = { category: string; created: number; pk: number };
  const build = () =>
    fromArray(
      COMPOSITE_ROWS.map(([category, created, pk]) => ({ category, created, pk })),
      { uniqueKey: 'pk' },
    );
  const tuple = (r: Row): [string, number, number] => [r.category, r.created, r.pk];
  const pagination = () => new CursorPagination({ pageSize: 3, ordering: ['category', '-created', 'pk'] });

  async function pages(p: CursorPagination, url: string) {
    const current = ((await p.paginateQueryset(build(), get(url))) as Row[]).map(tuple);
    const nextUrl = p.getNextLink();
    const previousUrl = p.getPreviousLink();
    const fresh = new CursorPagination({ pageSize: 3, ordering: ['category', '-created', 'pk'] });
    const load = async (u: string | null) =>
      u === null ? null : ((await fresh.paginateQueryset(build(), get(u))) as Row[]).map(tuple);
    return { current, next: await load(nextUrl), previous: await load(previousUrl), nextUrl, previousUrl };
  }

  it('forward paging', async () => {
    const p = pagination();
    let r = await pages(p, '/');
    expect(r).toMatchObject({
      previous: null,
      current: COMPOSITE_ORDERED.slice(0, 3),
      next: COMPOSITE_ORDERED.slice(3, 6),
    });
    r = await pages(p, r.nextUrl!);
    expect(r).toMatchObject({
      previous: COMPOSITE_ORDERED.slice(0, 3),
      current: COMPOSITE_ORDERED.slice(3, 6),
      next: COMPOSITE_ORDERED.slice(6, 9),
    });
    r = await pages(p, r.nextUrl!);
    expect(r).toMatchObject({
      previous: COMPOSITE_ORDERED.slice(3, 6),
      current: COMPOSITE_ORDERED.slice(6, 9),
      next: null,
    });
  });

  it('backward paging and direction changes', async () => {
    const p = pagination();
    let r = await pages(p, '/');
    r = await pages(p, r.nextUrl!);
    r = await pages(p, r.nextUrl!);
    expect(r.current).toEqual(COMPOSITE_ORDERED.slice(6, 9));
    r = await pages(p, r.previousUrl!);
    expect(r).toMatchObject({
      previous: COMPOSITE_ORDERED.slice(0, 3),
      current: COMPOSITE_ORDERED.slice(3, 6),
      next: COMPOSITE_ORDERED.slice(6, 9),
    });
    r = await pages(p, r.previousUrl!);
    expect(r).toMatchObject({
      previous: null,
      current: COMPOSITE_ORDERED.slice(0, 3),
      next: COMPOSITE_ORDERED.slice(3, 6),
    });
    r = await pages(p, r.nextUrl!);
    expect(r).toMatchObject({
      previous: COMPOSITE_ORDERED.slice(0, 3),
      current: COMPOSITE_ORDERED.slice(3, 6),
    });
  });

  it('a composite cursor is rejected by a single-field ordering', async () => {
    const p = pagination();
    await p.paginateQueryset(build(), get('/'));
    const next = p.getNextLink()!;
    await expectInvalidCursor(
      new CursorPagination({ pageSize: 3, ordering: 'created' }).paginateQueryset(build(), get(next)),
    );
  });
});

describe("composite cursors with concurrent changes (ids, like DRF's database tests)", () => {
  type Row = { id: number; category: string; created: number };
  const ORDERED_IDS = [8, 3, 6, 2, 1, 5, 9, 7, 4];
  function table() {
    const rows: Row[] = COMPOSITE_ROWS.map(([category, created], i) => ({ id: i + 1, category, created }));
    return {
      rows,
      insert(category: string, created: number) {
        rows.push({ id: rows.reduce((m, r) => Math.max(m, r.id), 0) + 1, category, created });
      },
      remove(id: number) {
        rows.splice(
          rows.findIndex((r) => r.id === id),
          1,
        );
      },
      query: () => fromArray([...rows], { uniqueKey: 'id' }),
    };
  }
  const pagination = () => new CursorPagination({ pageSize: 3, ordering: ['category', '-created', 'id'] });
  async function paginate(p: CursorPagination, t: ReturnType<typeof table>, url: string) {
    const page = (await p.paginateQueryset(t.query(), get(url))) as Row[];
    return { ids: page.map((r) => r.id), next: p.getNextLink(), previous: p.getPreviousLink() };
  }

  it('forward walk', async () => {
    const t = table();
    const p = pagination();
    const pages: number[][] = [];
    let url: string | null = '/';
    while (url !== null) {
      const r = await paginate(p, t, url);
      pages.push(r.ids);
      url = r.next;
    }
    expect(pages).toEqual([ORDERED_IDS.slice(0, 3), ORDERED_IDS.slice(3, 6), ORDERED_IDS.slice(6, 9)]);
  });

  it('rows inserted and deleted on both sides of the cursor, forward', async () => {
    const t = table();
    const p = pagination();
    let r = await paginate(p, t, '/');
    expect(r.ids).toEqual([8, 3, 6]);
    t.insert('a', 25); // id 10, before the cursor
    t.insert('d', 1); // id 11, after it
    t.remove(8);
    t.remove(2);
    r = await paginate(p, t, r.next!);
    expect(r.ids).toEqual([1, 5, 9]);
    r = await paginate(p, t, r.next!);
    expect(r.ids).toEqual([7, 4, 11]);
    expect(r.next).toBeNull();
  });

  it('rows inserted and deleted before the boundary, backward', async () => {
    const t = table();
    const p = pagination();
    let r = await paginate(p, t, '/');
    expect(r.ids).toEqual([8, 3, 6]);
    t.insert('a', 35); // id 10
    t.remove(3);
    r = await paginate(p, t, r.next!);
    expect(r.ids).toEqual([2, 1, 5]);
    const back = await paginate(p, t, r.previous!);
    expect(back.ids).toEqual([10, 8, 6]);
    expect((await paginate(p, t, back.next!)).ids).toEqual([2, 1, 5]);
  });
});

describe('invalid cursors are 404 "Invalid cursor" (no period)', () => {
  const query = () => fromArray(items());

  async function validNext(p: CursorPagination = new ExamplePagination()): Promise<string> {
    await p.paginateQueryset(query(), get('/'));
    await p.paginateQueryset(query(), get(p.getNextLink()!));
    return p.getNextLink()!;
  }

  it.each([
    '123',
    'garbage',
    'Z2FyYmFnZQ==',
    'bz01',
    'cD0z',
    'bz0tMQ==',
    '%%%',
    'e30',
    'bnVsbA',
    'W10',
    'eyJrIjoxfQ',
    '..',
    'a.b.c',
    '%C3%A9',
    '%00',
  ])('garbage cursor %j', async (cursor) => {
    await expectInvalidCursor(new ExamplePagination().paginateQueryset(query(), get(`/?cursor=${cursor}`)));
  });

  it('DRF-format cursors (base64 of "p=3") are not accepted', async () => {
    const legacy = Buffer.from('p=3').toString('base64');
    await expectInvalidCursor(
      new ExamplePagination().paginateQueryset(query(), get(`/?cursor=${encodeURIComponent(legacy)}`)),
    );
  });

  it('every truncation of a real cursor', async () => {
    const next = await validNext();
    const token = new URL(next).searchParams.get('cursor')!;
    for (let n = 1; n < token.length; n += 1) {
      await expectInvalidCursor(
        new ExamplePagination().paginateQueryset(query(), get(`/?cursor=${token.slice(0, n)}`)),
      );
    }
  });

  it('over-long cursors', async () => {
    await expectInvalidCursor(
      new ExamplePagination().paginateQueryset(query(), get(`/?cursor=${'A'.repeat(5000)}`)),
    );
    const next = await validNext();
    const p = new ExamplePagination({ maxCursorLength: 10 });
    p.maxCursorLength = 10;
    await expectInvalidCursor(p.paginateQueryset(query(), get(next)));
  });

  it('a cursor minted for another ordering', async () => {
    const next = await validNext();
    const other = new ExamplePagination();
    other.ordering = '-created';
    await expectInvalidCursor(other.paginateQueryset(query(), get(next)));
    const nullsFirst = new ExamplePagination();
    nullsFirst.ordering = [{ field: 'created', direction: 'asc', nulls: 'first' }];
    await expectInvalidCursor(nullsFirst.paginateQueryset(query(), get(next)));
  });

  it('forged JSON: bad offset, direction, position, tags, unknown fields, fingerprint', async () => {
    const next = await validNext();
    const body = tokenJson(next);
    expect(Object.keys(body)).toEqual(['k', 'p']);
    const forgeries: unknown[] = [
      { ...body, o: -1 },
      { ...body, o: 1.5 },
      { ...body, o: '5' },
      { ...body, o: 1e300 },
      { ...body, r: 2 },
      { ...body, r: true },
      { ...body, r: -1 },
      { ...body, p: [] },
      { ...body, p: [4] },
      { ...body, p: [4, 9, 1] },
      { ...body, p: 'x' },
      { ...body, p: [4, 'x9'] },
      { ...body, p: [4, ''] },
      { ...body, p: [4, { a: 1 }] },
      { ...body, p: ['d99999999999999999999', 9] },
      { ...body, p: ['bx', 9] },
      { ...body, p: ['nfoo', 9] },
      { ...body, k: 'nope' },
      { p: body.p },
      { ...body, extra: 1 },
      [body],
      null,
      'cursor',
      42,
    ];
    for (const forged of forgeries) {
      await expectInvalidCursor(
        new ExamplePagination().paginateQueryset(query(), get(`/?cursor=${forge(forged)}`)),
      );
    }
  });

  it('forged values of the wrong kind for a field', async () => {
    const next = await validNext();
    const body = tokenJson(next);
    const [, index] = body.p as [unknown, unknown];
    for (const created of ['s4', true, 'd0', 'b4']) {
      const forged = forge({ ...body, p: [created, index] });
      const error = await rejection(
        new ExamplePagination().paginateQueryset(query(), get(`/?cursor=${forged}`)),
      ).catch((e) => e);
      // A bigint compares as a number and is a fine bound; the others do not fit the column.
      if (created === 'b4') continue;
      expect(error).toBeInstanceOf(NotFound);
      expect((error as NotFound).detail).toBe('Invalid cursor');
    }
  });

  it('a custom invalidCursorMessage is used as it is', async () => {
    const p = new ExamplePagination({ invalidCursorMessage: 'Bad cursor.' });
    await expectInvalidCursor(p.paginateQueryset(query(), get('/?cursor=123')), 'Bad cursor.');
  });

  it('a custom invalidCursorMessage answers a forged bound the adapter refuses too', async () => {
    const body = tokenJson(await validNext());
    const [, index] = body.p as [unknown, unknown];
    const forged = forge({ ...body, p: ['s4', index] });
    const p = new ExamplePagination({ invalidCursorMessage: 'Bad cursor.' });
    await expectInvalidCursor(p.paginateQueryset(query(), get(`/?cursor=${forged}`)), 'Bad cursor.');
  });

  it('a valid cursor with junk around it in other parameters still works', async () => {
    const next = await validNext();
    const rows = await new ExamplePagination().paginateQueryset(query(), get(`${next}&x=%FF&cursor2=junk`));
    expect(rows!.map(createdOf)).toEqual(P3);
  });

  it('the last cursor of a repeated parameter is used', async () => {
    const next = await validNext();
    const token = new URL(next).searchParams.get('cursor')!;
    const rows = await new ExamplePagination().paginateQueryset(
      query(),
      get(`/?cursor=junk&cursor=${token}`),
    );
    expect(rows!.map(createdOf)).toEqual(P3);
    await expectInvalidCursor(
      new ExamplePagination().paginateQueryset(query(), get(`/?cursor=${token}&cursor=junk`)),
    );
  });
});

describe('cursorSecret signing', () => {
  const query = () => fromArray(items());
  const signed = (secret: string) => {
    const p = new ExamplePagination({ cursorSecret: secret });
    p.cursorSecret = secret;
    return p;
  };

  it('signed cursors walk the list and are <payload>.<signature>', async () => {
    const p = signed('s3cret');
    const seen: number[] = [];
    let url: string | null = '/';
    while (url !== null) {
      seen.push(...(await p.paginateQueryset(query(), get(url)))!.map(idOf));
      url = p.getNextLink();
      if (url !== null)
        expect(new URL(url).searchParams.get('cursor')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    }
    expect(seen).toEqual(range(0, 30));
  });

  it('every single-character change of a signed cursor is rejected', async () => {
    const p = signed('s3cret');
    await p.paginateQueryset(query(), get('/'));
    const token = new URL(p.getNextLink()!).searchParams.get('cursor')!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < token.length; i += 1) {
      if (token[i] === '.') continue;
      const replacement = alphabet[(alphabet.indexOf(token[i]!) + 17) % alphabet.length]!;
      const tampered = token.slice(0, i) + replacement + token.slice(i + 1);
      await expectInvalidCursor(signed('s3cret').paginateQueryset(query(), get(`/?cursor=${tampered}`)));
    }
  });

  it('a forged payload with the old signature is rejected', async () => {
    const p = signed('s3cret');
    await p.paginateQueryset(query(), get('/'));
    const token = new URL(p.getNextLink()!).searchParams.get('cursor')!;
    const [payload, signature] = token.split('.') as [string, string];
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = `${forge({ ...body, o: 3 })}.${signature}`;
    await expectInvalidCursor(signed('s3cret').paginateQueryset(query(), get(`/?cursor=${forged}`)));
  });

  it('cursors of another secret, unsigned cursors and signed cursors without a secret are rejected', async () => {
    const a = signed('one');
    await a.paginateQueryset(query(), get('/'));
    const fromOne = a.getNextLink()!;
    await expectInvalidCursor(signed('two').paginateQueryset(query(), get(fromOne)));
    await expectInvalidCursor(new ExamplePagination().paginateQueryset(query(), get(fromOne)));
    const plain = new ExamplePagination();
    await plain.paginateQueryset(query(), get('/'));
    await expectInvalidCursor(signed('one').paginateQueryset(query(), get(plain.getNextLink()!)));
    expect((await signed('one').paginateQueryset(query(), get(fromOne)))!.map(createdOf)).toEqual(P2);
  });
});

describe('ordering', () => {
  type Row = { id: number; v: number | null; w: string };
  const rows: Row[] = [
    { id: 0, v: 3, w: 'b' },
    { id: 1, v: null, w: 'a' },
    { id: 2, v: 1, w: 'c' },
    { id: 3, v: null, w: 'b' },
    { id: 4, v: 2, w: 'a' },
    { id: 5, v: 1, w: 'a' },
  ];

  async function walkIds(
    ordering: OrderingInput,
    pageSize = 2,
  ): Promise<{ forward: number[]; backward: number[] }> {
    const p = new CursorPagination({ pageSize, ordering });
    const q = fromArray(rows, { uniqueKey: 'id' });
    const forward: number[] = [];
    let url: string | null = '/';
    let lastUrl = '/';
    while (url !== null) {
      lastUrl = url;
      forward.push(...((await p.paginateQueryset(q, get(url))) as Row[]).map((r) => r.id));
      url = p.getNextLink();
    }
    const backward: number[] = [];
    await p.paginateQueryset(q, get(lastUrl));
    let back: string | null = lastUrl;
    while (back !== null) {
      const page = ((await p.paginateQueryset(q, get(back))) as Row[]).map((r) => r.id);
      backward.unshift(...page);
      back = p.getPreviousLink();
    }
    return { forward, backward };
  }

  it.each<[string, OrderingInput, number[]]>([
    ['string', 'v', [2, 5, 4, 0, 1, 3]],
    ['descending string', '-v', [3, 1, 0, 4, 5, 2]],
    ['list', ['w', '-v'], [1, 4, 5, 3, 0, 2]],
    ['OrderTerm nulls first', [{ field: 'v', direction: 'asc', nulls: 'first' }], [1, 3, 2, 5, 4, 0]],
    ['OrderTerm desc nulls last', [{ field: 'v', direction: 'desc', nulls: 'last' }], [0, 4, 5, 2, 3, 1]],
    ['mixed', ['w', { field: 'v', direction: 'asc', nulls: 'first' }, '-id'], [1, 5, 4, 3, 0, 2]],
  ])('%s ordering walks forward and back exactly once', async (_name, ordering, expected) => {
    for (const pageSize of [1, 2, 4, 6, 7]) {
      const { forward, backward } = await walkIds(ordering, pageSize);
      expect(forward).toEqual(expected);
      expect(backward).toEqual(expected);
    }
  });

  it("rejects double underscore lookups with DRF's message", async () => {
    const message =
      'Cursor pagination does not support double underscore lookups for orderings. Orderings should be an ' +
      'unchanging, unique or nearly-unique field on the model, such as "-created" or "pk".';
    for (const ordering of ['created__date', '-user__name', ['__']] as OrderingInput[]) {
      const error = await rejection(
        new CursorPagination({ pageSize: 5, ordering }).paginateQueryset(fromArray(rows), get('/')),
      );
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toBe(message);
    }
  });

  it('rejects an ordering that is neither a string nor a list', async () => {
    const ordering = 5 as unknown as OrderingInput;
    const error = await rejection(
      new CursorPagination({ pageSize: 5, ordering }).paginateQueryset(fromArray(rows), get('/')),
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/^Invalid ordering\. Expected string or tuple, but got /);
  });
});

describe("getOrdering from the view's filter backends", () => {
  /** A minimal OrderingFilter: `?ordering=a,-b`, terms outside `orderingFields` dropped, else the view's ordering. */
  class OrderingFilter implements OrderingSource {
    getOrdering(
      request: ApiRequest,
      _query: OrderedQuery<unknown>,
      view: PaginationView,
    ): OrderingInput | null {
      const v = view as PaginationView & { orderingFields: string[]; ordering?: string };
      const param = request.queryParams.get('ordering');
      if (param !== null) {
        const terms = param
          .split(',')
          .map((t) => t.trim())
          .filter((t) => v.orderingFields.includes(t.replace(/^-/, '')));
        if (terms.length > 0) return terms;
      }
      return v.ordering ?? null;
    }
  }
  const asc = (field: string): OrderTerm => ({ field, direction: 'asc' });
  const desc = (field: string): OrderTerm => ({ field, direction: 'desc' });
  const p = new ExamplePagination();
  const q = fromArray<unknown>([]);

  it('use with an ordering filter', () => {
    const view = {
      filterBackends: [OrderingFilter],
      orderingFields: ['username', 'created'],
      ordering: 'created',
    };
    expect(p.getOrdering(get('/?ordering=username'), q, view)).toEqual([asc('username')]);
    expect(p.getOrdering(get('/?ordering=-username'), q, view)).toEqual([desc('username')]);
    expect(p.getOrdering(get('/?ordering=invalid'), q, view)).toEqual([asc('created')]);
  });

  it("without a default ordering on the view, the paginator's ordering stays", () => {
    const view = { filterBackends: [new OrderingFilter()], orderingFields: ['username', 'created'] };
    expect(p.getOrdering(get('/'), q, view)).toEqual([asc('created')]);
    expect(p.getOrdering(get('/?ordering=username'), q, view)).toEqual([asc('username')]);
    expect(p.getOrdering(get('/?ordering=invalid'), q, view)).toEqual([asc('created')]);
  });

  it('the first backend with getOrdering wins, even when it answers nothing', () => {
    const first = { getOrdering: () => null };
    const second = { getOrdering: () => '-other' };
    const plainFilter = { filterQueryset: () => [] };
    expect(p.getOrdering(get('/'), q, { filterBackends: [plainFilter, second, first] })).toEqual([
      desc('other'),
    ]);
    expect(p.getOrdering(get('/'), q, { filterBackends: [plainFilter, first, second] })).toEqual([
      asc('created'),
    ]);
    expect(p.getOrdering(get('/'), q, { filterBackends: [{ getOrdering: () => [] }, second] })).toEqual([
      asc('created'),
    ]);
    expect(p.getOrdering(get('/'), q, {})).toEqual([asc('created')]);
    expect(p.getOrdering(get('/'), q)).toEqual([asc('created')]);
  });

  it("paginates in the filter's ordering", async () => {
    const view = { filterBackends: [OrderingFilter], orderingFields: ['created'] };
    const rows = await new ExamplePagination().paginateQueryset(
      fromArray(items()),
      get('/?ordering=-created'),
      view,
    );
    expect(rows!.map(createdOf)).toEqual(P6);
  });
});

describe('responses, html and OpenAPI', () => {
  const query = () => fromArray(items());

  it('response key order is next, previous, results and links go in a Link header', async () => {
    const p = new ExamplePagination();
    await p.paginateQueryset(query(), get('/'));
    await p.paginateQueryset(query(), get(p.getNextLink()!));
    const response = p.getPaginatedResponse([1]);
    expect(Object.keys(response.data as object)).toEqual(['next', 'previous', 'results']);
    const { next, previous } = response.data as { next: string; previous: string };
    expect(response.headers.get('link')).toBe(`<${next}>; rel="next", <${previous}>; rel="prev"`);
    const first = new ExamplePagination();
    await first.paginateQueryset(query(), get('/'));
    expect(first.getPaginatedResponse([]).data).toMatchObject({ previous: null });
    expect(first.getPaginatedResponse([]).headers.get('link')).toBe(`<${first.getNextLink()}>; rel="next"`);
  });

  it('links keep other parameters, sorted', async () => {
    const p = new ExamplePagination();
    await p.paginateQueryset(query(), get('/items/?z=1&a=b%20c'));
    expect(p.getNextLink()).toMatch(/^http:\/\/testserver\/items\/\?a=b\+c&cursor=[A-Za-z0-9_-]+&z=1$/);
  });

  it('html context has previousUrl and nextUrl only; toHtml is the pager', async () => {
    const p = new ExamplePagination();
    await p.paginateQueryset(query(), get('/'));
    await p.paginateQueryset(query(), get(p.getNextLink()!));
    const context = p.getHtmlContext();
    expect(Object.keys(context).sort()).toEqual(['nextUrl', 'previousUrl']);
    expect(context).toEqual({ previousUrl: p.getPreviousLink(), nextUrl: p.getNextLink() });
    const html = p.toHtml();
    expect(html).toContain('<ul class="pager">');
    expect(html).toContain(
      `<li class="previous"><a href="${p.getPreviousLink()}" rel="prev" aria-label="Previous page">`,
    );
    expect(html).toContain(
      `<li class="next"><a href="${p.getNextLink()}" rel="next" aria-label="Next page">`,
    );
    expect(p.displayPageControls).toBe(true);

    const first = new ExamplePagination();
    await first.paginateQueryset(query(), get('/?a=1&b=2'));
    expect(first.toHtml()).toContain(
      '<li class="previous disabled"><a href="#" aria-label="Previous page" aria-disabled="true" tabindex="-1">',
    );
    expect(first.toHtml()).toContain('&amp;b=2');

    const single = new ExamplePagination();
    await single.paginateQueryset(fromArray([{ id: 1, created: 1 }]), get('/'));
    expect(single.displayPageControls).toBe(false);
  });

  it('get_paginated_response_schema has no stray quote (3.0) and 3.1 types', () => {
    const unpaginated = { type: 'object', item: { properties: { 'test-property': { type: 'integer' } } } };
    expect(new ExamplePagination().getPaginatedResponseSchema(unpaginated)).toEqual({
      type: 'object',
      required: ['results'],
      properties: {
        next: {
          type: 'string',
          nullable: true,
          format: 'uri',
          example: 'http://api.example.org/accounts/?cursor=cD00ODY%3D',
        },
        previous: {
          type: 'string',
          nullable: true,
          format: 'uri',
          example: 'http://api.example.org/accounts/?cursor=cj0xJnA9NDg3',
        },
        results: unpaginated,
      },
    });
    const schema31 = new CursorPagination({ cursorQueryParam: 'c' }).getPaginatedResponseSchema(
      {},
      { openapi: '3.1' },
    );
    expect(schema31).toEqual({
      type: 'object',
      required: ['results'],
      properties: {
        next: {
          type: ['string', 'null'],
          format: 'uri',
          example: 'http://api.example.org/accounts/?c=cD00ODY%3D',
        },
        previous: {
          type: ['string', 'null'],
          format: 'uri',
          example: 'http://api.example.org/accounts/?c=cj0xJnA9NDg3',
        },
        results: {},
      },
    });
  });

  it('schema operation parameters', () => {
    const cursor = {
      name: 'cursor',
      required: false,
      in: 'query',
      description: 'The pagination cursor value.',
      schema: { type: 'string' },
    };
    expect(new CursorPagination().getSchemaOperationParameters()).toEqual([cursor]);
    expect(new ExamplePagination().getSchemaOperationParameters()).toEqual([
      cursor,
      {
        name: 'page_size',
        required: false,
        in: 'query',
        description: 'Number of results to return per page.',
        schema: { type: 'integer' },
      },
    ]);
  });
});

describe('state and configuration', () => {
  const query = () => fromArray(items());

  it('no sticky page size: a second request on one instance uses the default again', async () => {
    const p = new ExamplePagination();
    expect(await p.paginateQueryset(query(), get('/?page_size=2'))).toHaveLength(2);
    expect(await p.paginateQueryset(query(), get('/'))).toHaveLength(5);
    expect(p.pageSize).toBe(5);
  });

  it('without a page size the request is not paginated; a page_size parameter turns it on', async () => {
    const p = new CursorPagination({ ordering: 'created', pageSizeQueryParam: 'page_size' });
    expect(await p.paginateQueryset(query(), get('/'))).toBeNull();
    expect(await p.paginateQueryset(query(), get('/?page_size=3'))).toHaveLength(3);
  });

  it('cursorQueryParam renames the parameter', async () => {
    const p = new ExamplePagination({ cursorQueryParam: 'after' });
    await p.paginateQueryset(query(), get('/'));
    const next = p.getNextLink()!;
    expect(next).toMatch(/\?after=/);
    expect((await p.paginateQueryset(query(), get(next)))!.map(createdOf)).toEqual(P2);
  });

  it('an empty list is one empty page with no links', async () => {
    const p = new ExamplePagination();
    expect(await p.paginateQueryset(fromArray([]), get('/'))).toEqual([]);
    expect(p.getPaginatedResponse([]).data).toEqual({ next: null, previous: null, results: [] });
  });

  it('cursors carry typed values that round-trip: dates, bigints, strings', async () => {
    const t = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, n));
    const rows = [
      { id: 1n, at: t(3), name: 'é' },
      { id: 2n, at: t(1), name: 'a b' },
      { id: 3n, at: t(1), name: '😀' },
      { id: 4n, at: t(2), name: '"' },
      { id: 5n, at: t(3), name: 'z' },
    ];
    const p = new CursorPagination({ pageSize: 2, ordering: ['-at', 'name'] });
    const q = fromArray(rows, { uniqueKey: 'id' });
    const seen: bigint[] = [];
    let url: string | null = '/';
    while (url !== null) {
      seen.push(...((await p.paginateQueryset(q, get(url))) as typeof rows).map((r) => r.id));
      url = p.getNextLink();
    }
    expect(seen).toEqual([5n, 1n, 4n, 2n, 3n]);
    const order = p.page!.order;
    const cursor = { offset: 0, reverse: true, position: [t(1), 'a b', 2n] };
    expect(decodeCursor(encodeCursor(cursor, { order }), { order })).toEqual(cursor);
  });

  it('property: forward walks visit each row once, backward walks mirror them, previous of next is the page', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }), { maxLength: 25 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom<OrderingInput>(
          'v',
          '-v',
          [{ field: 'v', direction: 'asc', nulls: 'first' }],
          ['-v', 'id'],
        ),
        async (values, pageSize, ordering) => {
          const q = fromArray(values.map((v, id) => ({ id, v })));
          const p = new CursorPagination({ pageSize, ordering });
          const pages: number[][] = [];
          let url: string | null = '/';
          while (url !== null) {
            const page = ((await p.paginateQueryset(q, get(url))) as Array<{ id: number }>).map((r) => r.id);
            pages.push(page);
            const nextUrl = p.getNextLink();
            if (nextUrl !== null) {
              await p.paginateQueryset(q, get(nextUrl));
              const back = (await p.paginateQueryset(q, get(p.getPreviousLink()!))) as Array<{ id: number }>;
              expect(back.map((r) => r.id)).toEqual(page);
            }
            url = nextUrl;
          }
          const flat = pages.flat();
          expect([...flat].sort((a, b) => a - b)).toEqual(range(0, values.length));
          expect(pages.slice(0, -1).every((page) => page.length === pageSize)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});
