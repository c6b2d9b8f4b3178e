import { existsSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { nameStatements, recordExactTimestamps, reusePreparedStatements } from '@pagewise/kysely-adapter';
import Database from 'better-sqlite3';
import { Kysely, type LogConfig, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { describe } from 'vitest';
import { PGliteDialect } from './pglite-dialect.js';
import { postgresMajor } from './postgres-server.js';

/**
 * A table name unique to this file's process: test files run in parallel, and so may two whole
 * runs against one shared server.
 */
export function tableName(base: string): string {
  return `${base}_${process.pid.toString(36)}`;
}

/** The SQL backends the suites run on. */
export type DatabaseName =
  | 'sqlite'
  | 'sqlite-safe-integers'
  | 'sqlite-reused-statements'
  | 'postgres-named-statements'
  | 'mariadb-recorded-timestamps'
  | 'pglite'
  | 'postgres'
  | 'mariadb';

/** An open test database. */
export interface TestDatabase {
  readonly name: DatabaseName;
  readonly dialect: 'postgres' | 'sqlite' | 'mysql';
  // biome-ignore lint/suspicious/noExplicitAny: test tables are created at run time.
  readonly db: Kysely<any>;
  /** Binary (code-point) collation for text columns on MySQL/MariaDB. */
  readonly binaryCollation: string;
  close(): Promise<void>;
}

/** A backend that may or may not be available on this machine, with the reason when it is not. */
export interface DatabaseTarget {
  readonly name: DatabaseName;
  readonly skipReason: string | null;
  /** Opens it; `log` sees every statement (the plan checks read the adapter's SQL from it). */
  open(log?: LogConfig): Promise<TestDatabase>;
}

function dockerAvailable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

async function openPostgres(
  url: string,
  log?: LogConfig,
  stop: () => Promise<void> = async () => {},
  named = false,
): Promise<TestDatabase> {
  const raw = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000 });
  const pool = named ? nameStatements(raw) : raw;
  const db = new Kysely({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
  // A configured server that does not answer is a failure, never a skip.
  await sql`select 1`.execute(db);
  return {
    name: 'postgres',
    dialect: 'postgres',
    db,
    binaryCollation: 'C',
    close: async () => {
      await db.destroy();
      await stop();
    },
  };
}

async function openMysql(
  url: string,
  log?: LogConfig,
  stop: () => Promise<void> = async () => {},
  recorded = false,
): Promise<TestDatabase> {
  const raw = createPool({
    uri: url,
    connectionLimit: 4,
    timezone: 'Z',
    supportBigNumbers: true,
    connectTimeout: 5_000,
  });
  const pool = recorded ? recordExactTimestamps(raw) : raw;
  const db = new Kysely({ dialect: new MysqlDialect({ pool }), ...(log ? { log } : {}) });
  const { rows } = await sql<{ v: string }>`select version() as v`.execute(db);
  // MariaDB's utf8mb4_bin pads with spaces ('a' = 'a '); the NO PAD binary collations compare by code point.
  const mariadb = rows[0]?.v.includes('MariaDB') ?? false;
  return {
    name: 'mariadb',
    dialect: 'mysql',
    db,
    binaryCollation: mariadb ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin',
    close: async () => {
      await db.destroy();
      await stop();
    },
  };
}

/**
 * Where each database comes from: `PG_URL` / `MYSQL_URL` when set (a server that does not
 * answer fails the run); with no `PG_URL`, the npm build of Postgres that the tests start
 * themselves (tests/support/postgres-server.global.ts sets `PG_URL` to it); otherwise a
 * testcontainers server when a Docker engine is present; otherwise Postgres cases run on PGlite
 * only and MariaDB is skipped, with the reason shown. In the project of one Postgres major
 * (`postgres-<major>`, vitest.config.ts) the only target is that major's server: the other
 * databases run in the main project.
 */
export function databaseTargets(): DatabaseTarget[] {
  const docker = dockerAvailable();
  const pgUrl = process.env.PG_URL;
  const mysqlUrl = process.env.MYSQL_URL;
  const postgres: DatabaseTarget = {
    name: 'postgres',
    skipReason:
      pgUrl || docker
        ? null
        : `PG_URL is not set, the npm build of Postgres did not start (${process.env.PAGEWISE_PG_UNAVAILABLE ?? 'no reason given'}) and no Docker engine is available`,
    open: async (log) => {
      if (pgUrl) return openPostgres(pgUrl, log);
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const container = await new PostgreSqlContainer('postgres:16-alpine').start();
      return openPostgres(container.getConnectionUri(), log, async () => void (await container.stop()));
    },
  };
  if (postgresMajor() !== undefined) return [postgres];
  return [
    sqliteTarget(false),
    {
      name: 'pglite',
      skipReason: null,
      open: async (log) => {
        const db = new Kysely({ dialect: new PGliteDialect(await PGlite.create()), ...(log ? { log } : {}) });
        return { name: 'pglite', dialect: 'postgres', db, binaryCollation: 'C', close: () => db.destroy() };
      },
    },
    postgres,
    {
      name: 'mariadb',
      skipReason: mysqlUrl || docker ? null : 'MYSQL_URL is not set and no Docker engine is available',
      open: async (log) => {
        if (mysqlUrl) return openMysql(mysqlUrl, log);
        const { MySqlContainer } = await import('@testcontainers/mysql');
        const container = await new MySqlContainer('mysql:8.4').start();
        return openMysql(container.getConnectionUri(), log, async () => void (await container.stop()));
      },
    },
  ];
}

/**
 * In-memory SQLite; with `safeIntegers`, `db.defaultSafeIntegers(true)`: every integer (catalog
 * flags included) comes back as a bigint; with `reused`, statements prepared once
 * (`reusePreparedStatements`). Those two are not in `databaseTargets()`; suites that cover them
 * ask for them by name.
 */
function sqliteTarget(safeIntegers: boolean, reused = false): DatabaseTarget {
  const name = reused ? 'sqlite-reused-statements' : safeIntegers ? 'sqlite-safe-integers' : 'sqlite';
  return {
    name,
    skipReason: null,
    open: async (log) => {
      const raw = new Database(':memory:');
      if (safeIntegers) raw.defaultSafeIntegers(true);
      const database = reused ? reusePreparedStatements(raw) : raw;
      const db = new Kysely({ dialect: new SqliteDialect({ database }), ...(log ? { log } : {}) });
      return { name, dialect: 'sqlite', db, binaryCollation: 'BINARY', close: () => db.destroy() };
    },
  };
}

/** The target named `name`. */
export function databaseTarget(name: DatabaseName): DatabaseTarget {
  const pgUrl = process.env.PG_URL;
  // Named statements through a plain `pg` pool (`nameStatements`), on the PG_URL server only.
  const named: DatabaseTarget = {
    name: 'postgres-named-statements',
    skipReason: pgUrl ? null : 'PG_URL is not set',
    open: (log) => openPostgres(pgUrl!, log, undefined, true),
  };
  // Date-times read from the text mysql2 recorded (`recordExactTimestamps`), on the MYSQL_URL server only.
  const mysqlUrl = process.env.MYSQL_URL;
  const recorded: DatabaseTarget = {
    name: 'mariadb-recorded-timestamps',
    skipReason: mysqlUrl ? null : 'MYSQL_URL is not set',
    open: (log) => openMysql(mysqlUrl!, log, undefined, true),
  };
  const target = [...databaseTargets(), sqliteTarget(true), sqliteTarget(false, true), named, recorded].find(
    (t) => t.name === name,
  );
  if (target === undefined) throw new Error(`no ${name} target in the postgres-${postgresMajor()} project`);
  return target;
}

/**
 * `describe` for one database: skipped, with its reason in the test name and on the console,
 * when the database is not available.
 */
export function describeDatabase(target: DatabaseTarget, title: string, body: () => void): void {
  if (target.skipReason !== null) {
    console.warn(`[${target.name}] skipped: ${target.skipReason}`);
    describe.skip(`[${target.name}] ${title} (skipped: ${target.skipReason})`, body);
    return;
  }
  describe(`[${target.name}] ${title}`, body);
}
