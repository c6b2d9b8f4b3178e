import {
  datetime,
  int,
  longtext,
  bigint as mysqlBigint,
  primaryKey as mysqlPrimaryKey,
  mysqlTable,
  unique as mysqlUnique,
  varchar,
} from 'drizzle-orm/mysql-core';
import {
  bigint as pgBigint,
  integer as pgInteger,
  primaryKey as pgPrimaryKey,
  pgTable,
  text as pgText,
  unique as pgUnique,
  timestamp,
} from 'drizzle-orm/pg-core';
import {
  integer,
  primaryKey as sqlitePrimaryKey,
  sqliteTable,
  unique as sqliteUnique,
  text,
} from 'drizzle-orm/sqlite-core';
import type { DrizzleTestDatabase } from './drizzle-databases.js';
import type { ColumnSpec, Dataset } from './tables.js';

/**
 * The Drizzle schema of a table `createTable` made from `dataset`: `id` the integer primary key
 * (or `dataset.primaryKey` as `primaryKey({ columns })`, and `dataset.uniques` as `unique().on()`),
 * each column of the dataset under its own name, in Drizzle's default modes (`Date` timestamps)
 * but for bigints, read as bigints as the suites' rows hold them.
 */
// biome-ignore lint/suspicious/noExplicitAny: the table's columns are known at run time only.
export function drizzleTable(database: DrizzleTestDatabase, name: string, dataset: Dataset): any {
  const columns = Object.entries(dataset.columns);
  const keyed = dataset.primaryKey;
  // biome-ignore lint/suspicious/noExplicitAny: columns of three dialects, by name.
  const pick = (table: any, names: readonly string[]) => names.map((n) => table[n]) as [any, ...any[]];
  // biome-ignore lint/suspicious/noExplicitAny: the constraint builders of three dialects.
  const extra = (primaryKey: any, unique: any) => (table: any) => [
    ...(keyed === undefined ? [] : [primaryKey({ columns: pick(table, keyed) })]),
    ...(dataset.uniques ?? []).map((u) => unique().on(...pick(table, u))),
  ];
  if (database.dialect === 'postgres') {
    const id = pgInteger('id');
    return pgTable(
      name,
      {
        id: keyed === undefined ? id.primaryKey() : id.notNull(),
        ...Object.fromEntries(columns.map(([key, spec]) => [key, notNull(pgColumn(key, spec), spec)])),
      },
      extra(pgPrimaryKey, pgUnique),
    );
  }
  if (database.dialect === 'mysql') {
    const id = int('id');
    return mysqlTable(
      name,
      {
        id: keyed === undefined ? id.primaryKey() : id.notNull(),
        ...Object.fromEntries(columns.map(([key, spec]) => [key, notNull(mysqlColumn(key, spec), spec)])),
      },
      extra(mysqlPrimaryKey, mysqlUnique),
    );
  }
  const id = integer('id');
  return sqliteTable(
    name,
    {
      id: keyed === undefined ? id.primaryKey() : id.notNull(),
      ...Object.fromEntries(columns.map(([key, spec]) => [key, notNull(sqliteColumn(key, spec), spec)])),
    },
    extra(sqlitePrimaryKey, sqliteUnique),
  );
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
