import { ConfigurationError } from '@pagewise/core';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: writes go to a table named at run time.
type AnyKysely = Kysely<any>;

/** The one table a builder reads, which `ModelViewSet`'s default writes go to. */
export interface WriteTarget {
  readonly db: AnyKysely | undefined;
  /** The FROM tables and joins of the builder. */
  readonly tables: ReadonlyArray<{ readonly name: string; readonly schema: string | undefined }>;
  readonly description: string;
}

/** The Kysely instance and the table writes go to; a builder over joins has no single table. */
function target({ db, tables, description }: WriteTarget): { db: AnyKysely; table: string } {
  const table = tables[0];
  if (db === undefined || table === undefined || tables.length !== 1) {
    throw new ConfigurationError(
      `kysely adapter: writes need fromKysely(builder, { db }) over one table (${description} ` +
        `${db === undefined ? 'was given no db' : 'reads several tables'}); pass db, or give the ` +
        'viewset performCreate / performUpdate / performDestroy hooks',
    );
  }
  return { db: table.schema ? db.withSchema(table.schema) : db, table: table.name };
}

/**
 * `insert into <table> (...) values (...)`, answering the new row's key: `returning <key>` where
 * the dialect has RETURNING (Postgres, SQLite), else the driver's insert id (MySQL).
 */
export async function insertRow(
  write: WriteTarget,
  key: string,
  values: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  const { db, table } = target(write);
  if (values[key] !== undefined) {
    await db.insertInto(table).values(values).execute();
    return values[key];
  }
  if (db.getExecutor().adapter.supportsReturning) {
    const row = await db.insertInto(table).values(values).returning(key).executeTakeFirstOrThrow();
    return (row as Record<string, unknown>)[key];
  }
  const result = await db.insertInto(table).values(values).executeTakeFirstOrThrow();
  return result.insertId;
}

/** `update <table> set ... where <field> = $1`, answering how many rows changed. */
export async function updateRows(
  write: WriteTarget,
  field: string,
  parameter: unknown,
  values: Readonly<Record<string, unknown>>,
): Promise<number> {
  const { db, table } = target(write);
  if (Object.keys(values).length === 0) return 0;
  const result = await db.updateTable(table).set(values).where(field, '=', parameter).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** `delete from <table> where <field> = $1`, answering how many rows went. */
export async function deleteRows(write: WriteTarget, field: string, parameter: unknown): Promise<number> {
  const { db, table } = target(write);
  const result = await db.deleteFrom(table).where(field, '=', parameter).executeTakeFirst();
  return Number(result.numDeletedRows);
}
