import type { OperationNode } from 'kysely';

/** JSON cannot hold bigints; bytes would spell out every index. */
function keyValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array)
    return `0x${Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  return value;
}

/**
 * What a `CountCache` keys a Kysely query's count on: the adapter options that change SQL, the
 * statement's tree (tables, joins, filters, its own LIMIT/OFFSET; values replaced by slots) and
 * the values themselves. Two queries share a count only when all three agree; the database is
 * not part of it (share a cache per database).
 *
 * @example
 * countKey(planKey, node, [42]) // '["id",{},""]\u0000{"kind":"SelectQueryNode",...}\u0000[42]'
 */
export function countKey(planKey: string, node: OperationNode, values: readonly unknown[]): string {
  return `${planKey}\u0000${JSON.stringify(node, keyValue)}\u0000${JSON.stringify(values, keyValue)}`;
}
