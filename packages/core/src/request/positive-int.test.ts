import { describe, expect, it } from 'vitest';
import { parsePythonInt } from './positive-int.js';

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
});
