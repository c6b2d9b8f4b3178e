import { describe, expect, it } from 'vitest';
import { parsePythonInt, positiveIntOr } from './positive-int.js';

describe('parsePythonInt (Python int())', () => {
  it('keeps Python semantics after the linear rewrite (issue 10)', () => {
    expect(parsePythonInt(' +1_0 ')).toBe(10);
    expect(parsePythonInt('１０')).toBe(10);
    expect(parsePythonInt('\u001c\u0085 7 \u2003\u3000')).toBe(7);
    expect(Object.is(parsePythonInt('-0'), 0)).toBe(true);
    expect(parsePythonInt('-12')).toBe(-12);
    expect(parsePythonInt('9'.repeat(40))).toBe(Number.MAX_SAFE_INTEGER);
    expect(parsePythonInt(`-${'9'.repeat(40)}`)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(parsePythonInt(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    for (const junk of ['', ' ', '1__0', '_1', '1_', '+-1', 'x 1', `x${' '.repeat(100)}x`, '1 1']) {
      expect(parsePythonInt(junk), JSON.stringify(junk)).toBeNull();
    }
  });

  it("takes up to Python's 4,300 digits, astral ones with underscores included, and no more", () => {
    expect(parsePythonInt(`-${'0'.repeat(4299)}7`)).toBe(-7);
    expect(parsePythonInt(`${'0'.repeat(4300)}7`)).toBeNull();
    // U+1D7CE..U+1D7D7 (MATHEMATICAL BOLD DIGITs) are two UTF-16 units each: 12,900 units in all.
    const astral = `+${Array.from({ length: 4299 }, () => '\u{1D7CE}').join('_')}_\u{1D7D5}`;
    expect(astral.length).toBe(3 * 4300);
    expect(parsePythonInt(astral)).toBe(7);
    expect(parsePythonInt(`\u{1D7CE}_${astral.slice(1)}`)).toBeNull();
    expect(parsePythonInt(`${' '.repeat(100_000)}${'0'.repeat(4300)}${' '.repeat(100_000)}`)).toBe(0);
  });
});

// Moved from tests/drf/query-string.test.ts (DRF's _positive_int, section 0.5): helpers of the engine's own.
describe('positiveIntOr and parsePythonInt', () => {
  it('positiveIntOr answers the fallback for rejected and missing text', () => {
    expect(positiveIntOr('junk', 7)).toBe(7);
    expect(positiveIntOr(null, 7)).toBe(7);
    expect(positiveIntOr('0', 7, { strict: true })).toBe(7);
    expect(positiveIntOr('3', 7)).toBe(3);
  });

  it('parsePythonInt follows int(): signs, whitespace, underscores, Unicode digits', () => {
    expect(parsePythonInt('-12')).toBe(-12);
    expect(parsePythonInt(' +0 ')).toBe(0);
    expect(parsePythonInt('1_000_000')).toBe(1_000_000);
    expect(parsePythonInt('٠٩')).toBe(9);
    expect(parsePythonInt('1 0')).toBeNull();
    expect(parsePythonInt('١_٢')).toBe(12);
  });
});
