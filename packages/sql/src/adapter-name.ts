/**
 * The adapter ORM-free code works for, as its messages name it: errors say which adapter and
 * which factory call to fix (`kysely adapter: ...`, `fromKysely(query, { uniqueKey: 'id' })`).
 * @example
 * const KYSELY: AdapterName = { name: 'kysely', factory: 'fromKysely' };
 */
export interface AdapterName {
  /** `OrderedQuery.adapter`, and the messages' `<name> adapter:` prefix. */
  readonly name: string;
  /** The factory a user calls, for the fixes the messages suggest. */
  readonly factory: string;
}

/**
 * The name ORM-free code uses where no adapter gave one (its own unit tests, direct calls).
 * @example
 * toParameters(fields, bound, sqliteCapabilities, SQL_ADAPTER)
 */
export const SQL_ADAPTER: AdapterName = Object.freeze({ name: 'sql', factory: 'fromSql' });
