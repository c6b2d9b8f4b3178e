import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  type ApiResponse,
  type BasePagination,
  ConfigurationError,
  CursorPagination,
  type CursorPaginationOptions,
  encodeCursor,
  type KeyTerm,
  LimitOffsetPagination,
  NotFound,
  type OrderedQuery,
  type OrderingInput,
  PageNumberPagination,
  type PositionValue,
  parseOrdering,
  settleNulls,
  UnorderedObjectListWarning,
} from '@pagewise/rest';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { TestDatabase } from '../support/databases.js';
import { DRF_VALUES, drfDataset, itemsDataset, smallDataset } from '../support/datasets.js';
import { createTable, type Dataset, dropTable, normalizeRow } from '../support/tables.js';
import { cursorFunctionCases } from './cursor-function-cases.js';

/**
 * Long string positions (issue 10): ASCII from 735 bytes, CJK from 250 characters, JSON-escaped
 * quotes and backslashes. Each made cursors over the old 1 KiB limit that the server then refused.
 */
function longStringsDataset(): Dataset {
  const names = [
    ...[735, 800, 1000, 1500, 2000].map((n, i) => `${'a'.repeat(n)}${i}`),
    ...[250, 300, 500, 700].map((n, i) => `${'漢字'.repeat(n / 2)}${i}`),
    '"\\'.repeat(300),
    'short',
    '',
  ];
  return { columns: { name: { type: 'longtext' } }, rows: names.map((name, i) => ({ id: i + 1, name })) };
}

type Row = Record<string, unknown>;

/** Adapter options every backend takes as its factory does (`fromKysely`, `fromDrizzle`, `fromArray`). */
export interface BackendOptions {
  readonly deferredJoin?: boolean;
}

/** What a conformance run needs from one adapter + database. */
export interface ConformanceBackend {
  readonly name: string;
  /** A query over `dataset` (loaded as `key`), with no ordering of its own; `options` go to the adapter. */
  query(key: string, dataset: Dataset, options?: BackendOptions): Promise<OrderedQuery<Row>>;
  /** A query whose own ordering is `id` ascending, set the backend's native way. */
  orderedById(key: string, dataset: Dataset): Promise<OrderedQuery<Row>>;
  /**
   * The rows ordered by `id`, then sliced the backend's native way (Django's
   * `qs.order_by('id')[offset:offset + limit]`; Kysely: the builder's own `.limit()`/`.offset()`).
   */
  sliced(
    key: string,
    dataset: Dataset,
    slice: { limit: number; offset?: number },
  ): Promise<OrderedQuery<Row>>;
  /**
   * A query over `dataset` keyed by `uniqueKey` (a composite key), selecting only `select` (all
   * columns without it). Without `uniqueKey`, the adapter's default where it reads the schema
   * (Drizzle: its `primaryKey({ columns })`), else `dataset.primaryKey`, as a user would pass it.
   */
  keyed(key: string, dataset: Dataset, options: KeyedOptions): Promise<OrderedQuery<Row>>;
  /** Whether a query without ORDER BY is unordered (arrays never are). */
  readonly canBeUnordered: boolean;
  close(): Promise<void>;
}

/** How `ConformanceBackend.keyed` keys and selects its query. */
export interface KeyedOptions {
  readonly uniqueKey?: readonly string[];
  readonly select?: readonly string[];
  readonly deferredJoin?: boolean;
}

/** The reference: the memory adapter, keyed by `id` like the tables. */
export function memoryBackend(): ConformanceBackend {
  return {
    name: 'memory',
    canBeUnordered: false,
    query: async (_key, dataset, options) => fromArray(dataset.rows, { uniqueKey: 'id', ...options }),
    orderedById: async (_key, dataset) => fromArray(dataset.rows, { uniqueKey: 'id', ordering: 'id' }),
    sliced: async (_key, dataset, { limit, offset = 0 }) =>
      fromArray([...dataset.rows].sort((a, b) => Number(a.id) - Number(b.id)).slice(offset, offset + limit), {
        uniqueKey: 'id',
      }),
    keyed: async (_key, dataset, { uniqueKey }) =>
      fromArray(dataset.rows, { uniqueKey: uniqueKey ?? dataset.primaryKey ?? 'id' }),
    close: async () => {},
  };
}

