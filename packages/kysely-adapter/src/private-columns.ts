import { IdentifierNode } from 'kysely';

// The columns the adapter selects beside the query's own (positions it cannot read from the rows,
// integers' exact text, tie groups) and strips from the rows it answers. Their names hold no
// underscore and no capital letter, so a plugin that renames result columns (Kysely's
// CamelCasePlugin, under any of its options or a subclass's casing) leaves them as they are.

/** The column each row's tie group is answered in (`withTieGroups`). */
export const TIE_COLUMN = 'pagewisetie';

/** Whether `key` names one of the adapter's private columns. */
export function isPrivateColumn(key: string): boolean {
  return key.startsWith('pagewise') && /^pagewise(?:x?\d+|tie)$/.test(key);
}

/** The private column of the position of ordering term `index`, when rows do not carry it as it is. */
export function positionKey(index: number): string {
  return `pagewise${index}`;
}

/** The private column of the exact text of ordering term `index`'s integers (`exactIntegerText`). */
export function exactKey(index: number): string {
  return `pagewisex${index}`;
}

/** `positionKey(index)` as an alias node. */
export function privateAlias(index: number): IdentifierNode {
  return IdentifierNode.create(positionKey(index));
}
