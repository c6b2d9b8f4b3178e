import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiError,
  type BasePagination,
  CursorPagination,
  LimitOffsetPagination,
  orderingFingerprint,
  PageNumberPagination,
} from '@pagewise/rest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { get, range } from './helpers.js';

const rows = range(0, 100).map((id) => ({ id, created: Math.floor(id / 3) }));
const query = () => fromArray(rows);

interface Style {
  name: string;
  make: () => BasePagination;
  params: readonly string[];
}

const STYLES: Style[] = [
  {
    name: 'page number (max page size 20)',
    make: () => new PageNumberPagination({ pageSize: 5, pageSizeQueryParam: 'page_size', maxPageSize: 20 }),
    params: ['page', 'page_size'],
  },
  {
    name: 'page number (no max)',
    make: () => new PageNumberPagination({ pageSize: 5, pageSizeQueryParam: 'page_size' }),
    params: ['page', 'page_size'],
  },
  {
    name: 'page number (count none)',
    make: () => new PageNumberPagination({ pageSize: 5, pageSizeQueryParam: 'page_size', count: 'none' }),
    params: ['page', 'page_size'],
  },
  {
    name: 'limit/offset (max 15)',
    make: () => new LimitOffsetPagination({ defaultLimit: 10, maxLimit: 15 }),
    params: ['limit', 'offset'],
  },
  {
    name: 'limit/offset (no max)',
    make: () => new LimitOffsetPagination({ defaultLimit: 10 }),
    params: ['limit', 'offset'],
  },
  {
    name: 'cursor',
    make: () =>
      new CursorPagination({
        pageSize: 5,
        pageSizeQueryParam: 'page_size',
        maxPageSize: 20,
        ordering: 'created',
      }),
    params: ['cursor', 'page_size'],
  },
  {
    name: 'cursor (signed, no cutoff)',
    make: () =>
      new CursorPagination({
        pageSize: 5,
        pageSizeQueryParam: 'page_size',
        ordering: ['-created', 'id'],
        cursorSecret: 'k',
        offsetCutoff: null,
      }),
    params: ['cursor', 'page_size'],
  },
];

/** Raw query values, as they would appear in the URL. */
const JUNK = [
  'abc',
  '-1',
  '-0',
  '0',
  '',
  '%20',
  '99999999999999999999999',
  '-99999999999999999999999',
  '9007199254740993',
  '1e3',
  '0x10',
  '1.5',
  '%EF%BC%91%EF%BC%90',
  '1_0',
  '%FF',
  '%',
  '%%',
  '%E2%82',
  '%00',
  '%C3%BC',
  '%F0%9F%98%80',
  'ü',
  '😀',
  '+',
  '%2B5',
  'null',
  'NaN',
  'Infinity',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'last',
  'LAST',
  '<script>',
  '"quoted"',
  "it's",
  'a b',
  'x'.repeat(3000),
  'eyJrIjoiMSJ9',
  'e30.sig',
];

/** Paginates and exercises every synchronous method; answers 'ok' or the ApiError. */
async function exercise(style: Style, url: string): Promise<'ok' | ApiError> {
  const pagination = style.make();
  let result: unknown[] | null;
  try {
    result = await pagination.paginateQueryset(query(), get(url));
  } catch (error) {
    if (error instanceof ApiError) {
      expect(error.status).toBeGreaterThanOrEqual(400);
      expect(error.status).toBeLessThan(500);
      expect(typeof error.detail).toBe('string');
      return error;
    }
    throw error;
  }
  expect(result).not.toBeNull();
  const response = pagination.getPaginatedResponse(result!);
  expect(response.status).toBe(200);
  JSON.stringify(response.data);
  pagination.getHtmlContext();
  expect(typeof pagination.toHtml()).toBe('string');
  for (const link of [pagination.getNextLink(), pagination.getPreviousLink()]) {
    if (link === null) continue;
    expect(new URL(link).origin).toBe('http://testserver');
    // Links the paginator produced must be followable.
    const follow = style.make();
    await follow.paginateQueryset(query(), get(link));
  }
  return 'ok';
}

describe.each(STYLES)('bad input never escapes as anything but a 4xx ApiError: $name', (style) => {
  it('every junk value in every parameter, alone, repeated and combined', async () => {
    for (const param of style.params) {
      for (const value of JUNK) {
        await exercise(style, `/?${param}=${value}`);
        await exercise(style, `/?${param}=1&${param}=${value}`);
        await exercise(style, `/?${param}=${value}&${param}=2`);
        for (const other of style.params)
          if (other !== param) await exercise(style, `/?${param}=${value}&${other}=${value}`);
      }
      await exercise(style, `/?${param}`);
      await exercise(style, `/?${param}&${param}=`);
    }
  });

  it('random strings in every parameter (fast-check)', async () => {
    const value = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary-ascii' }),
      fc.stringMatching(/^[ +\-_0-9٠-٩]{0,12}$/),
      fc.base64String({ maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...style.params), value, fc.boolean(), async (param, v, encode) => {
        await exercise(style, `/?${param}=${encode ? encodeURIComponent(v) : v}`);
      }),
      { numRuns: 150 },
    );
  });
});

