/**
 * Per-page cost of a Kysely-adapter cursor page, this checkout side by side with other checkouts
 * (`--against DIR`, e.g. a `git worktree add /tmp/base <commit>` with its `pnpm install` and
 * `pnpm build`: every checkout runs its built packages, or its sources under
 * `tsx --conditions=@pagewise/source`, as this one does), every
 * variant interleaved round by round in one process so that the machine's load hits them alike.
 *
 * - `pg-replay`: Postgres results recorded once (at PG_URL) and replayed without I/O: what the
 *   adapter and core cost on the CPU per page (the cursor page of `-created, -id` at row 5,000
 *   of a 10,000-row table, the benchmark table's shape; a fresh `fromKysely` per page), and page 101
 *   of the page-number style with `count: 'estimated'` (its EXPLAIN replayed too). `--only pg-replay`
 *   measures only these.
 * - `sqlite`: the same page on an in-memory better-sqlite3 table (SQLite's own work included),
 *   beside `stmt.all()` of the hand-written keyset statement prepared once (`raw`).
 * - `mysql-wire` (with BENCH_MYSQL_URL or MYSQL_URL): the same page on a 10,000-row MariaDB/MySQL
 *   table with the server's answers replayed at the wire (`MysqlWireReplay`), so mysql2's own
 *   work counts and the server's does not: the raw query and the hand-written Kysely page beside
 *   Pagewise over `recordExactTimestamps` and over the stock pool.
 *
 *   PG_URL=postgres://postgres@127.0.0.1:5432/db pnpm --filter @pagewise/bench exec \
 *     tsx src/adapter-cpu.ts [--against DIR]... [--rounds 15] [--pages 200] [--only pg|pg-replay|sqlite|mysql]
 *
 * Compare two `--against` checkouts, not this one with another: this one measured 10-12% faster
 * per replayed page than another checkout of the very same code, loaded alike (both built).
 *
 * Prints, per variant, the median over rounds of the CPU time (user + system) per page in
 * microseconds, the median wall time, and the load average at start and end.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  MysqlDialect,
  PostgresDialect,
  type QueryResult,
  SqliteDialect,
  sql,
} from 'kysely';
import { createPool as createMysqlPool, type Pool as MysqlCallbackPool } from 'mysql2';
import type { Pool as MysqlPool } from 'mysql2/promise';
import pg from 'pg';
import { kyselyKeysetPage } from './kysely-keyset.js';
import { median, timePages } from './measure.js';
import { MysqlWireReplay } from './mysql-wire-replay.js';
import { cursorOrder } from './orderings.js';
import { checkoutEntry } from './pagewise-build.js';
import { type ProfileSummary, profilePages } from './profile.js';
import { WireReplay } from './wire-replay.js';

type Core = typeof import('@pagewise/rest');
type Adapter = typeof import('@pagewise/kysely-adapter');
interface Checkout {
  readonly name: string;
  readonly core: Core;
  readonly adapter: Adapter;
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const against = args.flatMap((a, i) => (args[i - 1] === '--against' ? [resolve(a)] : []));
const ROUNDS = option('--rounds', 15);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const PAGES = option('--pages', 200);
/** `--profile N`: also profile N pages of each replayed/SQLite Pagewise variant and of each live `nameStatements` one, and print its top self time. */
const PROFILE = option('--profile', 0);
const TABLE = 'pagewise_cpu_items';
const ROWS = 10_000;
const PAGE_SIZE = 50;
const ORDERING = ['-created', '-id'];

const checkouts: Checkout[] = [
  { name: 'this', core: await import('@pagewise/rest'), adapter: await import('@pagewise/kysely-adapter') },
];
for (const dir of against) {
  const load = (pkg: string) => import(checkoutEntry(dir, pkg));
  checkouts.push({ name: dir, core: await load('core'), adapter: await load('kysely-adapter') });
}

interface Row {
  id: number;
  created: Date;
  score: number | null;
  title: string;
}
type DB = Record<string, Row>;

/** Row i of the table: about eight rows per second, scattered across ids. */
function row(i: number): Row {
  const seconds = 1_704_067_200 + Math.floor(((i * 2654435761) % ROWS) / 8);
  return {
    id: i,
    created: new Date(seconds * 1000),
    score: i % 5 === 0 ? null : (i * 48271) % 1000,
    title: `item ${i}`,
  };
}

