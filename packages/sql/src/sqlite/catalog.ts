import { type SqlFragment, sql } from '../fragment/fragment.js';

/**
 * The catalog read of a SQLite table's columns (`CatalogRow`s): declared type, nullability, and
 * its primary key and unique indexes (none for a virtual table; partial indexes left out).
 * @example
 * sqliteCatalogQuery('items') // select t.name, lower(t.type) as type, ... from pragma_table_info(?) as t
 */
export function sqliteCatalogQuery(table: string): SqlFragment {
  return sql`select t.name, lower(t.type) as type, (t."notnull" = 0 and t.pk = 0) as nullable,
      (select case when exists (select 1 from sqlite_master m where m.type = 'table'
          and m.name = ${table} collate nocase and m.sql not like 'create virtual%'
          union all select 1 from sqlite_temp_master m where m.type = 'table'
          and m.name = ${table} collate nocase and m.sql not like 'create virtual%')
        then (select json_group_array(json_array(u.idx, u.col, json(u.pk))) from (
          select l.name as idx, i.name as col, case when l.origin = 'pk' then 'true' else 'false' end as pk
            from pragma_index_list(${table}) as l, pragma_index_info(l.name) as i
            where l."unique" = 1 and l.partial = 0
          union all select 'PRIMARY KEY', p.name, 'true' from pragma_table_info(${table}) as p where p.pk > 0) as u)
        end) as uniques
      from pragma_table_info(${table}) as t`;
}
