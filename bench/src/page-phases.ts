/**
 * Where a MariaDB cursor page's time goes, in place (beside the round trip, not in a loop): a
 * Pagewise cursor page over the benchmark table (uniform `-created, -id`, depth 10,000, the pool
 * wrapped by `recordExactTimestamps`, a fresh `fromKysely` per page as a handler builds it) split
 * into its phases, beside the same page's statement run by `executeQuery` on the same Kysely
 * instance ("replay") and the keyset query hand-written in Kysely (stock pool), round-robin, each
 * round starting one contender further on. The phases are read on a second Kysely instance
 * (`marked`), whose pool under Pagewise's wrapper notes when mysql2 is handed the statement and
 * when its answer comes back (which costs its pages some time: the `pagewise` contender, unmarked,
 * is the one to compare with the hand-written page), so a page splits into:
 *
 * - `request`: `new ApiRequest({ url })`; `build`: the handler's `fromKysely(db.selectFrom(...))`;
 * - `before send`: from `paginateQueryset` to the statement handed to mysql2 (cursor, plan,
 *   parameters, Kysely's executor);
 * - `round trip`: mysql2 writing the statement to the answer's callback (the server included);
 * - `after rows`: the callback to `paginateQueryset`'s page (dates, rows, positions, links);
 * - `response`: `getPaginatedResponse`.
 *
 * The replay runs on the marked instance too and splits alike, so "Pagewise over replay" per phase
 * is Pagewise's own JavaScript there.
 * CPU per page (user + system of this process) is the mean over the timed rounds.
 *
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/pagewise_bench pnpm --filter @pagewise/bench exec \
 *     tsx src/page-phases.ts [--rounds 3000] [--depth 10000 (0: the first page)] [--profile N]
 *
 * `--profile N` then samples N pages of Pagewise and N of the hand-written page, each alone (V8's
 * profiler, `BENCH_PROFILE_TOP` functions), and prints their self time per area and function.
 *
 * Needs the table `pnpm bench` seeds on MariaDB.
 */
import { loadavg } from 'node:os';
import { fromKysely, recordExactTimestamps } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import { type CompiledQuery, Kysely, MysqlDialect, type MysqlPool } from 'kysely';
import { createPool } from 'mysql2';
import { COLUMNS } from './bench-table.js';
import { cursorAfterRow } from './dialect-bench.js';
import { type KeysetRow, kyselyKeysetPage } from './kysely-keyset.js';
import { median } from './measure.js';
import { UNIQUE_KEY } from './orderings.js';
import { profilePages } from './profile.js';

const TABLE = 'pagewise_bench_items';
const ORDERING = ['-created', '-id'];
const UNTIMED = 300;

/** When the pool last handed a statement to mysql2, and when its answer came back (ms). */
interface Marks {
  sent: number;
  answered: number;
}

type Callback = (...results: unknown[]) => void;

/** `pool` with each query's hand-over and answer noted in `marks` (callback queries only). */
function marking(pool: MysqlPool, marks: Marks): MysqlPool {
  const seen = new WeakSet<object>();
  return {
    getConnection(callback) {
      pool.getConnection((error, connection) => {
        if (!error && !seen.has(connection)) {
          seen.add(connection);
          const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
          // A query command built beforehand (`recordExactTimestamps` makes one) answers through `onResult`.
          (connection as { query: unknown }).query = (...args: unknown[]) => {
            const last = args.at(-1) as Callback | { onResult?: Callback } | undefined;
            if (typeof last === 'function') {
              args[args.length - 1] = (...results: unknown[]) => {
                marks.answered = performance.now();
                last(...results);
              };
            } else if (typeof last?.onResult === 'function') {
              const onResult = last.onResult;
              last.onResult = (...results: unknown[]) => {
                marks.answered = performance.now();
                onResult(...results);
              };
            }
            marks.sent = performance.now();
            return query(...args);
          };
        }
        callback(error, connection);
      });
    },
    end: (callback) => pool.end(callback),
  };
}

const PHASES = ['request', 'build', 'before send', 'round trip', 'after rows', 'response'] as const;
type Phase = (typeof PHASES)[number];