/** Answers a query seen before from memory; runs (and keeps) anything new on the real driver. */
class ReplayDriver implements Driver {
  readonly #inner: Driver;
  readonly #tape = new Map<string, QueryResult<unknown>>();
  constructor(inner: Driver) {
    this.#inner = inner;
  }
  async init(): Promise<void> {
    await this.#inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const tape = this.#tape;
    const inner = this.#inner;
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const key = `${query.sql}\u0000${JSON.stringify(query.parameters)}`;
        let result = tape.get(key);
        if (result === undefined) {
          const connection = await inner.acquireConnection();
          try {
            result = await connection.executeQuery(query);
          } finally {
            await inner.releaseConnection(connection);
          }
          tape.set(key, result);
        }
        return { ...result, rows: [...result.rows] } as QueryResult<R>;
      },
      streamQuery: () => {
        throw new Error('not streamed');
      },
    };
  }
  beginTransaction = async () => {};
  commitTransaction = async () => {};
  rollbackTransaction = async () => {};
  releaseConnection = async () => {};
  async destroy(): Promise<void> {
    await this.#inner.destroy();
  }
}

class ReplayDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new ReplayDriver(super.createDriver());
  }
}

async function seedPostgres(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ n: string }>(
    `select count(*) as n from information_schema.tables where table_name = $1`,
    [TABLE],
  );
  if (
    rows[0]?.n === '1' &&
    (await pool.query(`select count(*) from ${TABLE}`)).rows[0].count === String(ROWS)
  )
    return;
  await pool.query(`drop table if exists ${TABLE}`);
  await pool.query(
    `create table ${TABLE} (id integer primary key, created timestamptz not null, score integer, title text not null)`,
  );
  await pool.query(`create index ${TABLE}_created_id on ${TABLE} (created desc, id desc)`);
  const all = Array.from({ length: ROWS }, (_, i) => row(i + 1));
  await pool.query(
    `insert into ${TABLE} select * from unnest($1::int[], $2::timestamptz[], $3::int[], $4::text[])`,
    [all.map((r) => r.id), all.map((r) => r.created), all.map((r) => r.score), all.map((r) => r.title)],
  );
}

function seedSqlite(): Database.Database {
  const database = new Database(':memory:');
  database.exec(
    `create table ${TABLE} (id integer primary key, created text not null, score integer, title text not null);
     create index ${TABLE}_created_id on ${TABLE} (created desc, id desc)`,
  );
  const insert = database.prepare(`insert into ${TABLE} values (?, ?, ?, ?)`);
  database.transaction(() => {
    for (let i = 1; i <= ROWS; i += 1) {
      const r = row(i);
      insert.run(r.id, r.created.toISOString(), r.score, r.title);
    }
  })();
  return database;
}

type Task = () => Promise<unknown> | unknown;

/** The 10,000-row table in the MariaDB/MySQL database, `created datetime` as the bench table has it. */
async function seedMysql(pool: MysqlPool): Promise<void> {
  const [found] = (await pool.query(
    'select count(*) as n from information_schema.tables where table_schema = database() and table_name = ?',
    [TABLE],
  )) as unknown as [Array<{ n: number }>];
  if (Number(found[0]?.n) === 1) {
    const [[{ n }]] = (await pool.query(`select count(*) as n from ${TABLE}`)) as unknown as [
      [{ n: number }],
    ];
    if (Number(n) === ROWS) return;
  }
  await pool.query(`drop table if exists ${TABLE}`);
  await pool.query(
    `create table ${TABLE} (id integer primary key, created datetime not null, score integer null, title varchar(40) not null, index ${TABLE}_created_id (created desc, id desc)) engine=InnoDB`,
  );
  const all = Array.from({ length: ROWS }, (_, i) => row(i + 1));
  await pool.query(`insert into ${TABLE} (id, created, score, title) values ?`, [
    all.map((r) => [r.id, r.created, r.score, r.title]),
  ]);
}

/**
 * MariaDB/MySQL through mysql2 with the server's answers replayed at the wire (`MysqlWireReplay`):
 * mysql2's own work (packets, rows, dates) included, the server's time and the round trip left
 * out. The raw query and the hand-written Kysely page beside each checkout's Pagewise page over
 * `recordExactTimestamps` and over the stock pool (the `cast(... as char)` column).
 */