/** A database behind the Kysely adapter; tables are named `<prefix>_<key>` so files can share a server. */
export function sqlBackend(database: TestDatabase, prefix: string): ConformanceBackend {
  const loaded = new Map<string, Promise<void>>();
  const load = (key: string, dataset: Dataset): Promise<string> => {
    const table = `${prefix}_${key}`;
    if (!loaded.has(table)) loaded.set(table, createTable(database, table, dataset));
    return loaded.get(table)!.then(() => table);
  };
  return {
    name: database.name,
    canBeUnordered: true,
    query: async (key, dataset, options) =>
      fromKysely(database.db.selectFrom(await load(key, dataset)).selectAll(), {
        db: database.db,
        ...options,
      }),
    orderedById: async (key, dataset) =>
      fromKysely(
        database.db
          .selectFrom(await load(key, dataset))
          .selectAll()
          .orderBy('id'),
        { db: database.db },
      ),
    sliced: async (key, dataset, { limit, offset }) => {
      const builder = database.db
        .selectFrom(await load(key, dataset))
        .selectAll()
        .orderBy('id')
        .limit(limit);
      return fromKysely(offset === undefined ? builder : builder.offset(offset), { db: database.db });
    },
    keyed: async (key, dataset, { uniqueKey, select, deferredJoin }) => {
      const from = database.db.selectFrom(await load(key, dataset));
      return fromKysely(select === undefined ? from.selectAll() : from.select(select as never), {
        db: database.db,
        uniqueKey: uniqueKey ?? dataset.primaryKey ?? 'id',
        deferredJoin,
      });
    },
    close: async () => {
      for (const table of loaded.keys()) await dropTable(database, table);
      await database.close();
    },
  };
}

interface PageRecord {
  readonly url: string;
  readonly count?: unknown;
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: Row[];
}

const ORIGIN = 'http://testserver/';

async function cursorPage(
  query: OrderedQuery<Row>,
  dataset: Dataset,
  options: CursorPaginationOptions,
  url: string,
): Promise<PageRecord> {
  const pagination = new CursorPagination(options);
  const rows = await pagination.paginateQueryset(query, new ApiRequest({ url }));
  const data = pagination.getPaginatedResponse(rows ?? []).data as {
    next: string | null;
    previous: string | null;
  };
  return {
    url,
    next: data.next,
    previous: data.previous,
    results: (rows ?? []).map((r) => normalizeRow(dataset, r)),
  };
}

/** Follows `next` from the first page, then `previous` from the last page back to the first. */
async function cursorWalk(query: OrderedQuery<Row>, dataset: Dataset, options: CursorPaginationOptions) {
  const forward: PageRecord[] = [];
  let url: string | null = ORIGIN;
  while (url !== null && forward.length < 100) {
    const page: PageRecord = await cursorPage(query, dataset, options, url);
    forward.push(page);
    url = page.next;
  }
  const backward: PageRecord[] = [];
  url = forward.at(-1)!.previous;
  while (url !== null && backward.length < 100) {
    const page: PageRecord = await cursorPage(query, dataset, options, url);
    backward.push(page);
    url = page.previous;
  }
  return { forward, backward };
}

async function pageNumberWalk(query: OrderedQuery<Row>, dataset: Dataset, pageSize: number) {
  const pages: PageRecord[] = [];
  let url: string | null = ORIGIN;
  while (url !== null && pages.length < 100) {
    const pagination = new PageNumberPagination({ pageSize });
    const rows = await pagination.paginateQueryset(query, new ApiRequest({ url }));
    const data = pagination.getPaginatedResponse(rows ?? []).data as PageRecord;
    pages.push({ ...data, url, results: (rows ?? []).map((r) => normalizeRow(dataset, r)) });
    url = data.next;
  }
  return pages;
}

async function limitOffsetPage(query: OrderedQuery<Row>, dataset: Dataset, url: string): Promise<PageRecord> {
  const pagination = new LimitOffsetPagination({ defaultLimit: 4 });
  const rows = await pagination.paginateQueryset(query, new ApiRequest({ url }));
  const data = pagination.getPaginatedResponse(rows ?? []).data as PageRecord;
  return { ...data, url, results: (rows ?? []).map((r) => normalizeRow(dataset, r)) };
}

/** One answer as a client sees it: the body (rows normalized) and the `Link` header. */
interface Answer {
  readonly body: { readonly results: Row[]; readonly [key: string]: unknown };
  readonly link: string | null;
}

/** What DRF's way answers: a fresh paginator for the one request, through the two-step API. */
async function freshAnswer(
  pagination: BasePagination,
  query: OrderedQuery<Row>,
  dataset: Dataset,
  url: string,
): Promise<Answer> {
  const rows = await pagination.paginateQueryset(query, new ApiRequest({ url }));
  const response = pagination.getPaginatedResponse((rows ?? []).map((r) => normalizeRow(dataset, r)));
  return { body: response.data as Answer['body'], link: response.headers.get('link') };
}

/** The stateless path on a paginator that may be serving other requests at the same time. */
interface SharedStyle {
  paginate(
    query: OrderedQuery<Row>,
    request: ApiRequest,
  ): Promise<{ readonly rows: readonly Row[]; response(data: Row[]): ApiResponse } | null>;
}

async function sharedAnswer(
  pagination: SharedStyle,
  query: OrderedQuery<Row>,
  dataset: Dataset,
  url: string,
): Promise<Answer> {
  const page = await pagination.paginate(query, new ApiRequest({ url }));
  const response = page!.response(page!.rows.map((r) => normalizeRow(dataset, r)));
  return { body: response.data as Answer['body'], link: response.headers.get('link') };
}

