import { type SqlFragment, sql } from '../fragment/fragment.js';

/**
 * The catalog read of a Postgres table's columns (`CatalogRow`s): type, nullability, the table's
 * kind, an enum's labels, and its primary key and unique indexes where they decide which rows are
 * unique (none for a foreign table or a partitioned one with foreign partitions).
 *
 * @example
 * postgresCatalogQuery('items', 'public') // select a.attname as name, ... where a.attrelid = to_regclass($1) ...
 */
export function postgresCatalogQuery(table: string, schema: string | undefined): SqlFragment {
  const qualified = [schema, table]
    .filter((part) => part !== undefined)
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');
  return sql`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
      not a.attnotnull as nullable,
      (select cast(c.relkind as text) from pg_class c where c.oid = a.attrelid) as relkind,
      (select cast(json_agg(e.enumlabel order by e.enumsortorder) as text) from pg_enum e
        where e.enumtypid = a.atttypid) as labels,
      (select case when c.relkind in ('r', 'm', 'p') and not exists (
          with recursive tree(oid) as (select c.oid
            union all select h.inhrelid from pg_inherits h join tree on h.inhparent = tree.oid)
          select 1 from tree join pg_class f on f.oid = tree.oid
          where f.relkind = 'f' or (c.relkind <> 'p' and f.oid <> c.oid))
        then coalesce((select cast(json_agg(json_build_array(x.relname, k.attname, i.indisprimary,
            coalesce(cast(to_jsonb(i) ->> 'indnullsnotdistinct' as boolean), false))) as text)
          from pg_index i join pg_class x on x.oid = i.indexrelid
          cross join generate_series(0, i.indnkeyatts - 1) as n
          left join pg_attribute k on k.attrelid = i.indrelid and k.attnum = i.indkey[n] and k.attnum > 0
          where i.indrelid = c.oid and i.indisunique and i.indisvalid and i.indpred is null), '[]') end
        from pg_class c where c.oid = a.attrelid) as uniques
      from pg_attribute a
      where a.attrelid = to_regclass(${qualified}) and a.attnum > 0 and not a.attisdropped`;
}

/**
 * The planner's row estimate from the first row of `EXPLAIN (FORMAT JSON)`, `null` without one.
 * @example
 * postgresEstimate({ 'QUERY PLAN': [{ Plan: { 'Plan Rows': 1200.4 } }] }) // 1200
 */
export function postgresEstimate(row: Record<string, unknown>): number | null {
  const raw = row['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
    Plan?: { 'Plan Rows'?: unknown };
  }>;
  const rows = plan[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' ? Math.round(rows) : null;
}