async function measureMysql(mysqlUrl: string): Promise<void> {
  const options = { uri: mysqlUrl, timezone: 'Z' } as const;
  const admin = createMysqlPool({ ...options, connectionLimit: 1 }).promise();
  await seedMysql(admin);
  const [[bound]] = (await admin.query(
    `select created, id from ${TABLE} order by created desc, id desc limit 1 offset 4999`,
  )) as unknown as [[{ created: Date; id: number }]];
  await admin.end();
  const pools: MysqlCallbackPool[] = [];
  /** A pool of one connection whose answers are replayed; one tape per connection. */
  const replayed = () => {
    const { hostname, port } = new URL(mysqlUrl);
    const pool = createMysqlPool({
      ...options,
      connectionLimit: 1,
      stream: () => new MysqlWireReplay(new Map(), Number(port || 3306), hostname),
    });
    pools.push(pool);
    return pool;
  };
  const tasks = new Map<string, Task>();
  const rawPool = replayed();
  const text = `select id, created, score, title from ${TABLE} where created <= ? and (created < ? or (created = ? and id < ?)) order by created desc, id desc limit ?`;
  const c = bound!.created;
  const values = [c, c, c, bound!.id, PAGE_SIZE + 1];
  tasks.set(
    'mysql-wire raw query (text protocol)',
    () =>
      new Promise((resolve, reject) => rawPool.query(text, values, (e, r) => (e ? reject(e) : resolve(r)))),
  );
  const handDb = new Kysely<DB>({ dialect: new MysqlDialect({ pool: replayed() }) });
  tasks.set('mysql-wire hand-written Kysely keyset', () =>
    kyselyKeysetPage(handDb, TABLE, 'uniform', { id: bound!.id, created: c, score: null }, PAGE_SIZE + 1, {
      rowValues: false,
      nullsLast: false,
    }).execute(),
  );
  const dbs: Kysely<DB>[] = [handDb];
  for (const checkout of checkouts) {
    const record = (checkout.adapter as Partial<Adapter>).recordExactTimestamps;
    if (record) {
      const db = new Kysely<DB>({ dialect: new MysqlDialect({ pool: record(replayed()) }) });
      dbs.push(db);
      tasks.set(
        `mysql-wire pagewise ${checkout.name}, recordExactTimestamps`,
        await pagewiseTask(checkout, db),
      );
    }
    const stock = new Kysely<DB>({ dialect: new MysqlDialect({ pool: replayed() }) });
    dbs.push(stock);
    tasks.set(`mysql-wire pagewise ${checkout.name}, stock pool`, await pagewiseTask(checkout, stock));
  }
  await measure(tasks);
  await profileTasks(new Map([...tasks].filter(([name]) => name.includes('pagewise'))));
  await Promise.all(dbs.map((db) => db.destroy()));
  await new Promise((resolve) => rawPool.end(resolve));
}

/** One cursor page through Pagewise, with the query built afresh as a handler does. */
async function pagewiseTask(checkout: Checkout, db: Kysely<DB>): Promise<Task> {
  const { core, adapter } = checkout;
  const build = () =>
    adapter.fromKysely(db.selectFrom(TABLE).select(['id', 'created', 'score', 'title']), { db });
  // The cursor of the page after row 5,000 of the ordering, as the first pages would lead to it.
  const order = cursorOrder(ORDERING);
  const [middle] = await build().fetch({ order, after: null, offset: 4999, limit: 1 });
  const token = core.encodeCursor({ offset: 0, reverse: false, position: middle!.position }, { order });
  const url = `http://127.0.0.1/items?cursor=${token}`;
  const pagination = new core.CursorPagination({ pageSize: PAGE_SIZE, ordering: ORDERING });
  const expected = await pagination.paginateQueryset(build(), new core.ApiRequest({ url }));
  if (expected?.length !== PAGE_SIZE) throw new Error(`${checkout.name}: expected a full page`);
  return async () => {
    const page = await pagination.paginateQueryset(build(), new core.ApiRequest({ url }));
    return pagination.getPaginatedResponse(page!);
  };
}

async function measure(tasks: ReadonlyMap<string, Task>): Promise<void> {
  const cpu = new Map<string, number[]>();
  const wall = new Map<string, number[]>();
  for (const [name, task] of tasks) {
    for (let i = 0; i < PAGES; i += 1) await task(); // warm-up
    cpu.set(name, []);
    wall.set(name, []);
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    // A fresh order each round: no variant always runs right after the same one.
    const order = [...tasks].sort(() => Math.random() - 0.5);
    for (const [name, task] of order) {
      const used = await timePages(task, PAGES);
      cpu.get(name)!.push(used.user + used.system);
      wall.get(name)!.push(used.wall);
    }
  }
  const base = [...tasks.keys()].find((n) => n.includes(' raw'));
  for (const name of tasks.keys()) {
    const c = median(cpu.get(name)!);
    const ratio = base ? `  ${(median(wall.get(name)!) / median(wall.get(base)!)).toFixed(2)}x raw wall` : '';
    console.log(
      `${name.padEnd(40)} cpu ${c.toFixed(1).padStart(7)} us/page  wall ${median(wall.get(name)!).toFixed(1).padStart(7)} us/page${ratio}`,
    );
  }
}