/** The ids `?page=`/`?size=` or `?limit=`/`?offset=` select from ids 1..total in id order. */
function expectedIds(url: string, total: number, style: 'page number' | 'limit/offset'): number[] {
  const params = new URL(url).searchParams;
  let from: number;
  let size: number;
  if (style === 'page number') {
    size = Math.min(Number(params.get('size') ?? 4), 10);
    const last = Math.ceil(total / size);
    const page = params.get('page') === 'last' ? last : Number(params.get('page') ?? 1);
    from = (page - 1) * size;
  } else {
    size = Math.min(Number(params.get('limit') ?? 4), 10);
    from = Number(params.get('offset') ?? 0);
  }
  return Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => from + i + 1);
}

/** The key order cursor pagination builds for `ordering` with `id` as the unique key. */
function keyOrder(ordering: OrderingInput): KeyTerm[] {
  const order = parseOrdering(ordering).map(settleNulls);
  if (!order.some((t) => t.field === 'id')) {
    order.push({ field: 'id', direction: order.at(-1)!.direction, nulls: 'last', unique: true });
  }
  return order;
}

function forgedUrl(ordering: OrderingInput, position: PositionValue[]): string {
  const token = encodeCursor({ offset: 0, reverse: false, position }, { order: keyOrder(ordering) });
  return `${ORIGIN}?cursor=${token}`;
}

const CURSOR_ORDERINGS: Array<[string, OrderingInput, number]> = [
  ['date descending (DRF default)', '-created', 5],
  ['date ascending', 'created', 4],
  ['nullable int, NULLs last (default asc)', 'score', 5],
  ['nullable int, NULLs first (default desc)', '-score', 4],
  ['nullable int asc, NULLs first', [{ field: 'score', direction: 'asc', nulls: 'first' }], 5],
  ['nullable int desc, NULLs last', [{ field: 'score', direction: 'desc', nulls: 'last' }], 3],
  ['mixed directions: -score, name', ['-score', 'name'], 4],
  ['mixed directions: big, -created', ['big', '-created'], 5],
  ['string key (code-point order)', 'name', 4],
  ['bigint key descending', '-big', 6],
  ['unique key itself', '-id', 7],
];

/**
 * Every pagination case, written once. Each runs on `backend` and on the memory adapter and
 * demands identical pages and links, plus exact values where DRF's spec gives them.
 */
