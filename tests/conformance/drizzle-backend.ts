import { fromDrizzle } from '@pagewise/drizzle-adapter';
import type { OrderedQuery } from '@pagewise/rest';
import { asc } from 'drizzle-orm';
import { int, customType as mysqlCustomType, mysqlTable } from 'drizzle-orm/mysql-core';
import { customType as pgCustomType, integer as pgInteger, pgTable } from 'drizzle-orm/pg-core';
import { integer, customType as sqliteCustomType, sqliteTable } from 'drizzle-orm/sqlite-core';
import { describeDatabase, tableName } from '../support/databases.js';
import {
  type DrizzleDatabaseName,
  type DrizzleTestDatabase,
  drizzleTarget,
} from '../support/drizzle-databases.js';
import { drizzleTable } from '../support/drizzle-tables.js';
import { createTable, type Dataset, dropTable } from '../support/tables.js';
import { type BackendOptions, type ConformanceBackend, conformanceCases } from './conformance-suite.js';
import { slicedBuilderCases } from './sliced-builder-cases.js';
import { sqlMatrixBackend, typeMatrixCases } from './type-matrix.js';
import { viewsetCases } from './viewset-cases.js';

/**
 * The conformance cases of the Kysely adapter, run on the Drizzle adapter over drizzle-orm's own
 * driver of `name`: the same pages and the same links (cursor tokens) as the memory reference, so
 * as Kysely's; the sliced builders; the viewsets (ModelViewSet's default writes through the adapter); and the type matrix, every type walked both ways in the
 * database's own order. Each drizzle-<name>.test.ts is this one call.
 */
export function drizzleConformance(name: DrizzleDatabaseName): void {
  const target = drizzleTarget(name);
  const backend = (suffix: string) => async () =>
    drizzleBackend(await target.open(), tableName(`pw_dz_conf_${name}${suffix}`));
  describeDatabase(target, 'conformance (drizzle)', () => {
    conformanceCases(`drizzle-${target.name}`, backend(''));
    slicedBuilderCases(`drizzle-${target.name}`, backend('_slice'));
    viewsetCases(`drizzle-${target.name}`, backend('_vs'));
    typeMatrixCases(async () => {
      const database = await target.open();
      return sqlMatrixBackend(
        database,
        (table) => drizzleMatrixQuery(database, table),
        `drizzle-${target.name}`,
      );
    }, `drizzle-${target.name}`);
  });
}

/**
 * A database behind the Drizzle adapter: the same tables `sqlBackend` pages through Kysely
 * (`<prefix>_<key>`, created by the shared support), selected with Drizzle's builder over
 * drizzle-orm's own driver of the same connection.
 */
export function drizzleBackend(database: DrizzleTestDatabase, prefix: string): ConformanceBackend {
  const loaded = new Map<string, Promise<void>>();
  // biome-ignore lint/suspicious/noExplicitAny: the table's columns are known at run time only.
  const load = async (key: string, dataset: Dataset): Promise<any> => {
    const table = `${prefix}_${key}`;
    if (!loaded.has(table)) loaded.set(table, createTable(database, table, dataset));
    await loaded.get(table);
    return drizzleTable(database, table, dataset);
  };
  const db = database.drizzle;
  // The tables are defined at run time: their rows are records.
  const paged = (select: unknown, options?: BackendOptions & { readonly uniqueKey?: readonly string[] }) =>
    fromDrizzle(select as never, { db, ...options }) as OrderedQuery<Record<string, unknown>>;
  return {
    name: `drizzle-${database.name}`,
    canBeUnordered: true,
    query: async (key, dataset, options) => paged(db.select().from(await load(key, dataset)), options),
    orderedById: async (key, dataset) => {
      const table = await load(key, dataset);
      return paged(db.select().from(table).orderBy(asc(table.id)));
    },
    sliced: async (key, dataset, { limit, offset }) => {
      const table = await load(key, dataset);
      const builder = db.select().from(table).orderBy(table.id).limit(limit);
      return paged(offset === undefined ? builder : builder.offset(offset));
    },
    // Without `uniqueKey`, the adapter's default: the schema's `primaryKey({ columns })`.
    keyed: async (key, dataset, { uniqueKey, select, deferredJoin }) => {
      const table = await load(key, dataset);
      const fields = select === undefined ? undefined : Object.fromEntries(select.map((c) => [c, table[c]]));
      return paged((fields === undefined ? db.select() : db.select(fields)).from(table), {
        ...(uniqueKey === undefined ? {} : { uniqueKey }),
        ...(deferredJoin === undefined ? {} : { deferredJoin }),
      });
    },
    close: async () => {
      for (const table of loaded.keys()) await dropTable(database, table);
      await database.close();
    },
  };
}

/**
 * The Drizzle query of a type matrix table (`id integer primary key, v <type>`): `v` a custom
 * column that hands rows the driver's values, whatever the type, so the matrix checks positions
 * (read by the adapter from the database column) and not a Drizzle mode.
 */
export function drizzleMatrixQuery(
  database: DrizzleTestDatabase,
  table: string,
): OrderedQuery<Record<string, unknown>> {
  const db = database.drizzle;
  const raw = { dataType: () => 'v' };
  const schema =
    database.dialect === 'postgres'
      ? pgTable(table, { id: pgInteger('id').primaryKey(), v: pgCustomType<{ data: unknown }>(raw)('v') })
      : database.dialect === 'mysql'
        ? mysqlTable(table, { id: int('id').primaryKey(), v: mysqlCustomType<{ data: unknown }>(raw)('v') })
        : sqliteTable(table, {
            id: integer('id').primaryKey(),
            v: sqliteCustomType<{ data: unknown }>(raw)('v'),
          });
  return fromDrizzle(db.select().from(schema) as never, { db }) as OrderedQuery<Record<string, unknown>>;
}