async function main(args: readonly string[]): Promise<void> {
  const option = (name: string, fallback: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1]! : fallback;
  };
  const rounds = Number(option('--rounds', '3000'));
  const depth = Number(option('--depth', '10000'));
  const profile = Number(option('--profile', '0'));
  const uri = process.env.BENCH_MYSQL_URL || process.env.MYSQL_URL;
  if (!uri) throw new Error('set BENCH_MYSQL_URL (the database `pnpm bench` seeded)');
  const poolOptions = { uri, timezone: 'Z', connectionLimit: 2 } as const;
  const marks: Marks = { sent: 0, answered: 0 };
  // The phases are read on an instance of their own, whose marks cost its pages some time: the
  // `pagewise` contender runs unmarked, as a user's page does, beside the hand-written page.
  // biome-ignore lint/suspicious/noExplicitAny: the table name is chosen at run time.
  const pagewiseDb = new Kysely<any>({
    dialect: new MysqlDialect({ pool: recordExactTimestamps(createPool(poolOptions)) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const markedDb = new Kysely<any>({
    dialect: new MysqlDialect({ pool: recordExactTimestamps(marking(createPool(poolOptions), marks)) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const handDb = new Kysely<any>({ dialect: new MysqlDialect({ pool: createPool(poolOptions) }) });
  // The row before the page; depth 0 is the first page (no cursor).
  let before: KeysetRow | null = null;
  if (depth > 0) {
    const admin = createPool({ ...poolOptions, connectionLimit: 1 }).promise();
    const [found] = (await admin.query(
      `SELECT ${COLUMNS.join(', ')} FROM ${TABLE} ORDER BY created DESC, id DESC LIMIT 1 OFFSET ?`,
      [depth - 1],
    )) as unknown as [KeysetRow[]];
    await admin.end();
    before = found[0] ?? null;
    if (before === null) throw new Error(`${TABLE} has no row ${depth}: seed it with pnpm bench`);
  }

  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const build = (db: Kysely<any>) =>
    fromKysely(db.selectFrom(TABLE).select([...COLUMNS]), { db, uniqueKey: UNIQUE_KEY });
  const cursor = before === null ? null : await cursorAfterRow(pagewiseDb, TABLE, before.id, ORDERING);
  const url = cursor === null ? 'http://127.0.0.1/items' : `http://127.0.0.1/items?cursor=${cursor}`;
  const pagination = new CursorPagination({ pageSize: 50, ordering: ORDERING });
  // The statements of one page, seen through Kysely's log on a page of its own (plans cached first).
  let statements: CompiledQuery[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const probeDb = new Kysely<any>({
    dialect: new MysqlDialect({ pool: recordExactTimestamps(createPool(poolOptions)) }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });
  const probe = () =>
    fromKysely(probeDb.selectFrom(TABLE).select([...COLUMNS]), { db: probeDb, uniqueKey: UNIQUE_KEY });
  await pagination.paginateQueryset(probe(), new ApiRequest({ url }));
  statements = [];
  await pagination.paginateQueryset(probe(), new ApiRequest({ url }));
  const sent = statements;
  await probeDb.destroy();

  /** Microseconds per `who:phase`. */
  const phases = new Map<string, number[]>();
  const note = (who: string, phase: Phase, ms: number) => {
    const key = `${who}:${phase}`;
    const list = phases.get(key) ?? [];
    list.push(ms * 1000);
    phases.set(key, list);
  };
  let timed = false;
  const contenders: Array<{ name: string; run: () => Promise<unknown> }> = [
    {
      name: 'pagewise',
      run: async () => {
        const page = await pagination.paginateQueryset(build(pagewiseDb), new ApiRequest({ url }));
        pagination.getPaginatedResponse(page!);
      },
    },
    {
      name: 'pagewise, marked',
      run: async () => {
        const a = performance.now();
        const request = new ApiRequest({ url });
        const b = performance.now();
        const query = build(markedDb);
        const c = performance.now();
        const page = await pagination.paginateQueryset(query, request);
        const d = performance.now();
        pagination.getPaginatedResponse(page!);
        const e = performance.now();
        if (!timed) return;
        note('pagewise', 'request', b - a);
        note('pagewise', 'build', c - b);
        note('pagewise', 'before send', marks.sent - c);
        note('pagewise', 'round trip', marks.answered - marks.sent);
        note('pagewise', 'after rows', d - marks.answered);
        note('pagewise', 'response', e - d);
      },
    },
    {
      name: 'replay, marked',
      run: async () => {
        const c = performance.now();
        for (const statement of sent) await markedDb.executeQuery(statement);
        const d = performance.now();
        if (!timed) return;
        note('replay', 'before send', marks.sent - c);
        note('replay', 'round trip', marks.answered - marks.sent);
        note('replay', 'after rows', d - marks.answered);
      },
    },
    {
      name: 'hand-written Kysely',
      run: () =>
        kyselyKeysetPage(handDb, TABLE, 'uniform', before, 51, {
          rowValues: false,
          nullsLast: false,
        }).execute(),
    },
  ];
  // The same rows before any timing: Pagewise's page, its replayed statement and the hand-written page.
  const ids = (rows: ReadonlyArray<{ id: unknown }>) =>
    rows
      .slice(0, 50)
      .map((r) => Number(r.id))
      .join(',');
  const want = ids(
    (await kyselyKeysetPage(handDb, TABLE, 'uniform', before, 51, {
      rowValues: false,
      nullsLast: false,
    }).execute()) as {
      id: unknown;
    }[],
  );
  const [statement, ...more] = sent;
  if (statement === undefined || more.length > 0) {
    throw new Error(`page-phases: a page of one statement was expected, it sent ${sent.length}`);
  }
  const pagewiseRows = await pagination.paginateQueryset(build(pagewiseDb), new ApiRequest({ url }));
  const replayed = (await markedDb.executeQuery<{ id: unknown }>(statement)).rows;
  if (ids(pagewiseRows as { id: unknown }[]) !== want || ids(replayed) !== want) {
    throw new Error(
      'page-phases: Pagewise, its replayed statement and the hand-written page read different rows',
    );
  }
  const wall = new Map(contenders.map(({ name }) => [name, [] as number[]]));
  const cpu = new Map(contenders.map(({ name }) => [name, 0]));
  const loadStart = loadavg()[0]!;
  for (let round = 0; round < UNTIMED + rounds; round += 1) {
    timed = round >= UNTIMED;
    for (let k = 0; k < contenders.length; k += 1) {
      const { name, run } = contenders[(round + k) % contenders.length]!;
      const usage = process.cpuUsage();
      const start = performance.now();
      await run();
      const ms = performance.now() - start;
      const used = process.cpuUsage(usage);
      if (!timed) continue;
      wall.get(name)!.push(ms * 1000);
      cpu.set(name, cpu.get(name)! + used.user + used.system);
    }
  }
  const profiles = [];
  for (const name of profile > 0 ? ['pagewise', 'hand-written Kysely'] : []) {
    const { run } = contenders.find((c) => c.name === name)!;
    profiles.push(
      await profilePages(
        name,
        async () => {
          await run();
          return [];
        },
        profile,
      ),
    );
  }
  await Promise.all([pagewiseDb.destroy(), markedDb.destroy(), handDb.destroy()]);

  console.log(
    `MariaDB cursor page, depth ${depth}, ${rounds} rounds round-robin; load ${loadStart.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)}`,
  );
  for (const { name } of contenders) {
    console.log(
      `${name.padEnd(20)} wall median ${median(wall.get(name)!).toFixed(0).padStart(5)} us   CPU mean ${(cpu.get(name)! / rounds).toFixed(0).padStart(5)} us`,
    );
  }
  console.log(`\nphase (median us, marked) ${'pagewise'.padStart(9)} ${'replay'.padStart(9)}`);
  for (const phase of PHASES) {
    const of = (who: string) => {
      const list = phases.get(`${who}:${phase}`);
      return list === undefined ? '' : median(list).toFixed(1);
    };
    console.log(`${phase.padEnd(25)} ${of('pagewise').padStart(9)} ${of('replay').padStart(9)}`);
  }
  for (const summary of profiles) {
    console.log(
      `\nprofile ${summary.subject}: ${summary.cpuUsPerPage.toFixed(1)} us sampled per page; ${summary.areas.map((a) => `${a.area} ${a.usPerPage.toFixed(1)}`).join(', ')}`,
    );
    for (const entry of summary.top)
      console.log(`  ${entry.usPerPage.toFixed(1).padStart(6)} us  ${entry.fn}`);
  }
}

await main(process.argv.slice(2));
