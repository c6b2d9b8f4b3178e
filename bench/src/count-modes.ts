// The cost of a cursor page under each count mode (issue 38 §1), and of its cursors plain, signed
// and encrypted (§4), on Postgres: a table of ROWS rows (default 3,000,000; BENCH_COUNT_ROWS), the
// median of RUNS pages (default 15) per mode, wall time from the call to the page value.
//
//   PG_URL=postgres://postgres@127.0.0.1:5432/test pnpm --filter @pagewise/bench exec tsx --conditions=@pagewise/source src/count-modes.ts
import { CountCache, cursorPage, paginateCursor } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

const ROWS = Number(process.env.BENCH_COUNT_ROWS ?? 3_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TABLE = `pw_bench_counts_${process.pid.toString(36)}`;

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

async function countModes(): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: a table made here.
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.PG_URL, max: 4 }) }),
  });
  try {
    await sql`create table ${sql.table(TABLE)} (id integer primary key, score integer not null)`.execute(db);
    await sql`insert into ${sql.table(TABLE)} select g, g % 1000 from generate_series(1, ${ROWS}) g`.execute(
      db,
    );
    await sql`analyze ${sql.table(TABLE)}`.execute(db);
    const query = () => fromKysely(db.selectFrom(TABLE).selectAll(), { db });
    const url = 'http://bench/items';
    const cache = new CountCache({ ttlMs: 600_000 });
    const modes = {
      none: { pageSize: 20, ordering: 'id' },
      estimated: { pageSize: 20, ordering: 'id', count: 'estimated' as const },
      'estimated, cached': { pageSize: 20, ordering: 'id', count: 'estimated' as const, countCache: cache },
      exact: { pageSize: 20, ordering: 'id', count: 'exact' as const },
      'exact, cached': { pageSize: 20, ordering: 'id', count: 'exact' as const, countCache: cache },
      'exact, countTimeout 50 ms': {
        pageSize: 20,
        ordering: 'id',
        count: 'exact' as const,
        countTimeout: 50,
      },
    };
    console.log(
      `| count mode (Postgres, ${ROWS.toLocaleString('en')} rows, page 20) | median ms per page | countMode |`,
    );
    console.log('| --- | ---: | --- |');
    for (const [name, options] of Object.entries(modes)) {
      const page = await cursorPage(query(), url, options);
      const ms = await timed(() => cursorPage(query(), url, options));
      console.log(`| ${name} | ${ms.toFixed(2)} | ${page.countMode} |`);
    }
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

if (process.env.PG_URL) await countModes();
await cursorCosts();
