import { ConfigurationError } from '@pagewise/core';
import type { AdapterName } from '../adapter-name.js';

/** A unique key as `OrderedQuery` offers it: one column as `uniqueKey`, several as `uniqueKeys`. */
export interface UniqueKeyColumns {
  /** The key's one column; `null` for none and for a composite key. */
  readonly uniqueKey: string | null;
  /** The columns of a composite key, in key order; `undefined` for a one-column key or none. */
  readonly uniqueKeys: readonly string[] | undefined;
}

/**
 * The adapters' `uniqueKey` option (`'id'`, `['tenant_id', 'id']` or `null`) as `OrderedQuery`
 * offers it: a list of one column is that column (its cursors are a one-column key's, byte for
 * byte); a composite key is frozen. A list that is empty, holds anything but names, or names a
 * column twice is a `ConfigurationError`.
 *
 * @example
 * uniqueKeyColumns(KYSELY, ['tenant_id', 'id']) // { uniqueKey: null, uniqueKeys: ['tenant_id', 'id'] }
 * uniqueKeyColumns(KYSELY, ['id']) // { uniqueKey: 'id', uniqueKeys: undefined }
 */
export function uniqueKeyColumns(
  adapter: AdapterName,
  option: string | readonly string[] | null,
): UniqueKeyColumns {
  if (option === null) return { uniqueKey: null, uniqueKeys: undefined };
  const keys: readonly unknown[] = typeof option === 'string' ? [option] : option;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((key) => typeof key === 'string' && key !== '') ||
    new Set(keys).size !== keys.length
  ) {
    throw new ConfigurationError(
      `${adapter.name} adapter: uniqueKey must be a column name or a list of distinct column names ` +
        `(e.g. ${adapter.factory}(query, { uniqueKey: ['tenant_id', 'id'] })), got ${JSON.stringify(option)}`,
    );
  }
  if (keys.length === 1) return { uniqueKey: keys[0] as string, uniqueKeys: undefined };
  return { uniqueKey: null, uniqueKeys: Object.freeze([...(keys as string[])]) };
}

/**
 * The columns of a session's (or query's) unique key in key order: `uniqueKeys`, else
 * `uniqueKey` alone, else none.
 *
 * @example
 * keyColumnsOf({ uniqueKey: 'id' }) // ['id']
 */
export function keyColumnsOf(key: {
  readonly uniqueKey: string | null;
  readonly uniqueKeys?: readonly string[] | undefined;
}): readonly string[] {
  const keys = key.uniqueKeys;
  if (keys !== undefined && keys.length > 0) return keys;
  return key.uniqueKey === null ? [] : [key.uniqueKey];
}

/**
 * A key as messages name it: `"id"`, or `["tenant_id", "id"]` for a composite one.
 *
 * @example
 * keyText(['tenant_id', 'id']) // '["tenant_id", "id"]'
 */
export function keyText(keys: readonly string[]): string {
  return keys.length === 1 ? `"${keys[0]}"` : `[${keys.map((key) => `"${key}"`).join(', ')}]`;
}

/**
 * The one column an insert reads its new row back by: the key's (`'id'` where there is none). A
 * composite key is a `ConfigurationError` before any SQL: its row could only be found again by
 * every key column, and `find` takes one.
 *
 * @example
 * insertKeyOf(KYSELY, { uniqueKey: null, uniqueKeys: ['tenant_id', 'id'] }) // throws ConfigurationError
 */
export function insertKeyOf(adapter: AdapterName, key: UniqueKeyColumns): string {
  if (key.uniqueKeys !== undefined) {
    throw new ConfigurationError(
      `${adapter.name} adapter: insert needs a one-column unique key to read the row back; this query's is ` +
        `${keyText(key.uniqueKeys)}: override create() for it`,
    );
  }
  return key.uniqueKey ?? 'id';
}
