import type { Row } from '../dialect/row.js';
import { isPrivateColumn } from '../keyset/private-columns.js';

/** A copy of a row with only some of its columns, in their order. */
export type PickRow = (row: Row) => Row;

/** A copy of `row` with only `keys`, one keyed store per column. */
function pickEach(row: Row, keys: readonly string[]): Row {
  const copy: Row = {};
  for (let i = 0; i < keys.length; i += 1) copy[keys[i]!] = row[keys[i]!];
  return copy;
}

/**
 * A copy function for rows with `keys`, written out as one object literal for up to eight
 * columns: V8 builds such a literal about ten times faster than a loop of keyed stores, whose
 * property names vary at one site. A literal defines a `__proto__` key where a store sets the
 * prototype, so such rows keep the loop.
 */
function pickerOf(keys: readonly string[]): PickRow {
  if (keys.includes('__proto__')) return (r) => pickEach(r, keys);
  const [a = '', b = '', c = '', d = '', e = '', f = '', g = '', h = ''] = keys;
  switch (keys.length) {
    case 0:
      return () => ({});
    case 1:
      return (r) => ({ [a]: r[a] });
    case 2:
      return (r) => ({ [a]: r[a], [b]: r[b] });
    case 3:
      return (r) => ({ [a]: r[a], [b]: r[b], [c]: r[c] });
    case 4:
      return (r) => ({ [a]: r[a], [b]: r[b], [c]: r[c], [d]: r[d] });
    case 5:
      return (r) => ({ [a]: r[a], [b]: r[b], [c]: r[c], [d]: r[d], [e]: r[e] });
    case 6:
      return (r) => ({ [a]: r[a], [b]: r[b], [c]: r[c], [d]: r[d], [e]: r[e], [f]: r[f] });
    case 7:
      return (r) => ({ [a]: r[a], [b]: r[b], [c]: r[c], [d]: r[d], [e]: r[e], [f]: r[f], [g]: r[g] });
    case 8:
      return (r) => ({
        [a]: r[a],
        [b]: r[b],
        [c]: r[c],
        [d]: r[d],
        [e]: r[e],
        [f]: r[f],
        [g]: r[g],
        [h]: r[h],
      });
    default:
      return (r) => pickEach(r, keys);
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** The columns of the rows last stripped, and the copy function that drops the private ones. */
interface Stripping {
  readonly columns: readonly string[];
  readonly pick: PickRow;
}

/**
 * Strips the private columns (`isPrivateColumn`) from the rows of one statement plan, reusing the
 * copy function while the rows keep the same columns. The columns are read from each result's
 * first row, never assumed: a `select *` reads new columns after an `ALTER TABLE`, and a page
 * that selected integers' exact text has one column more. Safe to share between concurrent
 * requests: it only ever swaps one immutable pair for another.
 */
export class PrivateColumnStripper {
  #last: Stripping | null = null;

  /** The rows (all of one statement, so with the columns of the first) without private columns. */
  strip(rows: readonly Row[]): Row[] {
    const out = new Array<Row>(rows.length);
    if (rows.length === 0) return out;
    const columns = Object.keys(rows[0]!);
    let last = this.#last;
    if (last === null || !sameKeys(last.columns, columns)) {
      last = { columns, pick: pickerOf(columns.filter((key) => !isPrivateColumn(key))) };
      this.#last = last;
    }
    const pick = last.pick;
    for (let i = 0; i < rows.length; i += 1) out[i] = pick(rows[i]!);
    return out;
  }
}
