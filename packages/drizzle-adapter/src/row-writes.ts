import { ConfigurationError } from '@pagewise/core';
import { Column, getTableName, is, type SQL, sql, Table } from 'drizzle-orm';
import { type SelectConfig, selectionAt, tableColumns } from './builder-config.js';
import type { DrizzleDatabase } from './options.js';

// `ModelViewSet`'s default writes through the Drizzle database's own builders (`db.insert`,
// `db.update`, `db.delete`), so values go through the table's column modes as the app's own
// writes do. What the dialect answers a new row's key with is `@pagewise/sql`'s
// (`insertReturning`); what each driver answers a write with is read here.

/** A Drizzle query builder awaited for its result, with `returning` where the dialect has it. */
interface WriteBuilder extends PromiseLike<unknown> {
  returning?(fields: Record<string, Column>): PromiseLike<Array<Record<string, unknown>>>;
}

/** A Drizzle database's write builders, as far as the default writes use them. */
interface WritingDatabase {
  insert(table: Table): { values(values: Record<string, unknown>): WriteBuilder };
  update(table: Table): { set(values: Record<string, unknown>): { where(where: SQL): WriteBuilder } };
  delete(table: Table): { where(where: SQL): WriteBuilder };
}

/** The select whose one table `ModelViewSet`'s default writes go to. */
export interface WriteTarget {
  readonly db: DrizzleDatabase;
  readonly config: SelectConfig;
  readonly description: string;
  /** The dialect's `insertReturning`. */
  readonly returning: boolean;
}

interface Resolved {
  readonly db: WritingDatabase;
  readonly table: Table;
  readonly columns: Readonly<Record<string, Column>>;
  readonly write: WriteTarget;
}

/** The database and the table writes go to; a select over joins, a view or a subquery has no single table. */
function target(write: WriteTarget): Resolved {
  const table = write.config.table;
  if (!is(table, Table) || (write.config.joins?.length ?? 0) > 0) {
    throw new ConfigurationError(
      `drizzle adapter: writes need fromDrizzle(select, { db }) over one table (${write.description} ` +
        'reads several tables, or none); give the viewset performCreate / performUpdate / performDestroy hooks',
    );
  }
  return { db: write.db as unknown as WritingDatabase, table, columns: tableColumns(table) ?? {}, write };
}

/** The table's TypeScript key of a result key: the column the selection holds under it, else a column of that key. */
function tableKey({ table, columns, write }: Resolved, field: string): string {
  const entry = selectionAt(write.config.fields, field);
  if (is(entry, Column) && getTableName(entry.table) === getTableName(table)) {
    for (const [key, column] of Object.entries(columns)) if (column.name === entry.name) return key;
  }
  if (Object.hasOwn(columns, field)) return field;
  throw new ConfigurationError(
    `drizzle adapter: ${write.description} cannot write "${field}": the selection holds no column of ` +
      `"${getTableName(table)}" under it`,
  );
}

/** `values` by result keys as the table's values by its TypeScript keys. */
function tableValues(resolved: Resolved, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) row[tableKey(resolved, field)] = value;
  return row;
}

/** `<column> = <parameter>`, the parameter bound as the catalog typed it (not through the column's mode). */
function equals(resolved: Resolved, field: string, parameter: unknown): SQL {
  return sql`${resolved.columns[tableKey(resolved, field)]} = ${parameter}`;
}

/** How many rows a write changed, as each driver says: pg's `rowCount`, PGlite's and mysql2's `affectedRows`, better-sqlite3's `changes`. */
function changedRows(result: unknown): number {
  const first = (Array.isArray(result) ? result[0] : result) as
    | { rowCount?: unknown; affectedRows?: unknown; changes?: unknown }
    | undefined;
  return Number(first?.rowCount ?? first?.affectedRows ?? first?.changes ?? 0);
}

/**
 * `insert into <table> (...) values (...)`, answering the new row's key (the result key `key`):
 * `returning <key>` where the dialect has RETURNING (Postgres, SQLite), else the driver's insert id (MySQL).
 * @example
 * await insertRow(write, 'id', { name: 'Ada' }) // insert into "people" ("id", "name") values (default, $1) returning "id"
 */
export async function insertRow(
  write: WriteTarget,
  key: string,
  values: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  const resolved = target(write);
  const builder = resolved.db.insert(resolved.table).values(tableValues(resolved, values));
  if (values[key] !== undefined) {
    await builder;
    return values[key];
  }
  if (write.returning && builder.returning !== undefined) {
    const rows = await builder.returning({ key: resolved.columns[tableKey(resolved, key)]! });
    return rows[0]?.key;
  }
  const result = (await builder) as Array<{ insertId?: unknown }> | { insertId?: unknown };
  return (Array.isArray(result) ? result[0] : result)?.insertId;
}

/** `update <table> set ... where <field> = $1`, answering how many rows changed. */
export async function updateRows(
  write: WriteTarget,
  field: string,
  parameter: unknown,
  values: Readonly<Record<string, unknown>>,
): Promise<number> {
  if (Object.keys(values).length === 0) return 0;
  const resolved = target(write);
  const set = tableValues(resolved, values);
  return changedRows(
    await resolved.db
      .update(resolved.table)
      .set(set)
      .where(equals(resolved, field, parameter)),
  );
}

/** `delete from <table> where <field> = $1`, answering how many rows went. */
export async function deleteRows(write: WriteTarget, field: string, parameter: unknown): Promise<number> {
  const resolved = target(write);
  return changedRows(await resolved.db.delete(resolved.table).where(equals(resolved, field, parameter)));
}
