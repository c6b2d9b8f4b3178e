import { describe, expect, it } from 'vitest';
import { PrivateColumnStripper } from './row-stripper.js';

/** A row with `count` public columns and the private ones woven between them. */
function rowOf(count: number, tag: string): Record<string, unknown> {
  const row: Record<string, unknown> = { pagewise0: `private ${tag}` };
  for (let i = 0; i < count; i += 1) {
    row[`c${i}`] = `${tag}${i}`;
    if (i === 1) row.pagewisex1 = 'exact text';
  }
  return row;
}

describe('PrivateColumnStripper', () => {
  it('keeps every public column in its order, for each number of columns', () => {
    for (let count = 0; count <= 12; count += 1) {
      const stripper = new PrivateColumnStripper();
      const rows = [rowOf(count, 'a'), rowOf(count, 'b')];
      const stripped = stripper.strip(rows);
      const expected = rows.map((row) =>
        Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('pagewise'))),
      );
      expect(stripped).toStrictEqual(expected);
      expect(stripped.map((row) => JSON.stringify(row))).toEqual(expected.map((row) => JSON.stringify(row)));
      expect(stripped.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
    }
  });

  it('reads the columns of every result: rows with other columns never reuse the last copy', () => {
    const stripper = new PrivateColumnStripper();
    expect(stripper.strip([{ id: 1, title: 'a', pagewise0: 'x' }])).toStrictEqual([{ id: 1, title: 'a' }]);
    // The same number of columns under other names.
    expect(stripper.strip([{ id: 4, name: 'c', pagewise0: 'z' }])).toStrictEqual([{ id: 4, name: 'c' }]);
    // A `select *` after `ALTER TABLE ... ADD COLUMN`: one column more, same count of private ones.
    expect(stripper.strip([{ id: 2, title: 'b', score: 3, pagewise0: 'y' }])).toStrictEqual([
      { id: 2, title: 'b', score: 3 },
    ]);
    // A page that also selected an integer's exact text.
    expect(stripper.strip([{ id: 5, name: 'd', pagewise0: 'z', pagewisex0: '5' }])).toStrictEqual([
      { id: 5, name: 'd' },
    ]);
    expect(stripper.strip([])).toEqual([]);
  });

  it('copies rows: the results are new objects, the fetched rows stay as they were', () => {
    const stripper = new PrivateColumnStripper();
    const row = { id: 1, pagewise0: 'x' };
    const [copy] = stripper.strip([row]);
    expect(copy).not.toBe(row);
    expect(row).toStrictEqual({ id: 1, pagewise0: 'x' });
  });

  it('copies a `__proto__` column as an assignment does (it sets the prototype, as before)', () => {
    const row = JSON.parse('{"id":1,"__proto__":{"inherited":true},"pagewise0":"x"}');
    expect(Object.keys(row)).toEqual(['id', '__proto__', 'pagewise0']);
    const [copy] = new PrivateColumnStripper().strip([row]);
    expect(Object.keys(copy!)).toEqual(['id']);
    expect(Object.getPrototypeOf(copy)).toEqual({ inherited: true });
  });
});