export function conformanceCases(name: string, open: () => Promise<ConformanceBackend>): void {
  let backend: ConformanceBackend;
  const reference = memoryBackend();
  const items = itemsDataset();
  const drf = drfDataset();

  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
  });

  for (const [title, ordering, pageSize] of CURSOR_ORDERINGS) {
    it(`[${name}] cursor walk, ${title}: same pages and links as memory, every row once`, async () => {
      const options = { pageSize, ordering };
      const actual = await cursorWalk(await backend.query('items', items), items, options);
      const expected = await cursorWalk(await reference.query('items', items), items, options);
      expect(actual).toEqual(expected);
      const visited = actual.forward.flatMap((p) => p.results.map((r) => r.id));
      expect([...visited].sort((a, b) => Number(a) - Number(b))).toEqual(
        items.rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b)),
      );
      expect(actual.backward.map((p) => p.results)).toEqual(
        actual.forward
          .slice(0, -1)
          .reverse()
          .map((p) => p.results),
      );
    });
  }

  it(`[${name}] cursor: previous of next is the same page`, async () => {
    const query = await backend.query('items', items);
    const options = { pageSize: 4, ordering: ['-score', 'name'] };
    let page = await cursorPage(query, items, options, ORIGIN);
    let checked = 0;
    while (page.next !== null) {
      const next = await cursorPage(query, items, options, page.next);
      const back = await cursorPage(query, items, options, next.previous!);
      expect(back.results).toEqual(page.results);
      page = next;
      checked += 1;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it(`[${name}] cursor over DRF's duplicate-heavy list: exact pages both ways`, async () => {
    const { forward, backward } = await cursorWalk(await backend.query('drf', drf), drf, {
      pageSize: 5,
      ordering: 'created',
    });
    const pages = forward.map((p) => p.results.map((r) => r.created));
    expect(pages).toEqual([
      [1, 1, 1, 1, 1],
      [1, 2, 3, 4, 4],
      [4, 4, 5, 6, 7],
      [7, 7, 7, 7, 7],
      [7, 7, 7, 8, 9],
      [9, 9, 9, 9, 9],
    ]);
    expect(backward.map((p) => p.results.map((r) => r.created))).toEqual(pages.slice(0, -1).reverse());
    expect(forward[0]!.previous).toBeNull();
    expect(forward.at(-1)!.next).toBeNull();
    const reference_ = await cursorWalk(await reference.query('drf', drf), drf, {
      pageSize: 5,
      ordering: 'created',
    });
    expect({ forward, backward }).toEqual(reference_);
  });

  it(`[${name}] cursor over DRF's list descending, page size 3`, async () => {
    const options = { pageSize: 3, ordering: '-created' };
    const actual = await cursorWalk(await backend.query('drf', drf), drf, options);
    expect(actual.forward.flatMap((p) => p.results.map((r) => r.created))).toEqual([...DRF_VALUES].reverse());
    expect(actual).toEqual(await cursorWalk(await reference.query('drf', drf), drf, options));
  });

  it(`[${name}] cursor on an empty set: one empty page, no links`, async () => {
    const empty = smallDataset(0);
    const page = await cursorPage(await backend.query('empty', empty), empty, { pageSize: 5 }, ORIGIN);
    expect(page).toEqual({ url: ORIGIN, next: null, previous: null, results: [] });
  });

  it(`[${name}] cursor on a one-row set`, async () => {
    const one = smallDataset(1);
    const page = await cursorPage(await backend.query('one', one), one, { pageSize: 5 }, ORIGIN);
    expect(page.results).toEqual(one.rows);
    expect([page.next, page.previous]).toEqual([null, null]);
  });

  it(`[${name}] page numbers: same pages, counts and links as memory`, async () => {
    const ordering = parseOrdering(['-created', 'id']);
    const actual = await pageNumberWalk((await backend.query('items', items)).orderBy(ordering), items, 5);
    const expected = await pageNumberWalk(
      (await reference.query('items', items)).orderBy(ordering),
      items,
      5,
    );
    expect(actual).toEqual(expected);
    expect(actual.map((p) => p.count)).toEqual([23, 23, 23, 23, 23]);
    expect(actual[1]!.previous).toBe('http://testserver/');
    expect(actual[1]!.next).toBe('http://testserver/?page=3');
  });

  it(`[${name}] page numbers over a nullable column keep NULLs where core puts them`, async () => {
    for (const ordering of [
      ['score', 'id'],
      ['-score', '-id'],
      [{ field: 'score', direction: 'asc' as const, nulls: 'first' as const }, 'id'],
    ]) {
      const terms = parseOrdering(ordering);
      const actual = await pageNumberWalk((await backend.query('items', items)).orderBy(terms), items, 6);
      expect(actual).toEqual(
        await pageNumberWalk((await reference.query('items', items)).orderBy(terms), items, 6),
      );
    }
  });

  it(`[${name}] page numbers: last page, invalid page, empty and one-row sets`, async () => {
    const query = (await backend.query('items', items)).orderBy(parseOrdering(['name', 'id']));
    const pagination = new PageNumberPagination({ pageSize: 5 });
    const last = await pagination.paginateQueryset(query, new ApiRequest({ url: `${ORIGIN}?page=last` }));
    const memoryLast = await new PageNumberPagination({ pageSize: 5 }).paginateQueryset(
      (await reference.query('items', items)).orderBy(parseOrdering(['name', 'id'])),
      new ApiRequest({ url: `${ORIGIN}?page=last` }),
    );
    expect(last!.map((r) => normalizeRow(items, r))).toEqual(memoryLast);
    await expect(
      pagination.paginateQueryset(query, new ApiRequest({ url: `${ORIGIN}?page=6` })),
    ).rejects.toThrow(new NotFound('Invalid page.'));
    const empty = smallDataset(0);
    expect(
      await pageNumberWalk((await backend.query('empty', empty)).orderBy(parseOrdering('id')), empty, 5),
    ).toEqual([{ url: ORIGIN, count: 0, next: null, previous: null, results: [] }]);
    const one = smallDataset(1);
    expect(
      await pageNumberWalk((await backend.query('one', one)).orderBy(parseOrdering('id')), one, 5),
    ).toEqual([{ url: ORIGIN, count: 1, next: null, previous: null, results: one.rows }]);
  });

  it(`[${name}] limit/offset: same windows and links as memory, past the end included`, async () => {
    const ordering = parseOrdering(['big', '-id']);
    const query = (await backend.query('items', items)).orderBy(ordering);
    const memory = (await reference.query('items', items)).orderBy(ordering);
    for (const search of [
      '',
      '?offset=3',
      '?limit=5&offset=20',
      '?limit=7&offset=22',
      '?limit=5&offset=1000',
      '?limit=0&offset=-1',
    ]) {
      const url = `${ORIGIN}${search}`;
      expect(await limitOffsetPage(query, items, url)).toEqual(await limitOffsetPage(memory, items, url));
    }
    const past = await limitOffsetPage(query, items, `${ORIGIN}?limit=5&offset=1000`);
    expect(past).toMatchObject({
      count: 23,
      next: null,
      previous: 'http://testserver/?limit=5&offset=995',
      results: [],
    });
  });

  it(`[${name}] deferredJoin: page numbers and limit/offset exactly as plain OFFSET and memory`, async () => {
    for (const ordering of [
      ['-created', 'id'],
      ['score', '-id'],
      [{ field: 'score', direction: 'desc' as const, nulls: 'last' as const }, 'name', 'id'],
      ['big', '-id'],
    ]) {
      const terms = parseOrdering(ordering);
      const deferred = (await backend.query('items', items, { deferredJoin: true })).orderBy(terms);
      const plain = (await backend.query('items', items)).orderBy(terms);
      const memory = (await reference.query('items', items)).orderBy(terms);
      const walk = await pageNumberWalk(deferred, items, 4);
      expect(walk).toEqual(await pageNumberWalk(plain, items, 4));
      expect(walk).toEqual(await pageNumberWalk(memory, items, 4));
      for (const search of ['?limit=5&offset=20', '?limit=7&offset=9', '?limit=5&offset=1000']) {
        const url = `${ORIGIN}${search}`;
        const page = await limitOffsetPage(deferred, items, url);
        expect(page).toEqual(await limitOffsetPage(plain, items, url));
        expect(page).toEqual(await limitOffsetPage(memory, items, url));
      }
    }
  });

  it(`[${name}] encrypted cursors (cursorEncryptionKey, cursorTtl): the same rows as memory both ways, tokens unreadable, plain and signed ones refused`, async () => {
    const key = 'conformance encryption key, 32 characters or more';
    const encrypted = {
      pageSize: 7,
      ordering: ['-created', 'id'],
      cursorEncryptionKey: key,
      cursorTtl: 60_000,
    };
    const rowsOf = (walk: Awaited<ReturnType<typeof cursorWalk>>) =>
      [...walk.forward, ...walk.backward].map((page) => page.results);
    const actual = await cursorWalk(await backend.query('items', items), items, encrypted);
    const expected = await cursorWalk(await reference.query('items', items), items, encrypted);
    expect(rowsOf(actual)).toEqual(rowsOf(expected));
    expect(actual.forward.flatMap((page) => page.results)).toHaveLength(items.rows.length);
    const token = new URL(actual.forward[0]!.next!).searchParams.get('cursor')!;
    // A plain or signed token is base64 of JSON holding the position; an encrypted one is not.
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toMatch(/"p":/);
    const query = await backend.query('items', items);
    const plain = await cursorPage(query, items, { pageSize: 7, ordering: ['-created', 'id'] }, ORIGIN);
    const signed = await cursorPage(
      query,
      items,
      { pageSize: 7, ordering: ['-created', 'id'], cursorSecret: key },
      ORIGIN,
    );
    for (const url of [plain.next!, signed.next!]) {
      await expect(
        new CursorPagination(encrypted).paginateQueryset(query, new ApiRequest({ url })),
      ).rejects.toThrow(new NotFound('Invalid cursor'));
    }
  });

  it(`[${name}] invalid and forged cursors answer 404 Invalid cursor, never a database error`, async () => {
    const query = await backend.query('items', items);
    const forged: Array<[OrderingInput, PositionValue[]]> = [
      ['-created', ['not a date', 5]],
      ['-created', [5, 5]],
      ['-created', [new Date(0), 'x']],
      ['big', ['x', 1]],
      ['big', [new Date(0), 1]],
      ['name', [5, 1]],
      ['score', [true, 1]],
    ];
    for (const [ordering, position] of forged) {
      const pagination = new CursorPagination({ pageSize: 5, ordering });
      await expect(
        pagination.paginateQueryset(query, new ApiRequest({ url: forgedUrl(ordering, position) })),
        `${JSON.stringify(ordering)} ${String(position)}`,
      ).rejects.toThrow(new NotFound('Invalid cursor'));
    }
    for (const token of ['%%%', 'eyJrIjoiMSJ9', 'bz01', 'a.b.c']) {
      const pagination = new CursorPagination({ pageSize: 5 });
      await expect(
        pagination.paginateQueryset(query, new ApiRequest({ url: `${ORIGIN}?cursor=${token}` })),
      ).rejects.toThrow(new NotFound('Invalid cursor'));
    }
    const valid = await cursorPage(
      query,
      items,
      { pageSize: 5, ordering: '-created' },
      forgedUrl('-created', [new Date(BASE_PLUS_4H), 100]),
    );
    const memoryValid = await cursorPage(
      await reference.query('items', items),
      items,
      { pageSize: 5, ordering: '-created' },
      forgedUrl('-created', [new Date(BASE_PLUS_4H), 100]),
    );
    expect(valid).toEqual(memoryValid);
    expect(valid.results.length).toBe(5);
  });

  it(`[${name}] cursor walk over long ASCII and CJK positions: every row both ways, every cursor accepted`, async () => {
    const long = longStringsDataset();
    for (const ordering of ['name', '-name']) {
      const options = { pageSize: 2, ordering };
      const actual = await cursorWalk(await backend.query('long', long), long, options);
      expect(actual).toEqual(await cursorWalk(await reference.query('long', long), long, options));
      expect(
        actual.forward.flatMap((p) => p.results.map((r) => r.id)).sort((a, b) => Number(a) - Number(b)),
      ).toEqual(long.rows.map((r) => r.id));
      expect(actual.backward.map((p) => p.results)).toEqual(
        actual.forward
          .slice(0, -1)
          .reverse()
          .map((p) => p.results),
      );
      const tokens = [...actual.forward, ...actual.backward]
        .flatMap((p) => [p.next, p.previous])
        .filter((url) => url !== null)
        .map((url) => new URL(url).searchParams.get('cursor')!);
      expect(Math.max(...tokens.map((t) => t.length))).toBeGreaterThan(1024);
      expect(Math.max(...tokens.map((t) => t.length))).toBeLessThanOrEqual(
        new CursorPagination().maxCursorLength,
      );
    }
  });

  it(`[${name}] a position longer than maxCursorLength is refused when minting, naming the field`, async () => {
    const long = longStringsDataset();
    const query = await backend.query('long', long);
    const pagination = new CursorPagination({ pageSize: 2, ordering: 'name', maxCursorLength: 1024 });
    // The page's second row: 600 characters, 1,200 once JSON-escaped, a cursor of about 1,650.
    // Pages are values whose links are made with them, so the page itself is refused.
    const request = new ApiRequest({ url: ORIGIN });
    await expect(pagination.paginate(query, request)).rejects.toThrow(ConfigurationError);
    await expect(pagination.paginateQueryset(query, request)).rejects.toThrow(
      /longer than maxCursorLength \(1024\).*"name"/,
    );
  });

  it(`[${name}] offset styles warn on a query without ORDER BY, and only then`, async () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      const warnings = () => spy.mock.calls.filter(([w]) => w instanceof UnorderedObjectListWarning).length;
      const unordered = await backend.query('items', items);
      await new PageNumberPagination({ pageSize: 5 }).paginateQueryset(
        unordered,
        new ApiRequest({ url: ORIGIN }),
      );
      await new LimitOffsetPagination({ defaultLimit: 5 }).paginateQueryset(
        unordered,
        new ApiRequest({ url: ORIGIN }),
      );
      expect(warnings()).toBe(backend.canBeUnordered ? 2 : 0);
      if (backend.canBeUnordered) {
        const [warning] = spy.mock.calls.find(([w]) => w instanceof UnorderedObjectListWarning)!;
        expect((warning as Error).message).toMatch(
          /^Pagination may yield inconsistent results with an unordered object_list: (kysely|drizzle) query on "/,
        );
      }
      spy.mockClear();
      const ordered = await backend.orderedById('items', items);
      expect(ordered.ordered).toBe(true);
      expect(ordered.ordering).toEqual([{ field: 'id', direction: 'asc' }]);
      const rows = await new PageNumberPagination({ pageSize: 5 }).paginateQueryset(
        ordered,
        new ApiRequest({ url: ORIGIN }),
      );
      await new LimitOffsetPagination({ defaultLimit: 5 }).paginateQueryset(
        ordered,
        new ApiRequest({ url: ORIGIN }),
      );
      expect(warnings()).toBe(0);
      expect(rows!.map((r) => Number(r.id))).toEqual([1, 2, 3, 4, 5]);
      expect(unordered.ordered).toBe(!backend.canBeUnordered);
    } finally {
      spy.mockRestore();
    }
  });

  it(`[${name}] one shared instance of each style answers 200 concurrent requests of mixed pages`, async () => {
    const byId = await backend.orderedById('items', items);
    const unorderedQuery = await backend.query('items', items);
    const memory = await reference.query('items', items);
    const total = items.rows.length;
    const cursorOptions = { pageSize: 4, ordering: '-created', pageSizeQueryParam: 'size', maxPageSize: 10 };
    // Every URL a client may hold: numbered pages at two sizes, offsets past the end, and each
    // cursor a walk forward and back hands out at two sizes.
    const pageUrls = [
      ...[1, 2, 3, 4, 5, 6].map((n) => `${ORIGIN}?page=${n}`),
      `${ORIGIN}?page=last`,
      ...[1, 2, 3, 4].map((n) => `${ORIGIN}?size=7&page=${n}`),
    ];
    const offsetUrls = [0, 3, 4, 9, 20, 22, 23, 40].flatMap((offset) => [
      `${ORIGIN}?offset=${offset}`,
      `${ORIGIN}?limit=6&offset=${offset}`,
    ]);
    const cursorUrls: string[] = [];
    for (const start of [ORIGIN, `${ORIGIN}?size=6`]) {
      let url: string | null = start;
      let last = start;
      while (url !== null) {
        cursorUrls.push(url);
        last = url;
        url = (await freshAnswer(new CursorPagination(cursorOptions), memory, items, url)).body.next as
          | string
          | null;
      }
      url = (await freshAnswer(new CursorPagination(cursorOptions), memory, items, last)).body.previous as
        | string
        | null;
      while (url !== null) {
        cursorUrls.push(url);
        url = (await freshAnswer(new CursorPagination(cursorOptions), memory, items, url)).body.previous as
          | string
          | null;
      }
    }
    expect(cursorUrls.length).toBeGreaterThan(15);

    const styles = [
      {
        style: 'page number' as const,
        shared: new PageNumberPagination({ pageSize: 4, pageSizeQueryParam: 'size', maxPageSize: 10 }),
        fresh: () => new PageNumberPagination({ pageSize: 4, pageSizeQueryParam: 'size', maxPageSize: 10 }),
        query: byId,
        expectedQuery: byId,
        urls: pageUrls,
      },
      {
        style: 'limit/offset' as const,
        shared: new LimitOffsetPagination({ defaultLimit: 4, maxLimit: 10 }),
        fresh: () => new LimitOffsetPagination({ defaultLimit: 4, maxLimit: 10 }),
        query: byId,
        expectedQuery: byId,
        urls: offsetUrls,
      },
      {
        style: 'cursor' as const,
        shared: new CursorPagination(cursorOptions),
        fresh: () => new CursorPagination(cursorOptions),
        query: unorderedQuery,
        // Cursor pages are checked against the reference model, links included.
        expectedQuery: memory,
        urls: cursorUrls,
      },
    ];
    for (const { style, shared } of styles) {
      expect(Object.isFrozen(shared), `${style}: options frozen at construction`).toBe(true);
    }

    let checked = 0;
    await Promise.all(
      styles.map(async ({ style, shared, fresh, query, expectedQuery, urls }) => {
        const expected = new Map<string, Answer>();
        for (const url of urls) expected.set(url, await freshAnswer(fresh(), expectedQuery, items, url));
        // 200 requests, every URL several times, in an order that mixes neighbours and repeats.
        const requests = Array.from(
          { length: 200 },
          (_, i) => urls[(i * 7 + Math.floor(i / 3)) % urls.length]!,
        );
        const answers = await Promise.all(
          requests.map((url) => sharedAnswer(shared as SharedStyle, query, items, url)),
        );
        answers.forEach((answer, i) => {
          const url = requests[i]!;
          expect(answer, `${style} ${url}`).toEqual(expected.get(url));
          if (style !== 'cursor') {
            expect(
              answer.body.results.map((r) => r.id),
              `${style} ${url}`,
            ).toEqual(expectedIds(url, total, style));
          }
          checked += 1;
        });
      }),
    );
    expect(checked).toBe(600);
  });

  cursorFunctionCases(name, () => backend, reference);
  compositeKeyCases(name, () => backend, reference);
}

