import { sql } from 'kysely';
import type { TestDatabase } from './databases.js';

/** Column types the suites use; each maps to a real type per database. */
export type ColumnType = 'int' | 'bigint' | 'text' | 'longtext' | 'date';

/** One test column. */
export interface ColumnSpec {
  readonly type: ColumnType;
  readonly nullable?: boolean;
}

/** A table's columns (`id` is always an integer column) and rows as the memory adapter holds them. */
export interface Dataset {
  readonly columns: Readonly<Record<string, ColumnSpec>>;
  readonly rows: ReadonlyArray<Record<string, unknown>>;
  /** The primary key's columns (a composite key: `['tenant_id', 'id']`). @default ['id'] */
  readonly primaryKey?: readonly string[];
  /** Unique indexes besides the primary key, each its columns. @default [] */
  readonly uniques?: ReadonlyArray<readonly string[]>;
}

function sqlType(database: TestDatabase, spec: ColumnSpec): string {
  const { dialect, binaryCollation } = database;
  switch (spec.type) {
    case 'int':
      return 'integer';
    case 'bigint':
      return 'bigint';
    // Binary collations so every database orders strings by code point, as the memory adapter does.
    case 'text':
      if (dialect === 'postgres') return 'text collate "C"';
      if (dialect === 'mysql') return `varchar(191) character set utf8mb4 collate ${binaryCollation}`;
      return 'text';
    // Values past varchar(191) (MariaDB's indexable length): long cursor positions.
    case 'longtext':
      if (dialect === 'postgres') return 'text collate "C"';
      if (dialect === 'mysql') return `text character set utf8mb4 collate ${binaryCollation}`;
      return 'text';
    case 'date':
      if (dialect === 'postgres') return 'timestamptz(3)';
      if (dialect === 'mysql') return 'datetime(3)';
      return 'datetime';
  }
}

/** Creates `table` (dropping an older one) and inserts `dataset.rows` in their array order. */
export async function createTable(database: TestDatabase, table: string, dataset: Dataset): Promise<void> {
  const { db } = database;
  await sql`drop table if exists ${sql.table(table)}`.execute(db);
  const columns = Object.entries(dataset.columns).map(
    ([name, spec]) =>
      `${quote(database, name)} ${sqlType(database, spec)}${spec.nullable ? '' : ' not null'}`,
  );
  const keyed = dataset.primaryKey;
  const id = keyed === undefined ? 'integer primary key' : 'integer not null';
  const constraints = [
    ...(keyed === undefined ? [] : [`primary key (${keyed.map((c) => quote(database, c)).join(', ')})`]),
    ...(dataset.uniques ?? []).map((u) => `unique (${u.map((c) => quote(database, c)).join(', ')})`),
  ];
  await sql
    .raw(
      `create table ${quote(database, table)} (${quote(database, 'id')} ${id}, ${[...columns, ...constraints].join(', ')})`,
    )
    .execute(db);
  const rows = dataset.rows.map((row) => toStored(database, row));
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** Drops `table`. */
export async function dropTable(database: TestDatabase, table: string): Promise<void> {
  await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
}

export function quote(database: TestDatabase, name: string): string {
  return database.dialect === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

function toStored(database: TestDatabase, row: Record<string, unknown>): Record<string, unknown> {
  if (database.dialect !== 'sqlite') return row;
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  );
}

/** A row read back from any database in the memory adapter's representation. */
export function normalizeRow(dataset: Dataset, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: Number(row.id) };
  for (const [name, spec] of Object.entries(dataset.columns)) {
    const value = row[name];
    if (value === null || value === undefined) {
      out[name] = null;
      continue;
    }
    switch (spec.type) {
      case 'int':
        out[name] = Number(value);
        break;
      case 'bigint':
        out[name] = BigInt(value as string | number | bigint);
        break;
      case 'text':
      case 'longtext':
        out[name] = String(value);
        break;
      case 'date':
        out[name] = value instanceof Date ? value : new Date(value as string);
        break;
    }
  }
  return out;
}
