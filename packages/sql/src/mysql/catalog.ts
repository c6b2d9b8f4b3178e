import { type SqlFragment, sql } from '../fragment/fragment.js';

/**
 * The catalog read of a MySQL/MariaDB table's columns (`CatalogRow`s): `column_type`,
 * nullability, and its primary key and unique indexes (none for a view).
 * @example
 * mysqlCatalogQuery('items', undefined) // select column_name as name, ... where table_schema = coalesce(?, database()) ...
 */
export function mysqlCatalogQuery(table: string, schema: string | undefined): SqlFragment {
  return sql`select column_name as name, lower(column_type) as type, (is_nullable = 'YES') as nullable,
      (select case when t.table_type = 'BASE TABLE' then coalesce(
          (select json_arrayagg(json_array(s.index_name, s.column_name, s.index_name = 'PRIMARY')) from information_schema.statistics s
            where s.table_schema = t.table_schema and s.table_name = t.table_name and s.non_unique = 0),
          json_array()) end
        from information_schema.tables t
        where t.table_schema = coalesce(${schema ?? null}, database()) and t.table_name = ${table}) as uniques
      from information_schema.columns
      where table_schema = coalesce(${schema ?? null}, database()) and table_name = ${table}`;
}

/**
 * The index columns of a table (`IndexColumnRow`s), for the index keyset statements name.
 * @example
 * mysqlIndexQuery('items', undefined) // select * from information_schema.statistics where ...
 */
export function mysqlIndexQuery(table: string, schema: string | undefined): SqlFragment {
  return sql`select * from information_schema.statistics
      where table_schema = coalesce(${schema ?? null}, database()) and table_name = ${table}`;
}

/**
 * Whether `error` says a statement named an index its table no longer has (1176,
 * `ER_KEY_DOES_NOT_EXITS`).
 * @example
 * mysqlIndexGone({ errno: 1176 }) // true
 */
export function mysqlIndexGone(error: unknown): boolean {
  return (error as { errno?: unknown } | null)?.errno === 1176;
}
