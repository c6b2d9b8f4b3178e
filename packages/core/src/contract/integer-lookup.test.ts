import { describe, expect, it } from 'vitest';
import { INTEGER_RANGES, integerLookup } from './integer-lookup.js';

describe('integerLookup', () => {
  it('reads base-10 integers inside the range, leading zeros included', () => {
    expect(integerLookup('7')).toBe(7);
    expect(integerLookup('0007')).toBe(7);
    expect(integerLookup('-0')).toBe(0);
    expect(integerLookup('0')).toBe(0);
    expect(integerLookup('2147483647')).toBe(2147483647);
    expect(integerLookup('-2147483648')).toBe(-2147483648);
    expect(integerLookup('32767', INTEGER_RANGES.smallint)).toBe(32767);
    expect(integerLookup('9007199254740993', INTEGER_RANGES.bigint)).toBe(9007199254740993n);
    expect(integerLookup('-9223372036854775808', INTEGER_RANGES.bigint)).toBe(-(2n ** 63n));
  });

  it('refuses values outside the range and text that is not an integer', () => {
    for (const raw of ['2147483648', '-2147483649', '9223372036854775808', '9'.repeat(400)]) {
      expect(integerLookup(raw), raw).toBeNull();
    }
    expect(integerLookup('32768', INTEGER_RANGES.smallint)).toBeNull();
    expect(integerLookup('9223372036854775808', INTEGER_RANGES.bigint)).toBeNull();
    for (const raw of ['', '-', '+1', '1.5', '1e3', '0x10', ' 7', '7 ', 'abc', '１', '1_0', '--1']) {
      expect(integerLookup(raw), raw).toBeNull();
    }
  });

  it('does the same work per character on inputs built to backtrack', () => {
    // Linear, not quadratic: a regex that backtracks over the zeros would need ~10^10 steps here.
    expect(integerLookup(`${'0'.repeat(200_000)}x`)).toBeNull();
    expect(integerLookup(`-${'0'.repeat(200_000)}`)).toBe(0);
  });
});
