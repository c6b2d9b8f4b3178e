// The columns the adapter selects beside the query's own (positions it cannot read from the rows,
// integers' exact text, tie groups) and strips from the rows it answers. Their names hold no
// underscore and no capital letter, so a plugin that renames result columns (Kysely's
// CamelCasePlugin, under any of its options or a subclass's casing) leaves them as they are.

/** The column each row's tie group is answered in (`KeysetStatement.tieGroups`). */
export const TIE_COLUMN = 'pagewisetie';

/** The column saying which row of a statement read with tie groups is its look-ahead row (`TieGroups.lookAhead`). */
export const AHEAD_COLUMN = 'pagewiseahead';

/**
 * Whether `key` names one of the adapter's private columns.
 * @example
 * isPrivateColumn('pagewisex0') // true
 */
export function isPrivateColumn(key: string): boolean {
  return key.startsWith('pagewise') && /^pagewise(?:[xk]?\d+|tie|ahead)$/.test(key);
}

/**
 * The private column of the position of ordering term `index`, when rows do not carry it as it is.
 * @example
 * positionKey(0) // 'pagewise0'
 */
export function positionKey(index: number): string {
  return `pagewise${index}`;
}

/**
 * The private column of the exact text of ordering term `index`'s integers (`exactIntegerText`).
 * @example
 * exactKey(0) // 'pagewisex0'
 */
export function exactKey(index: number): string {
  return `pagewisex${index}`;
}
