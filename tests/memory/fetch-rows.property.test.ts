import { fromArray } from '@pagewise/memory-adapter';
import {
  CursorPagination,
  type FetchedRows,
  type OrderedQuery,
  type OrderTerm,
  type WindowSpec,
} from '@pagewise/rest';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type CursorPageIds, cursorPage } from '../support/cursor-pages.js';

// Cursor pages read an adapter's `fetchRows` (rows, and positions by index) where it has one, and
// `fetch` (a WindowRow per row) otherwise. Both must make the same pages and links, forward and
// backward, with a unique key and without one (DRF's position + offset walk over ties).

interface Row {
  readonly id: number;
  readonly a: number | null;
  readonly b: string | null;
}

/** `query` through `fetch` only, with `uniqueKey` as given. */
function viaFetch(query: OrderedQuery<Row>, uniqueKey: string | null): OrderedQuery<Row> {
  return {
    adapter: query.adapter,
    ordering: query.ordering,
    ordered: query.ordered,
    uniqueKey,
    description: query.description,
    orderBy: (terms: readonly OrderTerm[]) => viaFetch(query.orderBy(terms), uniqueKey),
    count: (options) => query.count(options),
    fetch: (window: WindowSpec) => query.fetch(window),
  };
}

/**
 * `query` through `fetchRows` only: its rows frozen (the caller must copy what it keeps) and
 * every position read counted in `reads`.
 */
function viaRows(query: OrderedQuery<Row>, uniqueKey: string | null, reads: number[]): OrderedQuery<Row> {
  return {
    ...viaFetch(query, uniqueKey),
    orderBy: (terms: readonly OrderTerm[]) => viaRows(query.orderBy(terms), uniqueKey, reads),
    fetch: () => Promise.reject(new Error('this query pages by fetchRows')),
    async fetchRows(window: WindowSpec): Promise<FetchedRows<Row>> {
      const fetched = await query.fetch(window);
      return {
        rows: Object.freeze(fetched.map((r) => r.row)),
        position(index) {
          reads.push(index);
          const row = fetched[index];
          if (row === undefined) throw new RangeError(`no row ${index}`);
          return row.position;
        },
      };
    },
  };
}

const rowsArbitrary = fc
  .array(
    fc.record({
      a: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 4 }),
      b: fc.option(fc.constantFrom('x', 'y', ''), { freq: 4 }),
    }),
    { maxLength: 40 },
  )
  .map((rows) => rows.map((row, id): Row => ({ id, ...row })));

const orderingArbitrary = fc.uniqueArray(
  fc.record({
    field: fc.constantFrom('a', 'b'),
    direction: fc.constantFrom('asc' as const, 'desc' as const),
    nulls: fc.constantFrom(undefined, 'first' as const, 'last' as const),
  }),
  { minLength: 1, maxLength: 2, selector: (t) => t.field },
);

describe('cursor pages over fetchRows', () => {
  test('the same pages and links as over fetch, both ways, with and without a unique key', async () => {
    await fc.assert(
      fc.asyncProperty(
        rowsArbitrary,
        orderingArbitrary,
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        async (rows, terms, size, keyed) => {
          const query = fromArray(rows);
          const uniqueKey = keyed ? query.uniqueKey : null;
          const reads: number[] = [];
          const plain = viaFetch(query, uniqueKey);
          const lean = viaRows(query, uniqueKey, reads);
          const pagination = new CursorPagination({ pageSize: size, ordering: terms, offsetCutoff: null });
          const walk = async (start: string, link: 'next' | 'previous') => {
            let url: string | null = start;
            let last = start;
            for (let guard = 0; url !== null; guard += 1) {
              expect(guard).toBeLessThanOrEqual(rows.length + 1);
              const before = reads.length;
              const page: CursorPageIds = await cursorPage(pagination, lean, url);
              expect(page).toEqual(await cursorPage(pagination, plain, url));
              // With a unique key a page reads the positions its links stand on, not every row's.
              if (keyed) expect(reads.length - before).toBeLessThanOrEqual(3);
              last = url;
              url = page[link];
            }
            return last;
          };
          const end = await walk('http://testserver/list/', 'next');
          await walk(end, 'previous');
        },
      ),
      { numRuns: 200 },
    );
  });
});
