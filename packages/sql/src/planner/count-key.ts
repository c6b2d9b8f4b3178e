/** JSON cannot hold bigints; bytes would spell out every index. */
function keyValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array)
    return `0x${Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  return value;
}

/**
 * What a `CountCache` keys an ORM query's count on: the adapter options that change SQL, the
 * statement's shape (its tree as JSON: tables, joins, filters, its own LIMIT/OFFSET; values
 * replaced by slots) and the values themselves. Two queries share a count only when all three
 * agree; the database is not part of it (share a cache per database). The shape is the text the
 * statement cache already keys the query's compiled statements on, written once per shape, not
 * once per request.
 *
 * @example
 * countKey(planKey, shape.key, [42]) // '["id",{},""]\u0000{"kind":"SelectQueryNode",...}\u0000[42]'
 */
export function countKey(planKey: string, shape: string, values: readonly unknown[]): string {
  return `${planKey}\u0000${shape}\u0000${JSON.stringify(values, keyValue)}`;
}
