import { describe, expect, it } from 'vitest';
import { digitsAt } from './digits.js';

describe('digitsAt', () => {
  it('reads the digits of a range, and -1 for any other character or a range past the end', () => {
    expect(digitsAt('2024-05-01', 0, 4)).toBe(2024);
    expect(digitsAt('2024-05-01', 5, 7)).toBe(5);
    expect(digitsAt('2024-05-01', 3, 5)).toBe(-1);
    expect(digitsAt('12/', 0, 3)).toBe(-1);
    expect(digitsAt('12:', 0, 3)).toBe(-1);
    // charCodeAt past the end is NaN, which is no digit: never a NaN field.
    expect(digitsAt('12', 0, 3)).toBe(-1);
    expect(digitsAt('', 0, 1)).toBe(-1);
  });
});
