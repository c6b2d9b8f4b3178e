// Kysely 0.29 cancels a query whose `signal` aborts ('cancel query'): it kills the query through a
// control connection made from the pool (pg's `Client` and `options`, mysql2's connection
// `config`) by the connection's id (pg's `processID`, mysql2's `threadId`). The driver wrappers sit
// between Kysely and the pool, so they hand all of that through; without it Kysely would wait for
// a pool connection to send the kill, and with the pool's only connection busy, the query runs on.
import { nameStatements, recordExactTimestamps } from '@pagewise/kysely-adapter';
import { Kysely, MysqlDialect, type MysqlDialectConfig, PostgresDialect, type RawBuilder, sql } from 'kysely';
import { createConnection, createPool } from 'mysql2';
import pg from 'pg';
import semver from 'semver';
import { expect, it } from 'vitest';
import { databaseTarget, describeDatabase } from '../support/databases.js';
import { KYSELY } from '../support/kysely-version.js';

/** Kysely 0.29's `execute(db, options)`; 0.28's takes no options (and cancels nothing). */
interface Cancellable {
  execute(
    db: Kysely<unknown>,
    options: { signal: AbortSignal; inflightQueryAbortStrategy: 'cancel query' },
  ): Promise<unknown>;
}

// Kysely 0.28 cancels nothing: vitest.config.ts runs this file in the highest Kysely's project only.
if (semver.lt(KYSELY.version, '0.29.0')) {
  throw new Error(
    `cancelled-queries.test.ts needs a Kysely that cancels queries (0.29+), not ${KYSELY.version}`,
  );
}

/** Aborts `sleep` after 300 ms; resolves once the pool's only connection answers again. */
async function abortAndReuse(db: Kysely<unknown>, sleep: RawBuilder<unknown>): Promise<number> {
  await sql`select 1`.execute(db);
  const controller = new AbortController();
  const started = performance.now();
  const running = (sleep as unknown as Cancellable).execute(db, {
    signal: controller.signal,
    inflightQueryAbortStrategy: 'cancel query',
  });
  setTimeout(() => controller.abort(), 300);
  await expect(running).rejects.toThrow();
  // The pool's one connection comes back only once the server has stopped the sleep.
  const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
  expect(rows).toEqual([{ one: 1 }]);
  return performance.now() - started;
}

describeDatabase(
  databaseTarget('postgres-named-statements'),
  'an aborted query through nameStatements',
  () => {
    it('is cancelled on the server (pg_cancel_backend through a client of the pool)', async () => {
      const pool = nameStatements(new pg.Pool({ connectionString: process.env.PG_URL, max: 1 }));
      const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
      try {
        expect(await abortAndReuse(db, sql`select pg_sleep(10)`)).toBeLessThan(5_000);
      } finally {
        await db.destroy();
      }
    });
  },
);

describeDatabase(
  databaseTarget('mariadb-recorded-timestamps'),
  'an aborted query through recordExactTimestamps',
  () => {
    it('is cancelled on the server (kill query through a control connection)', async () => {
      const pool = recordExactTimestamps(createPool({ uri: process.env.MYSQL_URL!, connectionLimit: 1 }));
      // `controlConnection` is Kysely 0.29's; 0.28's config type has no such field.
      const config: MysqlDialectConfig & { controlConnection?: unknown } = {
        pool,
        controlConnection: createConnection,
      };
      const db = new Kysely<unknown>({ dialect: new MysqlDialect(config) });
      try {
        expect(await abortAndReuse(db, sql`select sleep(10)`)).toBeLessThan(5_000);
      } finally {
        await db.destroy();
      }
    });
  },
);