function printProfile(summary: ProfileSummary): void {
  console.log(
    `profile ${summary.subject}: ${summary.cpuUsPerPage.toFixed(1)} us sampled CPU per page; ${summary.areas
      .map((a) => `${a.area} ${a.usPerPage.toFixed(1)}`)
      .join(', ')}`,
  );
  for (const entry of summary.top) console.log(`  ${entry.usPerPage.toFixed(1).padStart(6)} us  ${entry.fn}`);
}

/** Page 101 of the page-number style with `count: 'estimated'` (the EXPLAIN beside the page). */
async function pageNumberTask(checkout: Checkout, db: Kysely<DB>): Promise<Task> {
  const { core, adapter } = checkout;
  const build = () =>
    adapter.fromKysely(
      db
        .selectFrom(TABLE)
        .select(['id', 'created', 'score', 'title'])
        .orderBy('created', 'desc')
        .orderBy('id', 'desc'),
      { db },
    );
  const url = 'http://127.0.0.1/items?page=101';
  const pagination = new core.PageNumberPagination({ pageSize: PAGE_SIZE, count: 'estimated' });
  const expected = await pagination.paginateQueryset(build(), new core.ApiRequest({ url }));
  if (expected?.length !== PAGE_SIZE) throw new Error(`${checkout.name}: expected a full page`);
  return async () => {
    const page = await pagination.paginateQueryset(build(), new core.ApiRequest({ url }));
    return pagination.getPaginatedResponse(page!);
  };
}

async function profileTasks(tasks: ReadonlyMap<string, Task>): Promise<void> {
  if (PROFILE <= 0) return;
  for (const [name, task] of tasks) {
    const page = async () => {
      await task();
      return [];
    };
    printProfile(await profilePages(name, page, PROFILE));
  }
}

console.log(
  `load at start ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${ROUNDS} rounds of ${PAGES} pages`,
);
const url = process.env.PG_URL;
/** Whether `--only` (pg, pg-replay, sqlite or mysql) lets this part run. */
const runs = (part: 'pg' | 'sqlite' | 'mysql') =>
  only === undefined || only === part || (part === 'pg' && only === 'pg-replay');
