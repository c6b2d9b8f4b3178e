import type { Dataset } from './tables.js';

const HOUR = 3_600_000;
const BASE = Date.UTC(2024, 0, 1);
/** Code-point traps: case, accents, full-width, astral characters, trailing spaces, the empty string. */
const NAMES = [
  'apple',
  'Apple',
  'banana',
  'éclair',
  'Zebra',
  'zebra',
  '~tilde',
  'ａfull',
  '😀emoji',
  'a',
  'a ',
  '',
  '\u{FFFD}x',
];

/** DRF's duplicate-heavy list from `tests/test_pagination.py`. */
export const DRF_VALUES = [
  1, 1, 1, 1, 1, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 9, 9, 9, 9, 9, 9,
];

/**
 * 23 rows in a shuffled id order with duplicate dates, bigints and names, and a nullable score:
 * everything a keyset walk can trip over.
 */
export function itemsDataset(): Dataset {
  const rows = Array.from({ length: 23 }, (_, k) => {
    const id = ((k * 10) % 23) + 1;
    return {
      id,
      created: new Date(BASE + ((id * 7) % 9) * HOUR + (id % 2)),
      score: id % 5 === 0 ? null : (id * 3) % 7,
      name: NAMES[id % NAMES.length]!,
      big: 9_000_000_000_000n + BigInt((id * 13) % 11) * 1_000_000_007n,
    };
  });
  return {
    columns: {
      created: { type: 'date' },
      score: { type: 'int', nullable: true },
      name: { type: 'text' },
      big: { type: 'bigint' },
    },
    rows,
  };
}

/** DRF's list as `created` values, ids in list order. */
export function drfDataset(): Dataset {
  return {
    columns: { created: { type: 'int' } },
    rows: DRF_VALUES.map((created, i) => ({ id: i + 1, created })),
  };
}

/** `count` rows of the items shape. */
export function smallDataset(count: number): Dataset {
  const items = itemsDataset();
  return { columns: items.columns, rows: items.rows.slice(0, count) };
}
