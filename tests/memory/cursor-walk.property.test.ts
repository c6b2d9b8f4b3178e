import { fromArray } from '@pagewise/memory-adapter';
import { CursorPagination, type OrderTerm } from '@pagewise/rest';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cursorPage } from '../support/cursor-pages.js';

interface Row {
  readonly id: number;
  readonly a: number | null;
  readonly b: string | null;
  readonly c: Date | null;
}

const FIELDS = ['a', 'b', 'c'] as const;

/** Few distinct values and many NULLs, so ties and NULL blocks are everywhere. */
const rowsArbitrary = fc
  .array(
    fc.record({
      a: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 4 }),
      b: fc.option(fc.constantFrom('x', 'y', 'Y', 'é', ''), { freq: 4 }),
      c: fc.option(
        fc.constantFrom(0, 1, 2).map((d) => new Date(Date.UTC(2024, 0, 1 + d))),
        { freq: 4 },
      ),
    }),
    { maxLength: 60 },
  )
  .map((rows) => rows.map((row, id): Row => ({ id, ...row })));

const orderingArbitrary = fc.uniqueArray(
  fc.record({
    field: fc.constantFrom(...FIELDS),
    direction: fc.constantFrom('asc' as const, 'desc' as const),
    nulls: fc.constantFrom(undefined, 'first' as const, 'last' as const),
  }),
  { minLength: 1, maxLength: 3, selector: (t) => t.field },
);

/** An independent statement of the ordering rules: NULL above every value unless `nulls` says otherwise. */
function expectedOrder(rows: readonly Row[], terms: ReadonlyArray<OrderTerm>): number[] {
  const plain = (v: Row[keyof Row]) => (v instanceof Date ? v.getTime() : v);
  return [...rows]
    .sort((x, y) => {
      for (const term of terms) {
        const a = plain(x[term.field as keyof Row]);
        const b = plain(y[term.field as keyof Row]);
        if (a === b) continue;
        const nullsFirst = term.nulls ? term.nulls === 'first' : term.direction === 'desc';
        if (a === null) return nullsFirst ? -1 : 1;
        if (b === null) return nullsFirst ? 1 : -1;
        const c = a < b ? -1 : 1;
        return term.direction === 'asc' ? c : -c;
      }
      const last = terms.at(-1)!;
      return last.direction === 'asc' ? x.id - y.id : y.id - x.id;
    })
    .map((row) => row.id);
}

const load = (pagination: CursorPagination, rows: readonly Row[], url: string) =>
  cursorPage(pagination, fromArray(rows), url);

describe('memory adapter: cursor walks', () => {
  test('every row exactly once in order, reverse walk, and previous-of-next is the same page', async () => {
    await fc.assert(
      fc.asyncProperty(
        rowsArbitrary,
        orderingArbitrary,
        fc.integer({ min: 1, max: 25 }),
        async (rows, terms, size) => {
          const pagination = new CursorPagination({ pageSize: size, ordering: terms });
          const expected = expectedOrder(rows, terms);

          const forward: number[][] = [];
          let url: string | null = 'http://testserver/list/?filter=x';
          let lastUrl = url;
          for (let guard = 0; url !== null; guard += 1) {
            expect(guard).toBeLessThanOrEqual(expected.length + 1);
            const page = await load(pagination, rows, url);
            forward.push(page.ids);
            if (page.next !== null) {
              const after = await load(pagination, rows, page.next);
              expect(after.previous).not.toBeNull();
              expect((await load(pagination, rows, after.previous!)).ids).toEqual(page.ids);
            }
            lastUrl = url;
            url = page.next;
          }
          expect(forward.flat()).toEqual(expected);
          expect(forward.slice(0, -1).every((ids) => ids.length === size)).toBe(true);

          const backward: number[][] = [];
          url = lastUrl;
          for (let guard = 0; url !== null; guard += 1) {
            expect(guard).toBeLessThanOrEqual(expected.length + 1);
            const page = await load(pagination, rows, url);
            backward.push(page.ids);
            url = page.previous;
          }
          expect(backward.flatMap((ids) => [...ids].reverse())).toEqual([...expected].reverse());
        },
      ),
      { numRuns: 150 },
    );
  });

  test('links keep the other query parameters', async () => {
    const rows = Array.from({ length: 7 }, (_, id): Row => ({ id, a: id % 2, b: null, c: null }));
    const page = await load(
      new CursorPagination({ pageSize: 3, ordering: 'a' }),
      rows,
      'http://testserver/?z=1&a=%20',
    );
    expect(page.next).toMatch(/^http:\/\/testserver\/\?a=\+&cursor=[A-Za-z0-9_-]+&z=1$/);
  });
});