if (url && runs('pg')) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await seedPostgres(pool);
  const tasks = new Map<string, Task>();
  for (const checkout of checkouts) {
    const db = new Kysely<DB>({ dialect: new ReplayDialect({ pool }) });
    tasks.set(`pg-replay  pagewise ${checkout.name}`, await pagewiseTask(checkout, db));
    tasks.set(`pg-replay  page-number estimated ${checkout.name}`, await pageNumberTask(checkout, db));
  }
  await measure(tasks);
  await profileTasks(tasks);
  // `--only pg-replay` stops here.
  if (only !== 'pg-replay') {
    // The same page with real round trips, on one connection per variant: raw `pg` (named and
    // unnamed statements) beside Pagewise through the stock pool and through `nameStatements`.
    const live = new Map<string, Task>();
    const one = () => new pg.Pool({ connectionString: url, max: 1 });
    const rawPool = one();
    const [bound] = (
      await rawPool.query(
        `select created, id from ${TABLE} order by created desc, id desc limit 1 offset 4999`,
      )
    ).rows as Array<{ created: Date; id: number }>;
    const text = `select id, created, score, title from ${TABLE} where (created, id) < ($1, $2) order by created desc, id desc limit $3`;
    const values = [bound!.created, bound!.id, PAGE_SIZE + 1];
    live.set('pg-live    raw named prepared statement', () =>
      rawPool.query({ name: 'raw_page', text, values }),
    );
    const unnamedPool = one();
    live.set('pg-live    raw unnamed', () => unnamedPool.query(text, values));
    const pools: pg.Pool[] = [rawPool, unnamedPool];
    for (const checkout of checkouts) {
      const stock = one();
      pools.push(stock);
      live.set(
        `pg-live    pagewise ${checkout.name}`,
        await pagewiseTask(checkout, new Kysely<DB>({ dialect: new PostgresDialect({ pool: stock }) })),
      );
    }
    /** Each checkout's own `nameStatements` over a pool from `open`, measured against the others. */
    const namedTasks = async (label: string, open: () => pg.Pool): Promise<Map<string, Task>> => {
      const tasks = new Map<string, Task>();
      for (const checkout of checkouts) {
        const nameStatements = (checkout.adapter as Partial<Adapter>).nameStatements;
        if (!nameStatements) continue;
        const pool = open();
        pools.push(pool);
        const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: nameStatements(pool) }) });
        tasks.set(`${label} pagewise ${checkout.name}, nameStatements`, await pagewiseTask(checkout, db));
      }
      return tasks;
    };
    const named = await namedTasks('pg-live   ', one);
    for (const [name, task] of named) live.set(name, task);
    await measure(live);
    await profileTasks(named);
    // The same again with Postgres's answers replayed at the wire (`WireReplay`): pg's own parsing
    // included, the server's time and the round trip left out, so JavaScript differences show.
    const wire = new Map<string, Task>();
    const replayed = () =>
      new pg.Pool({ connectionString: url, max: 1, stream: () => new WireReplay(new Map()) });
    const rawWire = replayed();
    pools.push(rawWire);
    wire.set('pg-wire    raw named prepared statement', () =>
      rawWire.query({ name: 'raw_page', text, values }),
    );
    const kyselyWire = replayed();
    pools.push(kyselyWire);
    const kyselyDb = new Kysely<DB>({ dialect: new PostgresDialect({ pool: kyselyWire }) });
    wire.set('pg-wire    hand-written Kysely keyset', () =>
      kyselyKeysetPage(
        kyselyDb,
        TABLE,
        'uniform',
        { id: bound!.id, created: bound!.created, score: null },
        PAGE_SIZE + 1,
        { rowValues: true, nullsLast: true },
      ).execute(),
    );
    for (const [name, task] of await namedTasks('pg-wire   ', replayed)) wire.set(name, task);
    await measure(wire);
    await profileTasks(new Map([...wire].filter(([name]) => name.includes('pagewise'))));
    await Promise.all(pools.map((p) => p.end()));
  }
  await pool.end();
} else if (runs('pg')) {
  console.log('PG_URL not set: Postgres replay skipped');
}
if (runs('sqlite')) {
  const database = seedSqlite();
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
  const tasks = new Map<string, Task>();
  const [middle] = database
    .prepare(`select created, id from ${TABLE} order by created desc, id desc limit 1 offset 4999`)
    .all() as Array<{ created: string; id: number }>;
  const raw = database.prepare(
    `select id, created, score, title from ${TABLE} where (created, id) < (?, ?) order by created desc, id desc limit ?`,
  );
  tasks.set('sqlite     raw stmt.all() prepared once', () =>
    raw.all(middle!.created, middle!.id, PAGE_SIZE + 1),
  );
  tasks.set('sqlite     hand-written Kysely keyset', () =>
    db
      .selectFrom(TABLE)
      .select(['id', 'created', 'score', 'title'])
      // SQLite keeps `created` as ISO text here, not the Date of the Postgres table's type.
      .where(sql<boolean>`(${sql.ref('created')}, ${sql.ref('id')}) < (${middle!.created}, ${middle!.id})`)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE + 1)
      .execute(),
  );
  for (const checkout of checkouts)
    tasks.set(`sqlite     pagewise ${checkout.name}`, await pagewiseTask(checkout, db));
  const reuse = (checkouts[0]!.adapter as Partial<Adapter>).reusePreparedStatements;
  if (reuse) {
    const reusing = new Kysely<DB>({ dialect: new SqliteDialect({ database: reuse(database) }) });
    tasks.set(
      'sqlite     pagewise this, reusePreparedStatements',
      await pagewiseTask(checkouts[0]!, reusing),
    );
  }
  await measure(tasks);
  await profileTasks(new Map([...tasks].filter(([name]) => name.includes('pagewise'))));
  await db.destroy();
}
const mysqlUrl = process.env.BENCH_MYSQL_URL || process.env.MYSQL_URL;
if (mysqlUrl && runs('mysql')) {
  await measureMysql(mysqlUrl);
} else if (runs('mysql')) {
  console.log('BENCH_MYSQL_URL / MYSQL_URL not set: MariaDB skipped');
}
console.log(
  `load at end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
