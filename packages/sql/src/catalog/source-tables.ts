/**
 * A table the query reads from, as named in its FROM or JOIN.
 * @example
 * { name: 'articles', schema: undefined, alias: 'a' }
 */
export interface SourceTable {
  readonly name: string;
  readonly schema: string | undefined;
  readonly alias: string;
}

/**
 * The tables a query reads from and whether they are all (no derived table, no CTE): what an
 * adapter reads from its ORM's query tree for the catalog reads.
 * @example
 * { tables: [{ name: 'articles', schema: undefined, alias: 'articles' }], complete: true }
 */
export interface QueryTables {
  readonly tables: readonly SourceTable[];
  readonly complete: boolean;
}

/**
 * The key of `table` in the catalogs: `schema.table`.
 * @example
 * catalogKey({ name: 'items', schema: 'public', alias: 'i' }) // 'public.items'
 */
export function catalogKey(table: Pick<SourceTable, 'name' | 'schema'>): string {
  return `${table.schema ?? ''}.${table.name}`;
}
