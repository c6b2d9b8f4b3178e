import type { KeyTerm } from '@pagewise/core';
import type { DialectCapabilities } from '../dialect/capabilities.js';
import type { SqlPart } from '../fragment/fragment.js';
import { type OrderItem, orderByItems } from '../keyset/order-items.js';

/**
 * The ORDER BY items of an offset window (plain or deferred-join) under `order`, planned as `plan`
 * says: core's NULL placement, and none for columns the catalog knows to be NOT NULL, which keeps
 * the index order usable.
 * @example
 * offsetOrderItems([{ field: 'created', direction: 'desc', nulls: 'first' }], plan, postgresCapabilities)
 * // [{ expr: created, direction: 'desc' }] for a NOT NULL "created"
 */
export function offsetOrderItems(
  order: readonly KeyTerm[],
  plan: { readonly exprs: readonly SqlPart[]; readonly nullable: readonly boolean[] },
  capabilities: DialectCapabilities,
): OrderItem[] {
  return orderByItems(order, plan.exprs, (i) => (plan.nullable[i] ? false : 'column'), capabilities);
}
