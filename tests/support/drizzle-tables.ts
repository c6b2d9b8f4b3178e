import { datetime, int, longtext, bigint as mysqlBigint, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import {
  bigint as pgBigint,
  integer as pgInteger,
  pgTable,
  text as pgText,
  timestamp,
} from 'drizzle-orm/pg-core';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { DrizzleTestDatabase } from './drizzle-databases.js';
import type { ColumnSpec, Dataset } from './tables.js';

/**
 * The Drizzle schema of a table `createTable` made from `dataset`: `id` the integer primary key,
 * each column of the dataset under its own name, in Drizzle's default modes (`Date` timestamps)
 * but for bigints, read as bigints as the suites' rows hold them.
 */
// biome-ignore lint/suspicious/noExplicitAny: the table's columns are known at run time only.
export function drizzleTable(database: DrizzleTestDatabase, name: string, dataset: Dataset): any {
  const columns = Object.entries(dataset.columns);
  if (database.dialect === 'postgres') {
    return pgTable(name, {
      id: pgInteger('id').primaryKey(),
      ...Object.fromEntries(columns.map(([key, spec]) => [key, notNull(pgColumn(key, spec), spec)])),
    });
  }
  if (database.dialect === 'mysql') {
    return mysqlTable(name, {
      id: int('id').primaryKey(),
      ...Object.fromEntries(columns.map(([key, spec]) => [key, notNull(mysqlColumn(key, spec), spec)])),
    });
  }
  return sqliteTable(name, {
    id: integer('id').primaryKey(),
    ...Object.fromEntries(columns.map(([key, spec]) => [key, notNull(sqliteColumn(key, spec), spec)])),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: column builders of three dialects.
function notNull(column: any, spec: ColumnSpec): any {
  return spec.nullable ? column : column.notNull();
}

function pgColumn(key: string, spec: ColumnSpec) {
  switch (spec.type) {
    case 'int':
      return pgInteger(key);
    case 'bigint':
      return pgBigint(key, { mode: 'bigint' });
    case 'text':
    case 'longtext':
      return pgText(key);
    case 'date':
      return timestamp(key, { withTimezone: true, precision: 3 });
  }
}

function mysqlColumn(key: string, spec: ColumnSpec) {
  switch (spec.type) {
    case 'int':
      return int(key);
    case 'bigint':
      return mysqlBigint(key, { mode: 'bigint' });
    case 'text':
      return varchar(key, { length: 191 });
    case 'longtext':
      return longtext(key);
    case 'date':
      return datetime(key, { fsp: 3 });
  }
}

function sqliteColumn(key: string, spec: ColumnSpec) {
  switch (spec.type) {
    case 'int':
    case 'bigint':
      return integer(key);
    case 'text':
    case 'longtext':
    case 'date':
      return text(key);
  }
}
