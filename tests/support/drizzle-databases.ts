import { PGlite } from '@electric-sql/pglite';
import { nameStatements } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import type { Logger } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { type DatabaseTarget, databaseTarget, databaseTargets, type TestDatabase } from './databases.js';
import { PGliteDialect } from './pglite-dialect.js';

/** The backends the Drizzle adapter runs on: drizzle-orm's better-sqlite3, pglite, node-postgres and mysql2 drivers. */
export type DrizzleDatabaseName = 'sqlite' | 'pglite' | 'postgres' | 'postgres-named-statements' | 'mariadb';

/**
 * A test database opened twice over one connection: `db`, the Kysely instance the shared test
 * support creates tables with (and the Kysely side of the comparisons), and `drizzle`, the
 * Drizzle database over the same driver object.
 */
export interface DrizzleTestDatabase extends TestDatabase {
  // biome-ignore lint/suspicious/noExplicitAny: test tables are defined at run time.
  readonly drizzle: any;
}

/** Every statement Drizzle logged, for the plan checks. */
export interface StatementLog {
  readonly statements: string[];
  /** Each statement's parameters, when kept. */
  readonly parameters?: unknown[][];
}

/** A Drizzle backend that may or may not be available, as `describeDatabase` takes it. */
export interface DrizzleTarget extends Omit<DatabaseTarget, 'open'> {
  /** Opens it; `logged` collects every statement Drizzle's logger sees. */
  open(log?: unknown, logged?: StatementLog): Promise<DrizzleTestDatabase>;
}

/** The Drizzle target named `name`: available when the Kysely one is, with its skip reason otherwise. */
export function drizzleTarget(name: DrizzleDatabaseName): DrizzleTarget {
  const target = databaseTarget(name);
  return {
    name: target.name,
    skipReason: target.skipReason,
    open: (_log?: unknown, logged?: StatementLog) => openDrizzle(name, logged),
  };
}

const DRIZZLE_DATABASES: readonly string[] = ['sqlite', 'pglite', 'postgres', 'mariadb'];

/** The Drizzle targets of `databaseTargets()`: each backend the suites run on that Drizzle has a driver for. */
export function drizzleTargets(): DrizzleTarget[] {
  return databaseTargets()
    .filter((target) => DRIZZLE_DATABASES.includes(target.name))
    .map((target) => drizzleTarget(target.name as DrizzleDatabaseName));
}

async function openDrizzle(name: DrizzleDatabaseName, logged?: StatementLog): Promise<DrizzleTestDatabase> {
  const logger: Logger | undefined = logged && {
    logQuery: (query, params) => {
      logged.statements.push(query);
      logged.parameters?.push(params);
    },
  };
  const options = logger ? { logger } : {};
  if (name === 'sqlite') {
    const raw = new Database(':memory:');
    const db = new Kysely({ dialect: new SqliteDialect({ database: raw }) });
    const drizzle = drizzleSqlite(raw, options);
    return { name, dialect: 'sqlite', db, drizzle, binaryCollation: 'BINARY', close: () => db.destroy() };
  }
  if (name === 'pglite') {
    const client = await PGlite.create();
    const db = new Kysely({ dialect: new PGliteDialect(client) });
    const drizzle = drizzlePglite(client, options);
    return { name, dialect: 'postgres', db, drizzle, binaryCollation: 'C', close: () => db.destroy() };
  }
  if (name === 'postgres' || name === 'postgres-named-statements') {
    const url = process.env.PG_URL;
    if (!url) throw new Error('PG_URL is not set');
    const raw = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000 });
    // Both ORMs over one pool: named statements through `nameStatements` for the second.
    const pool = name === 'postgres' ? raw : nameStatements(raw);
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    await sql`select 1`.execute(db);
    const drizzle = drizzlePg(pool, options);
    return { name, dialect: 'postgres', db, drizzle, binaryCollation: 'C', close: () => db.destroy() };
  }
  const url = process.env.MYSQL_URL;
  if (!url) throw new Error('MYSQL_URL is not set');
  const pool = createPool({
    uri: url,
    connectionLimit: 4,
    timezone: 'Z',
    supportBigNumbers: true,
    connectTimeout: 5_000,
  });
  const db = new Kysely({ dialect: new MysqlDialect({ pool }) });
  const { rows } = await sql<{ v: string }>`select version() as v`.execute(db);
  const mariadb = rows[0]?.v.includes('MariaDB') ?? false;
  const drizzle = drizzleMysql(pool, options);
  return {
    name,
    dialect: 'mysql',
    db,
    drizzle,
    binaryCollation: mariadb ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin',
    close: () => db.destroy(),
  };
}
