import { describe, expect, it } from 'vitest';
import { answerProblem } from '../src/count-ratio.js';

describe('count-ratio checks before timing', () => {
  const ids = [5, 4, 3];
  it('accepts the same rows with an exact count, an estimate and no count', () => {
    expect(answerProblem('exact', { ids, body: { count: 1000 } }, ids, 1000)).toBeNull();
    expect(
      answerProblem('estimated', { ids, body: { count: 998, countMode: 'estimated' } }, ids, 1000),
    ).toBeNull();
    expect(
      answerProblem('cached', { ids, body: { count: 998, countMode: 'estimated', countAge: 0 } }, ids, 1000),
    ).toBeNull();
    expect(answerProblem('none', { ids, body: { count: null, countMode: 'none' } }, ids, 1000)).toBeNull();
  });

  it('refuses other rows, a wrong exact count, an exact answer for an estimate and a count for none', () => {
    expect(
      answerProblem('none', { ids: [5, 3, 4], body: { count: null, countMode: 'none' } }, ids, 9),
    ).toMatch(/first ids 5,3,4 instead of 5,4,3/);
    expect(answerProblem('exact', { ids, body: { count: 999 } }, ids, 1000)).toMatch(
      /instead of the exact 1000/,
    );
    expect(answerProblem('estimated', { ids, body: { count: 1000 } }, ids, 1000)).toMatch(/no estimate/);
    expect(answerProblem('none', { ids, body: { count: 3, countMode: 'none' } }, ids, 1000)).toMatch(
      /none was asked for/,
    );
  });
});
