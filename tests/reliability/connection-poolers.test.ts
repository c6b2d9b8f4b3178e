import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely, nameStatements } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination, type OrderedQuery, type OrderingInput } from '@pagewise/rest';
import { drizzle } from 'drizzle-orm/node-postgres';
import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { Kysely, PostgresDialect, type PostgresPool, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tableName } from '../support/databases.js';
import { findPgBouncer, type PgBouncer, startPgBouncer } from '../support/pgbouncer.js';

/**
 * Issue 29, part 2: cursor walks behind a transaction-pooling PgBouncer (the installed one, started
 * by the test on a free loopback port in front of the PG_URL server). In transaction mode each
 * transaction may run on another server connection, so a statement a client prepared under a name
 * is on one server and not on the next: `nameStatements` must not turn a working deployment into
 * `prepared statement "pagewise_3" already exists` / `... does not exist`. Walks must be exact
 * (every row once, in order) with the stock pool, with `nameStatements`, and across a restart of
 * the pooler; directly on Postgres, `nameStatements` still names its statements.
 *
 * Needs PG_URL and Debian's `pgbouncer` (`.ci/run` installs it): without either the suite is
 * skipped with the reason, except that under CI=true a missing pgbouncer fails.
 */

const url = process.env.PG_URL;
const bouncerBinary = findPgBouncer();
const skipReason =
  url === undefined || url === ''
    ? 'PG_URL is not set'
    : typeof bouncerBinary !== 'string'
      ? bouncerBinary.reason
      : null;

const TABLE = tableName('pw_pooler_walks');
const ROWS = 3000;
const WALKS = 12;
const POOL_SIZE = 8;

// biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
type Db = Kysely<any>;

interface Shape {
  readonly ordering: OrderingInput;
  readonly pageSize: number;
}

/** Three orderings (one of mixed directions) and three page sizes: nine statement shapes. */
const SHAPES: readonly Shape[] = Array.from({ length: WALKS }, (_, i) => ({
  ordering: (
    [
      ['-created', '-id'],
      ['created', 'id'],
      ['-created', 'id'],
    ] as const
  )[i % 3]!,
  pageSize: [50, 64, 37][Math.floor(i / 3) % 3]!,
}));

/** Seconds and microseconds of row `g`'s `created`: three rows per second, half a microsecond apart. */
const second = (g: number) => (g * 7919) % 1000;
const micro = (g: number) => g % 2;

function expectedIds(shape: Shape): number[] {
  const [first, second_] = shape.ordering as readonly string[];
  const createdSign = first!.startsWith('-') ? -1 : 1;
  const idSign = second_!.startsWith('-') ? -1 : 1;
  return Array.from({ length: ROWS }, (_, i) => i + 1).sort(
    (a, b) => createdSign * (second(a) - second(b) || micro(a) - micro(b)) || idSign * (a - b),
  );
}

/** Errors of a connection cut by the pooler going away: the page is retried with the same cursor. */
function isConnectionError(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || /^E(CONNREFUSED|CONNRESET|PIPE)$/.test(code))) {
    return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection error|server conn crashed|Client was closed/i.test(message)
  );
}

interface Walk {
  readonly ids: number[];
  readonly pages: number;
  /** Connection errors a page was retried after (one per attempt: a pooler restarting refuses a few). */
  readonly retried: string[];
  /** Pages that needed at least one retry. */
  readonly pagesRetried: number;
  /** The error that ended the walk, if any. */
  readonly failed: string | null;
}

