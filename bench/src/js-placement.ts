/**
 * What the same JavaScript costs a database page depending on where it runs: before the statement
 * is sent, after the rows arrive, or while the statement is in flight. Beside a keyset page
 * hand-written in Kysely (stock dialect, the benchmark table, depth 10k), the same page plus a
 * Pagewise cursor page over the memory adapter (Pagewise's own JavaScript without I/O) or plus
 * fixed work (JSON round trips of a cursor-sized object), round-robin; each case's median is
 * compared with the page alone and with the work's own warm cost in a loop.
 *
 * `pnpm bench` runs it on Postgres for the report's "Where Pagewise's JavaScript runs" section; on
 * its own, after a `pnpm bench` has seeded the tables:
 *
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/pagewise_bench pnpm --filter @pagewise/bench exec \
 *     tsx src/js-placement.ts [--dialect mariadb|postgres] [--rounds 3000]
 */
import { resolve } from 'node:path';
import { fromArray } from '@pagewise/memory-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { COLUMNS } from './bench-table.js';
import { type KeysetRow, type KeysetStyle, kyselyKeysetPage } from './kysely-keyset.js';
import { median } from './measure.js';
import { defaultDatabaseUrl } from './options.js';
import { pagewiseCursorAfter } from './orderings.js';

/** Where the work runs, relative to the page's one round trip. */
export type Placement = 'before' | 'after' | 'in-flight';

export interface PlacementCase {
  /** `memory`: a Pagewise cursor page over the memory adapter; `json`: JSON round trips. */
  readonly work: 'memory' | 'json';
  readonly where: Placement;
  readonly medianUs: number;
  /** The median over the page alone's median. */
  readonly addedUs: number;
}

export interface PlacementResult {
  readonly database: string;
  readonly depth: number;
  readonly rounds: number;
  /** Each work's own cost, warm, in a loop of 20,000 calls. */
  readonly warmUs: { readonly memory: number; readonly json: number };
  /** The hand-written Kysely page alone. */
  readonly aloneUs: number;
  readonly cases: readonly PlacementCase[];
}

export interface PlacementOptions {
  readonly database: string;
  // biome-ignore lint/suspicious/noExplicitAny: the table name is chosen at run time.
  readonly db: Kysely<any>;
  readonly table: string;
  /** The row before the page (depth `depth` in `-created, -id`). */
  readonly before: KeysetRow;
  readonly depth: number;
  readonly style: KeysetStyle;
  readonly rounds: number;
}

const WARM_CALLS = 20_000;
/** Rounds left untimed at the start (plans cached, code optimized). */
const UNTIMED = 200;

/** Times the page alone and with each work before, after and in flight (see the file's comment). */
export async function measurePlacement(options: PlacementOptions): Promise<PlacementResult> {
  const { db, table, before, style } = options;
  const page = () => kyselyKeysetPage(db, table, 'uniform', before, 51, style).execute();

  const items = Array.from({ length: 2_000 }, (_, i) => ({
    id: i + 1,
    created: new Date(Date.UTC(2024, 0, 1) + (i % 500) * 1000),
    title: `item ${i}`,
  }));
  const memory = fromArray(items, { uniqueKey: 'id' });
  const ordering = ['-created', '-id'];
  const cursor = await pagewiseCursorAfter(
    fromArray(items.slice(1_000, 1_001), { uniqueKey: 'id' }),
    ordering,
  );
  const pagination = new CursorPagination({ pageSize: 50, ordering });
  const url = `http://127.0.0.1/items?cursor=${cursor}`;
  const work = {
    memory: async () => {
      const rows = await pagination.paginateQueryset(memory, new ApiRequest({ url }));
      pagination.getPaginatedResponse(rows!);
    },
    json: async () => {
      const payload = { k: 'f1l7yj', p: ['2024-01-01T23:34:10.000Z', 500005], o: 3, r: false };
      let length = 0;
      for (let i = 0; i < 15; i += 1) length += JSON.stringify(JSON.parse(JSON.stringify(payload))).length;
      if (length === 0) throw new Error('unreachable');
    },
  };
  const warm = async (run: () => Promise<void>) => {
    for (let i = 0; i < WARM_CALLS; i += 1) await run();
    const start = performance.now();
    for (let i = 0; i < WARM_CALLS; i += 1) await run();
    return ((performance.now() - start) / WARM_CALLS) * 1000;
  };
  const warmUs = { memory: await warm(work.memory), json: await warm(work.json) };

  // A `setImmediate` runs after the microtasks that hand the statement to the driver.
  const sent = () => new Promise<void>((done) => setImmediate(done));
  const contenders: Array<{ key: string; run: () => Promise<unknown> }> = [{ key: 'alone', run: page }];
  for (const kind of ['memory', 'json'] as const) {
    const run = work[kind];
    contenders.push(
      {
        key: `${kind}:before`,
        run: async () => {
          await run();
          await page();
        },
      },
      {
        key: `${kind}:after`,
        run: async () => {
          await page();
          await run();
        },
      },
      {
        key: `${kind}:in-flight`,
        run: async () => {
          const rows = page();
          await sent();
          await run();
          await rows;
        },
      },
    );
  }
  const samples = new Map(contenders.map(({ key }) => [key, [] as number[]]));
  for (let round = 0; round < UNTIMED + options.rounds; round += 1) {
    // Each round starts one contender further on: none always follows the same one (in a fixed
    // order, before the send and after the rows ranked the other way round).
    for (let k = 0; k < contenders.length; k += 1) {
      const { key, run } = contenders[(round + k) % contenders.length]!;
      const start = performance.now();
      await run();
      if (round >= UNTIMED) samples.get(key)!.push((performance.now() - start) * 1000);
    }
  }
  const aloneUs = median(samples.get('alone')!);
  const cases = contenders.slice(1).map(({ key }): PlacementCase => {
    const [kind, where] = key.split(':') as ['memory' | 'json', Placement];
    const medianUs = median(samples.get(key)!);
    return { work: kind, where, medianUs, addedUs: medianUs - aloneUs };
  });
  return { database: options.database, depth: options.depth, rounds: options.rounds, warmUs, aloneUs, cases };
}

