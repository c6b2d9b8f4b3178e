/**
 * One row of a catalog query: a column name, its declared type and whether it may hold NULL.
 * @example
 * { name: 'created', type: 'timestamp(3) with time zone', nullable: false }
 */
export interface CatalogRow {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean | number | bigint | string;
  /** An enum's labels as a JSON array, in declaration order. @default undefined */
  readonly labels?: string | null;
  /**
   * The kind of the column's table where the catalog says (Postgres `relkind`: `r` an ordinary
   * table, `p` partitioned, `f` foreign, `v` a view). @default undefined
   */
  readonly relkind?: string | null;
  /**
   * The table's primary key and unique indexes, the same on every row: a JSON array of `[index,
   * column, primary]` triples, one per key column (no `INCLUDE` column; `null` for an
   * expression), partial indexes left out. NULL where the catalog cannot say which rows are
   * unique (a view, a foreign table, a partitioned one with foreign partitions, a virtual table).
   * @default undefined
   * @example
   * '[["items_pkey","id",true],["items_category_seq","category",false],["items_category_seq","seq",false]]'
   */
  readonly uniques?: string | readonly unknown[] | null;
}

/**
 * Whether a catalog row's column may hold NULL: drivers answer the flag as a boolean, a number,
 * a bigint (better-sqlite3 with safe integers) or text.
 * @example
 * catalogNullable({ name: 'code', type: 'text', nullable: 't' }) // true
 */
export function catalogNullable(row: CatalogRow): boolean {
  const flag = row.nullable;
  return flag === true || flag === 1 || flag === 1n || flag === '1' || flag === 't';
}

/**
 * One column of one index, as `information_schema.statistics` lists it (MySQL and MariaDB name
 * the columns in upper case); `IGNORED` (MariaDB) and `IS_VISIBLE` (MySQL) where the server has them.
 */
export interface IndexColumnRow {
  readonly INDEX_NAME: string;
  readonly SEQ_IN_INDEX: number | string;
  readonly COLUMN_NAME: string | null;
  /** `A`scending, `D`escending, or NULL (not sorted). */
  readonly COLLATION: string | null;
  /** The length of a prefix index's part, NULL for the whole column. */
  readonly SUB_PART: number | string | null;
  readonly IGNORED?: string;
  readonly IS_VISIBLE?: string;
}