const TENANT_NAMES = ['ant', 'bee', 'cat'];

/**
 * A multi-tenant table: PRIMARY KEY (tenant_id, id) and no column unique alone (every id is in
 * each tenant), duplicates in `name` and `score`, NULL scores; rows stored out of key order.
 * Within a tenant, ids 3 apart share name and score (`(tenant_id, name, score)` repeats).
 */
export function tenantsDataset(): Dataset {
  const rows = Array.from({ length: 27 }, (_, k) => {
    const at = (k * 11) % 27;
    const tenant = (at % 3) + 1;
    const id = Math.floor(at / 3) + 1;
    return {
      tenant_id: tenant,
      id,
      name: TENANT_NAMES[(id + tenant) % 3]!,
      score: (id * tenant) % 4 === 0 ? null : (id + tenant) % 3,
    };
  });
  return {
    columns: { tenant_id: { type: 'int' }, name: { type: 'text' }, score: { type: 'int', nullable: true } },
    rows,
    primaryKey: ['tenant_id', 'id'],
  };
}

/** A table keyed by `id`, with a composite UNIQUE (tenant_id, code) and duplicate names. */
function tenantCodesDataset(): Dataset {
  const rows = Array.from({ length: 12 }, (_, k) => {
    const id = ((k * 5) % 12) + 1;
    return {
      id,
      tenant_id: ((id - 1) % 3) + 1,
      code: `c${Math.floor((id - 1) / 3)}`,
      name: TENANT_NAMES[id % 2]!,
    };
  });
  return {
    columns: { tenant_id: { type: 'int' }, code: { type: 'text' }, name: { type: 'text' } },
    rows,
    uniques: [['tenant_id', 'code']],
  };
}

