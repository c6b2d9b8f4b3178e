// The cost of a cursor page under each count mode (issue 38 §1), and of its cursors plain, signed
// and encrypted (§4): on Postgres (PG_URL) or MariaDB (MYSQL_URL), a table of ROWS rows (default
// 3,000,000; BENCH_COUNT_ROWS), the median of RUNS pages (default 15; BENCH_RUNS) per mode, wall time
// from the call to the page value. BENCH_COUNT_DIALECT picks the database (postgres, mariadb or
// both; default: each one whose URL is set), BENCH_COUNT_TIMEOUT the countTimeout in ms (default 50),
// BENCH_COUNT_TABLE the table's name prefix (default pw_bench_counts). After the countTimeout pages,
// the server is asked which statements on the table still run (pg_stat_activity, SHOW PROCESSLIST):
// a count cancelled at the limit must have left none.
//
//   PG_URL=postgres://postgres@127.0.0.1:5432/test pnpm --filter @pagewise/bench exec tsx --conditions=@pagewise/source src/count-modes.ts
//   BENCH_COUNT_ROWS=10000000 BENCH_COUNT_DIALECT=mariadb MYSQL_URL=mysql://root@127.0.0.1:3306/test pnpm --filter @pagewise/bench exec tsx --conditions=@pagewise/source src/count-modes.ts
import { loadavg } from 'node:os';
import { CountCache, cursorPage, paginateCursor } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';

const ROWS = Number(process.env.BENCH_COUNT_ROWS ?? 3_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TIMEOUT = Number(process.env.BENCH_COUNT_TIMEOUT ?? 50);
const TABLE = `${process.env.BENCH_COUNT_TABLE ?? 'pw_bench_counts'}_${process.pid.toString(36)}`;

type Dialect = 'postgres' | 'mariadb';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

// biome-ignore lint/suspicious/noExplicitAny: a table made here.
function open(dialect: Dialect): Kysely<any> {
  if (dialect === 'postgres') {
    return new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.PG_URL, max: 4 }) }),
    });
  }
  return new Kysely({
    dialect: new MysqlDialect({ pool: createPool({ uri: process.env.MYSQL_URL!, connectionLimit: 4 }) }),
  });
}

/** ROWS rows, seeded by the server itself: generate_series, or MariaDB's sequence engine. */
// biome-ignore lint/suspicious/noExplicitAny: a table made here.
async function seed(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await sql`create table ${sql.table(TABLE)} (id integer primary key, score integer not null)`.execute(db);
  if (dialect === 'postgres') {
    await sql`insert into ${sql.table(TABLE)} select g, g % 1000 from generate_series(1, ${ROWS}) g`.execute(
      db,
    );
    await sql`analyze ${sql.table(TABLE)}`.execute(db);
  } else {
    await sql`insert into ${sql.table(TABLE)} select seq, seq % 1000 from ${sql.table(`seq_1_to_${ROWS}`)}`.execute(
      db,
    );
    await sql`analyze table ${sql.table(TABLE)}`.execute(db);
  }
}

/** Statements on the table still running on the server, the asking one aside. */
// biome-ignore lint/suspicious/noExplicitAny: a table made here.
async function running(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  const like = `%${TABLE}%`;
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ text: string }>`select query as text from pg_stat_activity
          where state = 'active' and pid <> pg_backend_pid() and query like ${like}`.execute(db)
      : await sql<{ text: string }>`select info as text from information_schema.processlist
          where id <> connection_id() and info like ${like}`.execute(db);
  return rows.map((row) => row.text);
}

async function countModes(dialect: Dialect): Promise<void> {
  const db = open(dialect);
  try {
    const seeding = performance.now();
    await seed(db, dialect);
    const seeded = (performance.now() - seeding) / 1000;
    const query = () => fromKysely(db.selectFrom(TABLE).selectAll(), { db });
    const url = 'http://bench/items';
    const cache = new CountCache({ ttlMs: 600_000 });
    const modes = {
      none: { pageSize: 20, ordering: 'id' },
      estimated: { pageSize: 20, ordering: 'id', count: 'estimated' as const },
      'estimated, cached': { pageSize: 20, ordering: 'id', count: 'estimated' as const, countCache: cache },
      exact: { pageSize: 20, ordering: 'id', count: 'exact' as const },
      'exact, cached': { pageSize: 20, ordering: 'id', count: 'exact' as const, countCache: cache },
      [`exact, countTimeout ${TIMEOUT} ms`]: {
        pageSize: 20,
        ordering: 'id',
        count: 'exact' as const,
        countTimeout: TIMEOUT,
      },
    };
    const name = dialect === 'postgres' ? 'Postgres' : 'MariaDB';
    console.log(
      `\n| count mode (${name}, ${ROWS.toLocaleString('en')} rows, page 20) | median ms per page | count | countMode |`,
    );
    console.log('| --- | ---: | ---: | --- |');
    const load = loadavg()[0]!.toFixed(2);
    let left: string[] = [];
    for (const [mode, options] of Object.entries(modes)) {
      const page = await cursorPage(query(), url, options);
      const ms = await timed(() => cursorPage(query(), url, options));
      if ('countTimeout' in options) left = await running(db, dialect);
      console.log(
        `| ${mode} | ${ms.toFixed(2)} | ${page.count?.toLocaleString('en') ?? ''} | ${page.countMode} |`,
      );
    }
    console.log(
      `\n${name}: seeded in ${seeded.toFixed(1)} s; load average ${load} at the start, ` +
        `${loadavg()[0]!.toFixed(2)} at the end; statements on the table still running after the ` +
        `countTimeout pages: ${left.length === 0 ? 'none' : JSON.stringify(left)}`,
    );
  } finally {
    await sql`drop table if exists ${sql.table(TABLE)}`.execute(db);
    await db.destroy();
  }
}

async function cursorCosts(): Promise<void> {
  const rows = Array.from({ length: 1000 }, (_, i) => ({
    id: i + 1,
    created: new Date(1.7e12 + (i >> 2) * 1000),
  }));
  const query = fromArray(rows, { uniqueKey: 'id' });
  const protections = {
    plain: {},
    signed: { cursorSecret: 'bench secret' },
    encrypted: { cursorEncryptionKey: 'bench key of at least thirty-two characters' },
  };
  console.log('\n| cursors (memory adapter, page 20, 20,000 pages) | µs per page |');
  console.log('| --- | ---: |');
  for (const [name, extra] of Object.entries(protections)) {
    const options = { pageSize: 20, ordering: '-created', ...extra };
    const cursor = (await paginateCursor(query, options)).nextCursor;
    for (let i = 0; i < 2000; i += 1) await paginateCursor(query, { ...options, cursor });
    const started = performance.now();
    for (let i = 0; i < 20_000; i += 1) await paginateCursor(query, { ...options, cursor });
    console.log(`| ${name} | ${(((performance.now() - started) * 1000) / 20_000).toFixed(1)} |`);
  }
}

const dialects = (process.env.BENCH_COUNT_DIALECT ?? 'postgres,mariadb').split(',');
if (process.env.PG_URL && dialects.includes('postgres')) await countModes('postgres');
if (process.env.MYSQL_URL && dialects.includes('mariadb')) await countModes('mariadb');
await cursorCosts();