const ORDER_BY = 'created DESC, id DESC';

/** The row before `depth` in `-created, -id` on Postgres (`$1`) or MariaDB (`?`). */
function rowBeforeSql(table: string, placeholder: string): string {
  return `SELECT ${COLUMNS.join(', ')} FROM ${table} ORDER BY ${ORDER_BY} LIMIT 1 OFFSET ${placeholder}`;
}

/** The command line: `--dialect mariadb|postgres`, `--rounds N`. */
async function main(args: readonly string[]): Promise<void> {
  const option = (name: string, fallback: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1]! : fallback;
  };
  const dialect = option('--dialect', 'mariadb');
  const rounds = Number(option('--rounds', '3000'));
  const table = 'pagewise_bench_items';
  const depth = 10_000;
  let setup: Pick<PlacementOptions, 'database' | 'db' | 'before' | 'style'>;
  if (dialect === 'mariadb') {
    const uri = process.env.BENCH_MYSQL_URL || process.env.MYSQL_URL;
    if (!uri) throw new Error('set BENCH_MYSQL_URL (the database `pnpm bench` seeded)');
    const pool = createPool({ uri, timezone: 'Z', connectionLimit: 2 });
    const [rows] = (await pool.promise().query(rowBeforeSql(table, '?'), [depth - 1])) as unknown as [
      KeysetRow[],
    ];
    const db = new Kysely({ dialect: new MysqlDialect({ pool }) });
    setup = { database: 'MariaDB', db, before: rows[0]!, style: { rowValues: false, nullsLast: false } };
  } else {
    const pool = new pg.Pool({ connectionString: defaultDatabaseUrl(), max: 2 });
    const { rows } = await pool.query<KeysetRow>(rowBeforeSql(table, '$1'), [depth - 1]);
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    setup = { database: 'Postgres', db, before: rows[0]!, style: { rowValues: true, nullsLast: true } };
  }
  const result = await measurePlacement({ ...setup, table, depth, rounds });
  await setup.db.destroy();
  console.log(
    `${result.database}, depth ${depth}, ${rounds} rounds; warm in a loop: memory page ${result.warmUs.memory.toFixed(1)} us, json ${result.warmUs.json.toFixed(1)} us; page alone ${result.aloneUs.toFixed(0)} us`,
  );
  for (const c of result.cases) {
    console.log(
      `${`${c.work} ${c.where}`.padEnd(18)} ${c.medianUs.toFixed(0).padStart(5)} us  +${c.addedUs.toFixed(0)}`,
    );
  }
}

if (
  process.argv[1] !== undefined &&
  resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)
) {
  await main(process.argv.slice(2));
}
