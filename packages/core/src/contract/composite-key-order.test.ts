import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../cursor/cursor-codec.js';
import fixtures from '../cursor/fixtures/signed-tokens.json' with { type: 'json' };
import { frozenKeyOrder, keyOrder, uniqueKeyColumns } from './ordering.js';

const composite = { ordering: [], uniqueKey: null, uniqueKeys: ['tenant_id', 'id'] } as const;
const single = { ordering: [], uniqueKey: 'id' } as const;

describe('key order over a composite unique key', () => {
  it('appends every key column the ordering lacks, in key order and the last direction', () => {
    expect(keyOrder([{ field: 'created', direction: 'desc' }], composite)).toEqual([
      { field: 'created', direction: 'desc', nulls: 'first' },
      { field: 'tenant_id', direction: 'desc', nulls: 'last', unique: true },
      { field: 'id', direction: 'desc', nulls: 'last', unique: true },
    ]);
    // A key column the ordering names is marked where it stands; the other is appended.
    expect(keyOrder([{ field: 'id', direction: 'asc' }], composite)).toEqual([
      { field: 'id', direction: 'asc', nulls: 'last', unique: true },
      { field: 'tenant_id', direction: 'asc', nulls: 'last', unique: true },
    ]);
    expect(keyOrder([], composite).map((t) => t.field)).toEqual(['tenant_id', 'id']);
  });

  it('recognises its own frozen key order, and not one that lacks a key column', () => {
    const order = frozenKeyOrder(composite, '-created');
    expect(frozenKeyOrder(composite, order)).toBe(order);
    const partial = frozenKeyOrder(single, '-created');
    expect(frozenKeyOrder(composite, partial)).not.toBe(partial);
    expect(frozenKeyOrder(composite, partial).map((t) => t.field)).toEqual(['created', 'id', 'tenant_id']);
  });

  it('a one-column key is the key it always was, written as a string or a list of one', () => {
    expect(uniqueKeyColumns(single)).toEqual(['id']);
    expect(uniqueKeyColumns({ uniqueKey: 'id', uniqueKeys: [] })).toEqual(['id']);
    expect(uniqueKeyColumns({ uniqueKey: null })).toEqual([]);
    const order = keyOrder([{ field: 'created', direction: 'desc' }], single);
    expect(order).toEqual([
      { field: 'created', direction: 'desc', nulls: 'first' },
      { field: 'id', direction: 'desc', nulls: 'last', unique: true },
    ]);
    // Its tokens stay what they were: the signed-token fixture's order, and its token byte for byte.
    expect(order).toEqual(fixtures.order);
    const [fixture] = fixtures.tokens;
    const cursor = decodeCursor(fixture!.token, { order, secret: fixture!.secret });
    expect(encodeCursor(cursor, { order, secret: fixture!.secret })).toBe(fixture!.token);
  });

  it('positions carry every key column: a composite token differs from the single key one', () => {
    const one = keyOrder([{ field: 'created', direction: 'desc' }], single);
    const both = keyOrder([{ field: 'created', direction: 'desc' }], composite);
    const a = encodeCursor({ offset: 0, reverse: false, position: [5, 7] }, { order: one });
    const b = encodeCursor({ offset: 0, reverse: false, position: [5, 1, 7] }, { order: both });
    expect(a).not.toBe(b);
  });
});
