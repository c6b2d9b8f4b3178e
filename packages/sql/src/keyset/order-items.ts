import type { KeyTerm, NullsPlacement } from '@pagewise/core';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import { type SqlPart, sql } from '../fragment/fragment.js';
import { nullsNative } from './segments.js';

/**
 * One ORDER BY item: an expression, its direction and, where the dialect writes it, its NULL
 * placement (`nulls first` / `nulls last`). An ORM lowers it into its own order item.
 * @example
 * { expr: node(created), direction: 'desc', nulls: 'last' } // "created" desc nulls last
 */
export interface OrderItem {
  readonly expr: SqlPart;
  readonly direction: 'asc' | 'desc';
  /** Written as a `NULLS` clause; absent: none. */
  readonly nulls?: NullsPlacement;
}

/** Why a term holds no NULL: its column cannot, or the segment's predicate excludes them. */
export type NonNull = 'column' | 'segment' | false;

/**
 * ORDER BY items for `terms`, keeping each term's NULL placement: native when the dialect
 * already sorts NULLs there, a `NULLS` clause where supported, else a leading `x IS NULL` key.
 * Terms known to be non-NULL get a plain item so the index order serves them, except where
 * indexes declare their placement (Postgres): there the clause stays, to match the index
 * written for the ordering.
 *
 * @example
 * orderByItems([{ field: 'score', direction: 'desc', nulls: 'last' }], [node(score)], () => false, mysqlCapabilities)
 * // [{ expr: `score` is null, direction: 'asc' }, { expr: `score`, direction: 'desc' }]
 */
export function orderByItems(
  terms: readonly KeyTerm[],
  exprs: readonly SqlPart[],
  nonNull: (index: number) => NonNull,
  capabilities: Pick<DialectCapabilities, 'nativeNulls' | 'nullsOrderingSyntax' | 'indexNullsOrder'>,
): OrderItem[] {
  const items: OrderItem[] = [];
  terms.forEach((term, i) => {
    const expr = exprs[i]!;
    const direction = term.direction;
    const known = nonNull(i);
    if (
      nullsNative(term, capabilities) ||
      known === 'column' ||
      (known === 'segment' && !capabilities.indexNullsOrder)
    ) {
      items.push({ expr, direction });
    } else if (capabilities.nullsOrderingSyntax) {
      items.push({ expr, direction, nulls: term.nulls });
    } else {
      items.push(
        { expr: sql`${expr} is null`, direction: term.nulls === 'last' ? 'asc' : 'desc' },
        { expr, direction },
      );
    }
  });
  return items;
}