const COMPOSITE_ORDERINGS: ReadonlyArray<readonly [string, OrderingInput, number]> = [
  ['name (duplicates)', 'name', 4],
  ['-score (NULLs first descending)', '-score', 3],
  ['score NULLs last', [{ field: 'score', direction: 'asc', nulls: 'last' }], 5],
  ['mixed directions: -name, score', ['-name', 'score'], 4],
  ['id, a key column (tenant_id appended)', 'id', 4],
  ['-tenant_id, a key column (id appended)', '-tenant_id', 6],
];

const pairOf = (row: Row) => `${row.tenant_id}/${row.id}`;

/**
 * Composite unique keys (issue 38 §3), walked on `backend` against the memory reference: the same
 * pages and the same links, so the same tokens on every adapter (Kysely's and Drizzle's both
 * equal memory's), every (tenant_id, id) once both ways.
 */
function compositeKeyCases(
  name: string,
  backend: () => ConformanceBackend,
  reference: ConformanceBackend,
): void {
  const tenants = tenantsDataset();

  for (const [title, ordering, pageSize] of COMPOSITE_ORDERINGS) {
    it(`[${name}] composite key (tenant_id, id), cursor walk ${title}: same pages and links as memory, every row once`, async () => {
      const options = { pageSize, ordering };
      const actual = await cursorWalk(await backend().keyed('tenants', tenants, {}), tenants, options);
      const expected = await cursorWalk(await reference.keyed('tenants', tenants, {}), tenants, options);
      expect(actual).toEqual(expected);
      const visited = actual.forward.flatMap((p) => p.results.map(pairOf));
      expect(new Set(visited).size).toBe(tenants.rows.length);
      expect(visited).toHaveLength(tenants.rows.length);
      expect(actual.backward.map((p) => p.results)).toEqual(
        actual.forward
          .slice(0, -1)
          .reverse()
          .map((p) => p.results),
      );
      // Positions carry both key columns: the second page's token is bound on a (tenant_id, id).
      expect(actual.forward.length).toBeGreaterThan(2);
    });
  }

  it(`[${name}] composite key (tenant_id, id) with deferredJoin: page numbers and limit/offset exactly as plain OFFSET and memory`, async () => {
    // Orderings that end in the key, so plain OFFSET's order is total too.
    for (const ordering of [
      ['name', 'tenant_id', 'id'],
      ['-score', '-tenant_id', '-id'],
    ]) {
      const terms = parseOrdering(ordering);
      const deferred = (await backend().keyed('tenants', tenants, { deferredJoin: true })).orderBy(terms);
      const plain = (await backend().keyed('tenants', tenants, {})).orderBy(terms);
      const memory = (await reference.keyed('tenants', tenants, {})).orderBy(terms);
      const walk = await pageNumberWalk(deferred, tenants, 4);
      expect(walk).toEqual(await pageNumberWalk(plain, tenants, 4));
      expect(walk).toEqual(await pageNumberWalk(memory, tenants, 4));
      expect(new Set(walk.flatMap((p) => p.results.map(pairOf))).size).toBe(tenants.rows.length);
      for (const search of ['?limit=5&offset=3', '?limit=4&offset=100']) {
        const url = `${ORIGIN}${search}`;
        const page = await limitOffsetPage(deferred, tenants, url);
        expect(page).toEqual(await limitOffsetPage(plain, tenants, url));
        expect(page).toEqual(await limitOffsetPage(memory, tenants, url));
      }
    }
  });

  it(`[${name}] composite key written in another order than the primary key's: (id, tenant_id)`, async () => {
    const uniqueKey = ['id', 'tenant_id'];
    const options = { pageSize: 4, ordering: 'name' };
    const actual = await cursorWalk(
      await backend().keyed('tenants', tenants, { uniqueKey }),
      tenants,
      options,
    );
    const expected = await cursorWalk(
      await reference.keyed('tenants', tenants, { uniqueKey }),
      tenants,
      options,
    );
    expect(actual).toEqual(expected);
    expect(new Set(actual.forward.flatMap((p) => p.results.map(pairOf))).size).toBe(tenants.rows.length);
  });

  it(`[${name}] composite key with a key column not selected: fetched for positions, stripped from the rows`, async () => {
    const select = ['id', 'name', 'score'];
    const shown: Dataset = {
      ...tenants,
      columns: { name: tenants.columns.name!, score: tenants.columns.score! },
    };
    const options = { pageSize: 4, ordering: '-score' };
    const query = await backend().keyed('tenants', tenants, { select });
    const actual = await cursorWalk(query, shown, options);
    const expected = await cursorWalk(await reference.keyed('tenants', tenants, {}), shown, options);
    expect(actual).toEqual(expected);
    expect(actual.forward.flatMap((p) => p.results)).toHaveLength(tenants.rows.length);
    const rows = await new CursorPagination(options).paginateQueryset(query, new ApiRequest({ url: ORIGIN }));
    if (name !== 'memory')
      for (const row of rows ?? []) expect(Object.keys(row).sort()).toEqual(select.toSorted());
  });

  it(`[${name}] composite key: page numbers and limit/offset pages identical to memory`, async () => {
    const ordering = parseOrdering(['name', 'tenant_id', 'id']);
    const query = (await backend().keyed('tenants', tenants, {})).orderBy(ordering);
    const memory = (await reference.keyed('tenants', tenants, {})).orderBy(ordering);
    expect(await pageNumberWalk(query, tenants, 5)).toEqual(await pageNumberWalk(memory, tenants, 5));
  });

  it(`[${name}] a composite key nothing makes unique is refused, naming its columns`, async () => {
    const query = await backend().keyed('tenants', tenants, { uniqueKey: ['tenant_id', 'score'] });
    const page = cursorPage(query, tenants, { pageSize: 4, ordering: 'name' }, ORIGIN);
    await expect(page).rejects.toThrow(ConfigurationError);
    await expect(page).rejects.toThrow(
      /uniqueKey \["tenant_id", "score"\] does not make the cursor order unique/,
    );
  });

  it(`[${name}] a composite key a composite UNIQUE index covers is accepted and walked`, async () => {
    const codes = tenantCodesDataset();
    const uniqueKey = ['tenant_id', 'code'];
    const options = { pageSize: 5, ordering: '-name' };
    const actual = await cursorWalk(await backend().keyed('codes', codes, { uniqueKey }), codes, options);
    const expected = await cursorWalk(await reference.keyed('codes', codes, { uniqueKey }), codes, options);
    expect(actual).toEqual(expected);
    expect(actual.forward.flatMap((p) => p.results)).toHaveLength(codes.rows.length);
  });
}

const BASE_PLUS_4H = Date.UTC(2024, 0, 1) + 4 * 3_600_000;
