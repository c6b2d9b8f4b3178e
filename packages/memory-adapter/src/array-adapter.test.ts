import { ConfigurationError, InvalidBoundError, type KeyTerm } from '@pagewise/core';
import { describe, expect, test } from 'vitest';
import { fromArray } from './array-adapter.js';

const rows = [
  { id: 1, score: 3, name: 'b' },
  { id: 2, score: null, name: 'a' },
  { id: 3, score: 1, name: 'c' },
  { id: 4, score: 3, name: 'a' },
  { id: 5, score: null, name: 'b' },
];
const term = (field: string, direction: 'asc' | 'desc', nulls: 'first' | 'last'): KeyTerm => ({
  field,
  direction,
  nulls,
});
const ids = (page: ReadonlyArray<{ row: { id: number } }>) => page.map((r) => r.row.id);

describe('fromArray', () => {
  test('keeps array order and reports no ordering, yet counts as ordered', async () => {
    const query = fromArray(rows);
    expect(query.ordering).toEqual([]);
    expect(query.ordered).toBe(true);
    expect(ids(await query.fetch({ order: null, after: null, offset: 1, limit: 2 }))).toEqual([2, 3]);
    expect(await query.count()).toEqual({ value: 5, exact: true });
  });

  test('orders by fields with NULL above every value unless told otherwise', async () => {
    expect(
      ids(
        await fromArray(rows, { ordering: 'score' }).fetch({ order: null, after: null, offset: 0, limit: 9 }),
      ),
    ).toEqual([3, 1, 4, 2, 5]);
    expect(
      ids(
        await fromArray(rows, { ordering: '-score' }).fetch({
          order: null,
          after: null,
          offset: 0,
          limit: 9,
        }),
      ),
    ).toEqual([2, 5, 1, 4, 3]);
    const nullsFirst = fromArray(rows, {
      ordering: [{ field: 'score', direction: 'asc', nulls: 'first' }, '-name'],
    });
    expect(ids(await nullsFirst.fetch({ order: null, after: null, offset: 0, limit: 9 }))).toEqual([
      5, 2, 3, 1, 4,
    ]);
  });

  test('keyset bounds are strictly after, with the row index as tiebreaker and positions per term', async () => {
    const query = fromArray(rows);
    const order = [
      term('score', 'desc', 'first'),
      { ...term(query.uniqueKey!, 'desc', 'last'), unique: true as const },
    ];
    const all = await query.fetch({ order, after: null, offset: 0, limit: 9 });
    expect(ids(all)).toEqual([5, 2, 4, 1, 3]);
    expect(all[0]!.position).toEqual([null, 4]);
    const after = await query.fetch({ order, after: [null, 1], offset: 0, limit: 9 });
    expect(ids(after)).toEqual([4, 1, 3]);
    expect(ids(await query.fetch({ order, after: [3, 3], offset: 1, limit: 1 }))).toEqual([3]);
  });

  test('uniqueKey names a field instead of the index', async () => {
    const query = fromArray(rows, { uniqueKey: 'id' });
    expect(query.uniqueKey).toBe('id');
    const page = await query.fetch({ order: [term('id', 'asc', 'last')], after: [3], offset: 0, limit: 9 });
    expect(ids(page)).toEqual([4, 5]);
  });

  test('a bound of the wrong kind or length is an InvalidBoundError', async () => {
    const query = fromArray(rows);
    const order = [term('score', 'asc', 'last')];
    await expect(query.fetch({ order, after: ['3'], offset: 0, limit: 1 })).rejects.toBeInstanceOf(
      InvalidBoundError,
    );
    await expect(query.fetch({ order, after: [3, 1], offset: 0, limit: 1 })).rejects.toBeInstanceOf(
      InvalidBoundError,
    );
    await expect(query.fetch({ order, after: [null], offset: 0, limit: 9 })).resolves.toEqual([]);
  });

  test('plain values page through getField', async () => {
    const query = fromArray([5, 1, 4], { getField: (row) => row });
    const page = await query.fetch({
      order: [term('value', 'asc', 'last')],
      after: [1],
      offset: 0,
      limit: 9,
    });
    expect(page.map((r) => r.row)).toEqual([4, 5]);
  });

  test('orderBy returns a re-ordered copy and leaves the original alone', async () => {
    const base = fromArray(rows);
    const byName = base.orderBy([{ field: 'name', direction: 'asc' }]);
    expect(byName.ordering).toEqual([{ field: 'name', direction: 'asc' }]);
    expect(ids(await byName.fetch({ order: null, after: null, offset: 0, limit: 9 }))).toEqual([
      2, 4, 1, 5, 3,
    ]);
    expect(ids(await base.fetch({ order: null, after: null, offset: 0, limit: 9 }))).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('unknown ordering fields (issue 12)', () => {
  test('fail with a clear error, as an unknown column fails on SQL, instead of sorting as NULL', async () => {
    const query = fromArray(rows);
    expect(() => query.orderBy([{ field: 'nope', direction: 'asc' }])).toThrow(
      /memory adapter: unknown field "nope"/,
    );
    await expect(
      query.fetch({
        order: [{ field: 'nope', direction: 'asc', nulls: 'last' }],
        after: null,
        offset: 0,
        limit: 2,
      }),
    ).rejects.toThrow(/unknown field "nope"/);
    expect(() => fromArray(rows, { ordering: '-missing' })).toThrow(/unknown field "missing"/);
  });
});

describe('a uniqueKey that repeats (issue 31)', () => {
  const unique = (field: string): KeyTerm => ({ ...term(field, 'asc', 'last'), unique: true });
  const window = (order: KeyTerm[] | null) => ({ order, after: null, offset: 0, limit: 9 });

  test('a keyset window over an ordering two rows tie on, key included, is refused, naming them', async () => {
    const query = fromArray(rows, { uniqueKey: 'name' });
    await expect(query.fetch(window([unique('name')]))).rejects.toThrow(ConfigurationError);
    await expect(query.fetch(window([unique('name')]))).rejects.toThrow(
      /uniqueKey "name" does not make the cursor order unique: the rows at array indexes 1 and 3 both hold \(a\) in "name"/,
    );
  });

  test('an ordering that tells the rows apart passes, and offset windows never bound by the key', async () => {
    const query = fromArray(rows, { uniqueKey: 'name' });
    expect(ids(await query.fetch(window([term('score', 'desc', 'first'), unique('name')])))).toEqual([
      2, 5, 4, 1, 3,
    ]);
    expect(ids(await query.fetch(window(null)))).toEqual([1, 2, 3, 4, 5]);
    // The row's index (no uniqueKey) never repeats.
    expect(ids(await fromArray(rows).fetch(window([term('name', 'asc', 'last'), unique('#index')])))).toEqual(
      [2, 4, 1, 5, 3],
    );
  });
});
