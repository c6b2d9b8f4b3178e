import { compareCodePoints } from '../url/query-string.js';
import type { PositionValue } from './ordered-query.js';
import type { KeyTerm } from './ordering.js';

/** The kinds of value an ordering field can hold; a bound must be of its column's kind. */
export type ValueKind = 'boolean' | 'number' | 'string' | 'date';

/** Kind of a non-null position value (`bigint` and `number` are both numbers). */
export function kindOf(value: Exclude<PositionValue, null>): ValueKind {
  if (typeof value === 'bigint') return 'number';
  if (value instanceof Date) return 'date';
  return typeof value as ValueKind;
}

const KIND_RANK: Record<ValueKind, number> = { boolean: 0, number: 1, string: 2, date: 3 };

/**
 * Orders two non-null values the way the databases' binary collations do: numbers numerically
 * (bigint and number mixed), strings by code point, dates by instant, false before true. Values of
 * different kinds order by kind, so even a forged bound gives a deterministic answer.
 */
export function compareValues(a: Exclude<PositionValue, null>, b: Exclude<PositionValue, null>): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return KIND_RANK[ka] - KIND_RANK[kb];
  if (ka === 'string') return compareStrings(a as string, b as string);
  const x = a instanceof Date ? a.getTime() : (a as number | bigint | boolean);
  const y = b instanceof Date ? b.getTime() : (b as number | bigint | boolean);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Code-point order without allocating: surrogates (astral characters) sort above U+E000..U+FFFF. */
export const compareStrings: (a: string, b: string) => number = compareCodePoints;

/** Compares two values under one ordering term, NULL placement included. */
export function compareUnderTerm(term: KeyTerm, a: PositionValue, b: PositionValue): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    const nullFirst = term.nulls === 'first';
    return a === null ? (nullFirst ? -1 : 1) : nullFirst ? 1 : -1;
  }
  const c = compareValues(a, b);
  return term.direction === 'asc' ? c : -c;
}

/** Compares two positions (one value per term) under a whole ordering. */
export function comparePositions(
  terms: readonly KeyTerm[],
  a: readonly PositionValue[],
  b: readonly PositionValue[],
): number {
  for (let i = 0; i < terms.length; i += 1) {
    const c = compareUnderTerm(terms[i]!, a[i] ?? null, b[i] ?? null);
    if (c !== 0) return c;
  }
  return 0;
}
