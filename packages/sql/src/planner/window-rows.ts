import type { FetchedRows, PositionValue, WindowRow } from '@pagewise/core';
import type { PositionReader } from '../codec/column-codec.js';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import type { Row } from '../dialect/row.js';
import { TIE_COLUMN } from '../keyset/private-columns.js';

/**
 * A keyset window's rows (stripped of private columns where the plan added some) with each
 * position read from its raw row only when asked for: a page's links need those of its first and
 * last rows only, and reading one (a `Date` parsed from SQLite's text) costs about as much as the
 * rest of the row's handling.
 */
export class KeysetRows<O> implements FetchedRows<O> {
  readonly rows: readonly O[];
  readonly #raw: readonly Row[];
  /** The plan's reader, which reads every field of a row in one call. */
  readonly #read: PositionReader;
  /** Whether the rows carry integers' exact text (a page that held a rounded one). */
  readonly #exact: boolean;
  readonly #capabilities: DialectCapabilities;
  /** Where the rows carry their tie groups (`tieGroups`): whether positions can tie at all. */
  readonly tied: ((a: number, b: number) => boolean) | undefined;

  constructor(
    rows: readonly O[],
    raw: readonly Row[],
    read: PositionReader,
    exact: boolean,
    capabilities: DialectCapabilities,
    ties: boolean,
  ) {
    this.rows = rows;
    this.#raw = raw;
    this.#read = read;
    this.#exact = exact;
    this.#capabilities = capabilities;
    this.tied = ties ? (a, b) => tieGroup(raw, a) === tieGroup(raw, b) : undefined;
  }

  position(index: number): readonly PositionValue[] {
    return this.positionsAt([index])[0]!;
  }

  positionsAt(indexes: readonly number[]): ReadonlyArray<readonly PositionValue[]> {
    const raw = this.#raw;
    const rows = indexes.map((index) => {
      const row = raw[index];
      if (row === undefined) throw new RangeError(`no row ${index} in a window of ${raw.length}`);
      return row;
    });
    return this.#read(rows, this.#exact, this.#capabilities);
  }
}

/** The tie group of the row at `index`, as text: drivers answer the rank as a number, bigint or string. */
function tieGroup(rows: readonly Row[], index: number): string {
  return String(rows[index]![TIE_COLUMN]);
}

/**
 * A row of `fetch`'s answer, its position read from the window when first asked for. A class, not
 * an object literal with a getter, which V8 makes ten times slower to build; `position` is on the
 * prototype, so a spread or `JSON.stringify` of the row object leaves it out.
 */
export class LazyWindowRow<O> implements WindowRow<O> {
  readonly row: O;
  readonly #window: FetchedRows<O>;
  readonly #index: number;
  #position: readonly PositionValue[] | undefined;

  constructor(window: FetchedRows<O>, index: number) {
    this.row = window.rows[index]!;
    this.#window = window;
    this.#index = index;
  }

  get position(): readonly PositionValue[] {
    this.#position ??= this.#window.position(this.#index);
    return this.#position;
  }
}

/**
 * `fetch`'s answer of a keyset window: a `WindowRow` per row, positions read when first asked for.
 * @example
 * return windowRows(await readKeysetWindow(host, plan, order, window));
 */
export function windowRows<O>(fetched: FetchedRows<O>): WindowRow<O>[] {
  const page = new Array<LazyWindowRow<O>>(fetched.rows.length);
  for (let i = 0; i < page.length; i += 1) page[i] = new LazyWindowRow(fetched, i);
  return page;
}
