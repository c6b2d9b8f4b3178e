import { ConfigurationError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { refuseKeysetOnSlice, sliceCount, sliceOf, sliceWindow } from './builder-slice.js';

const ADAPTER = { name: 'drizzle', factory: 'fromDrizzle' };

describe("a builder's own LIMIT/OFFSET", () => {
  it('is a slice pages stay inside', () => {
    const slice = sliceOf({ value: 5 }, { value: 10n }, ADAPTER);
    expect(slice).toEqual({ offset: 10, limit: 5 });
    expect(sliceCount(slice, 12)).toBe(2);
    expect(sliceWindow(slice, 2, 10)).toEqual({ offset: 12, limit: 3 });
    expect(sliceWindow(slice, 5, 10)).toBeNull();
    expect(sliceOf(null, null, ADAPTER)).toBeNull();
  });

  it('refuses what is no row count, and keyset pages over it, naming the adapter it was given', () => {
    expect(() => sliceOf({ value: undefined }, null, ADAPTER)).toThrow(
      /^drizzle adapter: the builder's LIMIT must be a non-negative integer value .*got an expression/,
    );
    expect(() => sliceOf(null, { value: -1 }, ADAPTER)).toThrow(ConfigurationError);
    expect(() => refuseKeysetOnSlice('drizzle query on "items"', ADAPTER)).toThrow(
      /^drizzle adapter: cursor pagination cannot page a sliced builder/,
    );
  });
});