/** A cursor walk of TABLE in `shape`; `between(pages)` runs after each page; `paged`: the query of each page (Kysely's by default). */
async function walk(
  db: Db,
  shape: Shape,
  between?: (pages: number) => Promise<void>,
  paged: () => OrderedQuery<{ id: unknown }> = () =>
    fromKysely(db.selectFrom(TABLE).select(['id', 'created']), { db }),
): Promise<Walk> {
  const pagination = new CursorPagination({ pageSize: shape.pageSize, ordering: shape.ordering });
  const ids: number[] = [];
  const retried: string[] = [];
  let pages = 0;
  let pagesRetried = 0;
  let failedAt = -1;
  let next: string | null = 'http://testserver/items/';
  while (next !== null) {
    const request: ApiRequest = new ApiRequest({ url: next });
    try {
      const page: { readonly rows: readonly { id: unknown }[]; readonly next: string | null } | null =
        await pagination.paginate(paged(), request);
      ids.push(...page!.rows.map((row) => row.id as number));
      next = page!.next;
      pages += 1;
      await between?.(pages);
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      const said = `${code ?? ''} ${message ?? String(error)}`.trim();
      if (!isConnectionError(error) || retried.length >= 500) {
        return { ids, pages, retried, pagesRetried, failed: said };
      }
      retried.push(said);
      if (failedAt !== pages) pagesRetried += 1;
      failedAt = pages;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return { ids, pages, retried, pagesRetried, failed: null };
}

/** Exact walks (every row once, in order) and the errors of the others, one line for the report. */
function summary(setup: string, shapes: readonly Shape[], walks: readonly Walk[]): string {
  const exact = walks.filter((w, i) => w.failed === null && sameIds(w.ids, expectedIds(shapes[i]!))).length;
  const failures = walks.filter((w) => w.failed !== null).map((w) => w.failed);
  const retried = walks.reduce((n, w) => n + w.retried.length, 0);
  const pagesRetried = walks.reduce((n, w) => n + w.pagesRetried, 0);
  const pages = walks.reduce((n, w) => n + w.pages, 0);
  return (
    `[${setup}] ${exact}/${walks.length} walks exact, ${failures.length} failed, ${pages} pages, ` +
    `${pagesRetried} pages retried after a connection error (${retried} attempts)` +
    (failures.length > 0 ? `; first failure: ${failures[0]}` : '')
  );
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** A Kysely over a `pg.Pool` of POOL_SIZE at `connectionString`, stock or wrapped. */
function open(connectionString: string, named: boolean): { db: Db; raw: pg.Pool } {
  const raw = new pg.Pool({ connectionString, max: POOL_SIZE, connectionTimeoutMillis: 10_000 });
  // A pooler killed under idle clients makes them emit `error`: the pool drops them.
  raw.on('error', () => {});
  // A checked-out pg client whose connection is cut emits `error` too (beside failing its query),
  // and Kysely's driver listens to none: unheard, it would end the process. nameStatements listens
  // on the clients it wraps; a stock pool needs this.
  if (!named) raw.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely({ dialect: new PostgresDialect({ pool: named ? nameStatements(raw) : raw }) });
  return { db, raw };
}

interface HeldServer {
  readonly pid: number;
  /** Names of the statements prepared on that server connection. */
  readonly names: readonly string[];
}

/**
 * Every one of PgBouncer's `servers` server connections, each held by an open transaction of its
 * own client (PgBouncer gives each transaction its own server), so `free(pid)` decides on which
 * server the next transaction of any other client runs.
 */
async function holdServers(bouncer: PgBouncer, servers: number) {
  const pool = new pg.Pool({ connectionString: bouncer.url, max: servers });
  pool.on('error', () => {});
  const clients = await Promise.all(Array.from({ length: servers }, () => pool.connect()));
  await Promise.all(clients.map((client) => client.query('begin')));
  const held: Array<HeldServer & { client: pg.PoolClient; open: boolean }> = [];
  for (const client of clients) {
    const { rows } = await client.query<{ pid: number; names: string[] }>(
      'select pg_backend_pid() as pid, array(select name from pg_prepared_statements order by name) as names',
    );
    held.push({ ...rows[0]!, client, open: true });
  }
  return {
    held: held.map(({ pid, names }): HeldServer => ({ pid, names })),
    async free(pid: number) {
      const server = held.find((h) => h.pid === pid)!;
      await server.client.query('commit');
      server.open = false;
    },
    async end() {
      for (const server of held) if (server.open) await server.client.query('commit');
      for (const client of clients) client.release();
      await pool.end();
    },
  };
}

/**
 * `describe` for the suites that start a PgBouncer: skipped with the reason when PG_URL is unset or
 * pgbouncer is missing, except that under CI=true a missing pgbouncer is a failed test.
 */
function describeWithPooler(title: string, body: () => void): void {
  if (skipReason !== null && url && process.env.CI === 'true') {
    test(`${title}: pgbouncer is installed`, () => {
      throw new Error(`${skipReason}; CI (CI=true) runs these tests and must have it`);
    });
    return;
  }
  if (skipReason !== null) {
    console.warn(`[pgbouncer] skipped: ${skipReason}`);
    describe.skip(`${title} (skipped: ${skipReason})`, body);
    return;
  }
  describe(title, body);
}

describeWithPooler('behind PgBouncer in transaction pooling mode', () => {
  let bouncer: PgBouncer;
  let admin: Db;

  beforeAll(async () => {
    admin = new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    await sql`drop table if exists ${sql.table(TABLE)}`.execute(admin);
    await sql`create table ${sql.table(TABLE)} (id integer primary key, created timestamptz not null)`.execute(
      admin,
    );
    await sql`insert into ${sql.table(TABLE)} select g, timestamptz '2024-01-01 00:00:00+00'
      + ((g * 7919) % 1000) * interval '1 second' + (g % 2) * interval '1 microsecond'
      from generate_series(1, ${ROWS}::int) g`.execute(admin);
    await sql`create index on ${sql.table(TABLE)} (created, id)`.execute(admin);
    await sql`analyze ${sql.table(TABLE)}`.execute(admin);
    bouncer = await startPgBouncer(url!, { pool_mode: 'transaction', default_pool_size: 4 });
    const { rows } = await sql<{ version: string }>`show server_version`.execute(admin);
    console.log(
      `PgBouncer (transaction pooling, 4 server connections) on port ${bouncer.port}, Postgres ${rows[0]!.version}`,
    );
  });

  afterAll(async () => {
    await bouncer?.stop();
    await sql`drop table if exists ${sql.table(TABLE)}`.execute(admin);
    await admin?.destroy();
  });

  /** WALKS concurrent walks through a fresh pool of POOL_SIZE; the summary is logged. */
  async function concurrentWalks(setup: string, connectionString: string, named: boolean) {
    const { db, raw } = open(connectionString, named);
    try {
      const walks = await Promise.all(SHAPES.map((shape) => walk(db, shape)));
      console.log(summary(setup, SHAPES, walks));
      return { walks, db, raw };
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }

  test(`${WALKS} concurrent walks of ${ROWS} rows through a pg.Pool of ${POOL_SIZE} via PgBouncer, stock pool: all exact`, async () => {
    const { walks, db } = await concurrentWalks('PgBouncer, stock pool', bouncer.url, false);
    try {
      expect(walks.map((w) => w.failed)).toEqual(SHAPES.map(() => null));
      expect(walks.map((w, i) => sameIds(w.ids, expectedIds(SHAPES[i]!)))).toEqual(SHAPES.map(() => true));
    } finally {
      await db.destroy();
    }
  });

  test(`${WALKS} concurrent walks via PgBouncer, nameStatements pool: all exact, no prepared-statement errors, nothing prepared on the servers`, async () => {
    const { walks, db } = await concurrentWalks('PgBouncer, nameStatements pool', bouncer.url, true);
    try {
      expect(walks.map((w) => w.failed)).toEqual(SHAPES.map(() => null));
      expect(walks.flatMap((w) => w.retried)).toEqual([]);
      expect(walks.map((w, i) => sameIds(w.ids, expectedIds(SHAPES[i]!)))).toEqual(SHAPES.map(() => true));
      // Behind a pooler the statements go unnamed: none of PgBouncer's four server connections
      // holds a statement of ours (a named one would outlive the client on that server).
      const servers = await holdServers(bouncer, 4);
      await servers.end();
      expect(new Set(servers.held.map((h) => h.pid)).size).toBe(4);
      expect(servers.held.flatMap((h) => h.names)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  test(`${WALKS} concurrent Drizzle walks via PgBouncer over nameStatements (Drizzle's pool.query and transactions): all exact, nothing prepared on the servers`, async () => {
    const raw = new pg.Pool({
      connectionString: bouncer.url,
      max: POOL_SIZE,
      connectionTimeoutMillis: 10_000,
    });
    raw.on('error', () => {});
    const pool = nameStatements(raw);
    const orm = drizzle(pool);
    const items = pgTable(TABLE, {
      id: integer('id').primaryKey(),
      created: timestamp('created', { withTimezone: true }).notNull(),
    });
    try {
      const walks = await Promise.all(
        SHAPES.map((shape) =>
          walk(admin, shape, undefined, () =>
            fromDrizzle(orm.select({ id: items.id, created: items.created }).from(items), { db: orm }),
          ),
        ),
      );
      console.log(summary('PgBouncer, Drizzle over nameStatements', SHAPES, walks));
      expect(walks.map((w) => w.failed)).toEqual(SHAPES.map(() => null));
      expect(walks.flatMap((w) => w.retried)).toEqual([]);
      expect(walks.map((w, i) => sameIds(w.ids, expectedIds(SHAPES[i]!)))).toEqual(SHAPES.map(() => true));
      // A Drizzle transaction checks one connection out of the wrapper: its statements share it.
      const pids = await orm.transaction(async (tx) => {
        const seen = new Set<unknown>();
        for (let i = 0; i < 3; i += 1)
          seen.add((await tx.execute('select pg_backend_pid() as pid')).rows[0]?.pid);
        return seen;
      });
      expect(pids.size).toBe(1);
      const servers = await holdServers(bouncer, 4);
      await servers.end();
      expect(servers.held.flatMap((h) => h.names)).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  test(`${WALKS} concurrent walks directly on Postgres: stock and nameStatements pools exact, and nameStatements still names its statements`, async () => {
    const stock = await concurrentWalks('direct Postgres, stock pool', url!, false);
    await stock.db.destroy();
    expect(stock.walks.map((w) => w.failed)).toEqual(SHAPES.map(() => null));
    const named = await concurrentWalks('direct Postgres, nameStatements pool', url!, true);
    try {
      expect(named.walks.map((w) => w.failed)).toEqual(SHAPES.map(() => null));
      expect(named.walks.map((w, i) => sameIds(w.ids, expectedIds(SHAPES[i]!)))).toEqual(
        SHAPES.map(() => true),
      );
      const names = await named.db.connection().execute(async (connection) => {
        const { rows } = await sql<{ name: string }>`
          select name from pg_prepared_statements where statement like ${`%${TABLE}%`}`.execute(connection);
        return rows.map((row) => row.name);
      });
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toMatch(/^pagewise_\d+$/);
    } finally {
      await named.db.destroy();
    }
  });

  test('two processes whose "pagewise_1" are different statements each get their own rows through one PgBouncer', async () => {
    // Each process names its texts in order of first use, so the same name means another
    // statement in another process. In transaction pooling a name prepared by one process on a
    // server is bound there by the other: a statement named on one server runs, silently, the
    // other process's statement of that name on the next. Here B prepares on another server than
    // A, and A's second run is steered onto B's server.
    const open1 = () =>
      new Kysely({
        dialect: new PostgresDialect({
          pool: nameStatements(new pg.Pool({ connectionString: bouncer.url, max: 1 })),
        }),
      });
    const a = open1();
    const b = open1();
    try {
      const mine = () =>
        sql<{ v: number; pid: number }>`select ${7}::int as v, pg_backend_pid() as pid`.execute(a);
      const theirs = () =>
        sql<{ v: number; pid: number }>`select ${7}::int * 1000 as v, pg_backend_pid() as pid`.execute(b);
      const first = (await mine()).rows[0]!;
      expect(first.v).toBe(7);
      let servers = await holdServers(bouncer, 4);
      const other = servers.held.find((h) => h.pid !== first.pid)!.pid;
      await servers.free(other);
      const their = (await theirs()).rows[0]!;
      await servers.end();
      expect(their).toEqual({ v: 7000, pid: other });
      servers = await holdServers(bouncer, 4);
      await servers.free(their.pid);
      const again = (await mine()).rows[0]!;
      await servers.end();
      expect(again).toEqual({ v: 7, pid: their.pid });
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });

  test(`${WALKS} concurrent walks via PgBouncer in session pooling: exact; statements go unnamed there too`, async () => {
    // Session pooling keeps a client on one server (and DISCARD ALL clears it for the next), where
    // names would hold; but PgBouncer issues its own key in every mode, so the check cannot tell
    // the modes apart, and nameStatements sends statements unnamed behind any PgBouncer.
    const session = await startPgBouncer(url!, { pool_mode: 'session', default_pool_size: POOL_SIZE + 2 });
    try {
      const { walks, db } = await concurrentWalks(
        'PgBouncer session pooling, nameStatements pool',
        session.url,
        true,
      );
      try {
        expect(walks.map((w) => w.failed)).toEqual(SHAPES.map(() => null));
        expect(walks.map((w, i) => sameIds(w.ids, expectedIds(SHAPES[i]!)))).toEqual(SHAPES.map(() => true));
        const names = await db.connection().execute(async (connection) => {
          const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(
            connection,
          );
          return rows.map((row) => row.name);
        });
        expect(names).toEqual([]);
      } finally {
        await db.destroy();
      }
    } finally {
      await session.stop();
    }
  });

  test('a pool that hands out a new object per checkout (as the demo does): one check and one error listener per physical connection, across a restart', async () => {
    // The demo's pool releases a client whose connection died with the error, over
    // `Object.create(client)` per checkout: nameStatements sees a new object every time.
    const raw = new pg.Pool({
      connectionString: bouncer.url,
      max: POOL_SIZE,
      connectionTimeoutMillis: 10_000,
    });
    raw.on('error', () => {});
    const clients = new Set<pg.PoolClient>();
    let probes = 0;
    const perCheckout: PostgresPool = {
      async connect() {
        const client = await raw.connect();
        clients.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        return Object.assign(Object.create(client) as pg.PoolClient, {
          query: (...args: unknown[]) => {
            if (typeof args[0] === 'string' && args[0].includes('pg_backend_pid')) probes += 1;
            return query(...args);
          },
          release: () => client.release(),
        });
      },
      end: () => raw.end(),
    };
    const db: Db = new Kysely({ dialect: new PostgresDialect({ pool: nameStatements(perCheckout) }) });
    const shapes = SHAPES.slice(0, 4);
    try {
      let restarted = false;
      const walks = await Promise.all(
        shapes.map((shape, i) =>
          walk(db, shape, async (pages) => {
            if (i === 0 && pages === 20) {
              await bouncer.restart();
              restarted = true;
            }
          }),
        ),
      );
      console.log(
        `${summary('PgBouncer restarted mid-walk, nameStatements over a new object per checkout', shapes, walks)}; ${probes} checks for ${clients.size} connections`,
      );
      expect(restarted).toBe(true);
      expect(walks.map((w) => w.failed)).toEqual(shapes.map(() => null));
      expect(walks.map((w, i) => sameIds(w.ids, expectedIds(shapes[i]!)))).toEqual(shapes.map(() => true));
      expect(probes).toBeGreaterThan(0);
      expect(probes).toBeLessThanOrEqual(clients.size);
      // pg-pool's own listener while idle, and ours.
      for (const client of clients) expect(client.listenerCount('error')).toBeLessThanOrEqual(2);
    } finally {
      await db.destroy();
    }
  });

  for (const named of [false, true]) {
    const setup = named ? 'nameStatements pool' : 'stock pool';
    test(`PgBouncer killed and restarted mid-walk, ${setup}: in-flight pages fail with connection errors, retried they continue; every walk exact`, async () => {
      const shapes = SHAPES.slice(0, 6);
      const { db } = open(bouncer.url, named);
      try {
        let restarts = 0;
        // Walk 0 kills and restarts the pooler after its 10th and 25th pages, between its pages;
        // the other five walks have pages in flight then.
        const restartAt = new Set([10, 25]);
        const walks = await Promise.all(
          shapes.map((shape, i) =>
            walk(
              db,
              shape,
              i === 0
                ? async (pages) => {
                    if (!restartAt.has(pages)) return;
                    await bouncer.restart();
                    restarts += 1;
                  }
                : async () => new Promise((resolve) => setTimeout(resolve, 2)),
            ),
          ),
        );
        console.log(`${summary(`PgBouncer restarted ${restarts}x mid-walk, ${setup}`, shapes, walks)}`);
        const retried = walks.flatMap((w) => w.retried);
        if (retried.length > 0) console.log(`  retried after: ${[...new Set(retried)].join(' | ')}`);
        expect(restarts).toBe(2);
        expect(walks.map((w) => w.failed)).toEqual(shapes.map(() => null));
        expect(retried.filter((said) => /prepared statement/.test(said))).toEqual([]);
        expect(walks.map((w, i) => sameIds(w.ids, expectedIds(shapes[i]!)))).toEqual(shapes.map(() => true));
      } finally {
        await db.destroy();
      }
    });
  }
});

// The backstop needs Postgres only: directly on it, a name goes missing or taken only when other
// code deallocates or prepares it, which these cases do on purpose.
(url ? describe : describe.skip)(
  `nameStatements directly on Postgres: a statement name the server disowns${url ? '' : ' (skipped: PG_URL is not set)'}`,
  () => {
    const DIRECT = tableName('pw_pooler_backstop');
    let admin: Db;

    beforeAll(async () => {
      admin = new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
      });
      await sql`drop table if exists ${sql.table(DIRECT)}`.execute(admin);
      await sql`create table ${sql.table(DIRECT)} (id integer primary key)`.execute(admin);
      await sql`insert into ${sql.table(DIRECT)} select g from generate_series(1, 20) g`.execute(admin);
    });

    afterAll(async () => {
      await sql`drop table if exists ${sql.table(DIRECT)}`.execute(admin);
      await admin?.destroy();
    });

    const page = (db: Db, after: number) =>
      db.selectFrom(DIRECT).select('id').where('id', '>', after).orderBy('id').limit(3).execute();

    const prepared = async (db: Db) =>
      (
        await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(db)
      ).rows.map((row) => row.name);

    // pg reports the transaction status of a connection (`getTransactionStatus`) only in its recent
    // releases; with older ones the wrapper cannot tell whether a statement ran in a transaction.
    for (const reports of [true, false]) {
      const pgKind = reports ? 'pg reporting the transaction status' : 'a pg that does not report it';

      /** A one-connection wrapped pool, so every statement of a test runs on the same session. */
      const openOne = (): Db => {
        const raw = new pg.Pool({ connectionString: url, max: 1 });
        if (!reports) {
          raw.on('connect', (client) => {
            Object.defineProperty(client, 'getTransactionStatus', { value: undefined });
          });
        }
        return new Kysely({ dialect: new PostgresDialect({ pool: nameStatements(raw) }) });
      };

      test(`${pgKind}: "does not exist" (26000, after DEALLOCATE ALL) outside a transaction: the statement reruns unnamed, and the pool names no more`, async () => {
        const db = openOne();
        try {
          expect((await page(db, 0)).map((r) => r.id)).toEqual([1, 2, 3]);
          expect(await prepared(db)).not.toEqual([]);
          await sql`deallocate all`.execute(db);
          expect((await page(db, 3)).map((r) => r.id)).toEqual([4, 5, 6]);
          expect((await page(db, 6)).map((r) => r.id)).toEqual([7, 8, 9]);
          expect(await prepared(db)).toEqual([]);
        } finally {
          await db.destroy();
        }
      });

      test(`${pgKind}: "already exists" (42P05, a name of ours prepared by other code) outside a transaction: reruns unnamed`, async () => {
        const db = openOne();
        try {
          await sql`prepare pagewise_1 as select 1`.execute(db);
          expect((await page(db, 0)).map((r) => r.id)).toEqual([1, 2, 3]);
          expect((await page(db, 3)).map((r) => r.id)).toEqual([4, 5, 6]);
          expect(await prepared(db)).toEqual(['pagewise_1']);
        } finally {
          await db.destroy();
        }
      });

      test(`${pgKind}: inside a transaction the error is the caller's (the transaction is aborted); the pool names no more`, async () => {
        const db = openOne();
        try {
          await page(db, 0);
          const failed = await db
            .transaction()
            .execute(async (trx) => {
              await sql`deallocate all`.execute(trx);
              return page(trx, 3);
            })
            .then(
              () => null,
              (error: { code?: string }) => error.code,
            );
          expect(failed).toBe('26000');
          expect((await page(db, 3)).map((r) => r.id)).toEqual([4, 5, 6]);
          expect(await prepared(db)).toEqual([]);
        } finally {
          await db.destroy();
        }
      });
    }
  },
);