describe('the spec fallbacks for bad values', () => {
  const pageNumber = () =>
    new PageNumberPagination({ pageSize: 5, pageSizeQueryParam: 'page_size', maxPageSize: 20 });
  const limitOffset = () => new LimitOffsetPagination({ defaultLimit: 10, maxLimit: 15 });
  const cursor = () =>
    new CursorPagination({ pageSize: 5, pageSizeQueryParam: 'page_size', maxPageSize: 20, ordering: 'id' });

  it.each(['abc', '0', '-1', '99999999999999999999999', '1e3', '%FF', 'LAST', '1.0'])(
    'page=%s is 404 Invalid page.',
    async (v) => {
      const error = await pageNumber()
        .paginateQueryset(query(), get(`/?page=${v}`))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(404);
      expect((error as ApiError).detail).toBe('Invalid page.');
    },
  );

  it('an empty page is page 1; a blank one is not an integer', async () => {
    expect(await pageNumber().paginateQueryset(query(), get('/?page='))).toEqual(rows.slice(0, 5));
    await expect(pageNumber().paginateQueryset(query(), get('/?page=%20'))).rejects.toMatchObject({
      status: 404,
      detail: 'Invalid page.',
    });
  });

  it.each(['abc', '0', '-1', '', '%FF', '1.5'])('page_size=%j falls back; huge is clamped', async (v) => {
    expect(await pageNumber().paginateQueryset(query(), get(`/?page_size=${v}`))).toHaveLength(5);
    expect(await cursor().paginateQueryset(query(), get(`/?page_size=${v}`))).toHaveLength(5);
    expect(
      await pageNumber().paginateQueryset(query(), get('/?page_size=99999999999999999999999')),
    ).toHaveLength(20);
    expect(await cursor().paginateQueryset(query(), get('/?page_size=99999999999999999999999'))).toHaveLength(
      20,
    );
  });

  it.each(['abc', '0', '-1', '', '%FF', '1.5'])('limit=%j falls back; huge is clamped', async (v) => {
    expect(await limitOffset().paginateQueryset(query(), get(`/?limit=${v}`))).toHaveLength(10);
    expect(
      await limitOffset().paginateQueryset(query(), get('/?limit=99999999999999999999999')),
    ).toHaveLength(15);
  });

  it.each(['abc', '-1', '', '%FF', '1.5', '-99999999999999999999999'])('offset=%j is 0', async (v) => {
    expect(await limitOffset().paginateQueryset(query(), get(`/?offset=${v}`))).toEqual(rows.slice(0, 10));
  });

  it('a huge offset is an empty page past the end, with a previous link', async () => {
    const p = limitOffset();
    expect(await p.paginateQueryset(query(), get('/?offset=99999999999999999999999'))).toEqual([]);
    expect(p.getNextLink()).toBeNull();
    expect(p.getPreviousLink()).toMatch(/^http:\/\/testserver\/\?limit=10&offset=\d+$/);
  });

  it.each(['abc', '123', '%FF', '-1', 'bz01', '😀'])('cursor=%s is 404 Invalid cursor', async (v) => {
    const error = await cursor()
      .paginateQueryset(query(), get(`/?cursor=${v}`))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).detail).toBe('Invalid cursor');
  });

  it('structurally valid but hostile cursor JSON is a page or a 404', async () => {
    const style = STYLES.find((s) => s.name === 'cursor')!;
    const k = orderingFingerprint([
      { field: 'created', direction: 'asc', nulls: 'last' },
      { field: '#index', direction: 'asc', nulls: 'last', unique: true },
    ]);
    const value = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.string().map((s) => `s${s}`),
      fc.bigInt().map((b) => `b${b}`),
      fc.integer().map((n) => `d${n}`),
      fc.constantFrom('nNaN', 'nInfinity', 'n-Infinity', 'x', ''),
    );
    const body = fc.record(
      {
        k: fc.oneof(fc.constant(k), fc.string()),
        o: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(1e15)),
        r: fc.oneof(fc.constantFrom(0, 1, 2, -1), fc.boolean()),
        p: fc.oneof(fc.constant(null), fc.array(value, { maxLength: 3 })),
      },
      { requiredKeys: ['k'] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const token = Buffer.from(JSON.stringify(b), 'utf8').toString('base64url');
        await exercise(style, `/?cursor=${token}`);
      }),
      { numRuns: 300 },
    );
  });
});
