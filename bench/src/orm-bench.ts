/**
 * `pnpm --filter @pagewise/bench run orm [-- options]`: Pagewise over Drizzle and over Kysely
 * against the same keyset page hand-written in each ORM, on the same pool, at every depth, on
 * Postgres (node-postgres), SQLite (better-sqlite3) and MariaDB (mysql2), on the stock pool (the
 * default path: no driver wrapper) and on the pool wrapped by Pagewise's driver option (the named
 * path: `nameStatements`, `reusePreparedStatements`, `recordExactTimestamps`). Prints a Markdown
 * section (medians, ratios) for bench/RESULTS.md; with `--write`, replaces the section between its
 * markers there.
 *
 * Options: --rows N (1000000), --table NAME (pagewise_bench_items), --dialects postgres,sqlite,mariadb,
 * --orderings uniform,mixed, --budget-ms 3000, --max-samples 400, --min-samples 30, --warmup 300,
 * --depths 0,10000,... (the bench's), --write, --profile KIND (a CPU profile of one contender's pages
 * alone), --profile-round-robin (each depth's round robin profiled: the self time of Pagewise's code
 * per Pagewise page as the tables run it, between the other contenders' pages; the tables are then
 * slowed by the profiler, and `--write` is refused).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import {
  fromKysely,
  nameStatements,
  recordExactTimestamps,
  reusePreparedStatements,
} from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { and, desc, asc as drizzleAsc, eq, gt, lt, lte, or } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { datetime, int as myInt, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { integer as sqInteger, sqliteTable, text as sqText } from 'drizzle-orm/sqlite-core';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { COLUMNS, ensureSeeded } from './bench-table.js';
import {
  handCursor,
  handCursorPage,
  type KeysetRow,
  type KeysetStyle,
  kyselyKeysetPage,
} from './kysely-keyset.js';
import { type LatencyStats, measureRoundRobin, type PageFetch } from './measure.js';
import { BENCH_DIR, DEFAULT_DEPTHS, flagValue } from './options.js';
import { ORDERINGS, type OrderingName, pagewiseCursorAfter, UNIQUE_KEY } from './orderings.js';
import { PAGEWISE_AREAS, profilePages, profileRoundRobin } from './profile.js';
import { seedSqliteItems } from './sqlite-items.js';

type Dialect = 'postgres' | 'sqlite' | 'mariadb';
type Ordering = Extract<OrderingName, 'uniform' | 'mixed'>;

const args = process.argv.slice(2);
const flag = (name: string) => flagValue(args, name);
const rows = Number(flag('rows') ?? 1_000_000);
const table = flag('table') ?? 'pagewise_bench_items';
const dialects = (flag('dialects') ?? 'postgres,sqlite,mariadb').split(',') as Dialect[];
const orderings = (flag('orderings') ?? 'uniform,mixed').split(',') as Ordering[];
const depths = (flag('depths')?.split(',').map(Number) ?? DEFAULT_DEPTHS).map((d) => Math.min(d, rows - 50));
const plan = {
  warmupRounds: Number(flag('warmup') ?? 300),
  maxSamples: Number(flag('max-samples') ?? 400),
  minSamples: Number(flag('min-samples') ?? 30),
  budgetMs: Number(flag('budget-ms') ?? 3000),
};
const profileKind = flag('profile');
/** Also times Kysely's hand-written page with its cursor work (`handCursorPage`), in a table of its own. */
const withCursorHand = args.includes('--with-cursor-hand');
const profileMixed = args.includes('--profile-round-robin');
if (profileMixed && args.includes('--write'))
  throw new Error('--profile-round-robin slows the pages: it writes no tables');
const pageSize = 50;
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.BENCH_MYSQL_URL ?? process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const log = (line: string) => process.stderr.write(`${line}\n`);

const ORDER_SQL: Record<Ordering, string> = {
  uniform: 'created DESC, id DESC',
  mixed: 'created DESC, id ASC',
};
const SELECT = COLUMNS.join(', ');

/** The raw keyset statement an expert writes (`?` placeholders; Postgres numbers them). */
function rawText(ordering: Ordering, after: boolean, rowValues: boolean): { text: string; slots: number } {
  const from = `SELECT ${SELECT} FROM ${table}`;
  if (!after) return { text: `${from} ORDER BY ${ORDER_SQL[ordering]} LIMIT ?`, slots: 0 };
  if (ordering === 'uniform' && rowValues)
    return { text: `${from} WHERE (created, id) < (?, ?) ORDER BY ${ORDER_SQL[ordering]} LIMIT ?`, slots: 2 };
  const op = ordering === 'uniform' ? '<' : '>';
  return {
    text: `${from} WHERE created <= ? AND (created < ? OR (created = ? AND id ${op} ?)) ORDER BY ${ORDER_SQL[ordering]} LIMIT ?`,
    slots: 4,
  };
}

function rawValues(ordering: Ordering, after: KeysetRow | null, rowValues: boolean): unknown[] {
  if (after === null) return [pageSize + 1];
  if (ordering === 'uniform' && rowValues) return [after.created, after.id, pageSize + 1];
  return [after.created, after.created, after.created, after.id, pageSize + 1];
}

const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

// biome-ignore lint/suspicious/noExplicitAny: the tables are chosen at run time.
type AnyKysely = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: Drizzle's three db types.
type AnyDrizzle = any;
// biome-ignore lint/suspicious/noExplicitAny: Drizzle's three table types.
type AnyTable = any;

interface Side {
  readonly kysely: AnyKysely;
  readonly drizzle: AnyDrizzle;
}

interface Setup {
  readonly server: string;
  readonly style: KeysetStyle;
  readonly items: AnyTable;
  readonly stock: Side;
  readonly wrapped: Side;
  /** What the wrapped side's pool is wrapped by. */
  readonly wrapper: string;
  rowAt(orderBy: string, offset: number): Promise<KeysetRow>;
  raw(text: string, values: unknown[], named: boolean): Promise<Array<{ id: number }>>;
  close(): Promise<void>;
}

async function openPostgres(): Promise<Setup> {
  const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
  await ensureSeeded(admin, table, rows, process.stderr);
  const { rows: v } = await admin.query<{ v: string }>('select version() as v');
  await admin.end();
  const pool = () => new pg.Pool({ connectionString: PG_URL, max: 2, idleTimeoutMillis: 0 });
  const rawPool = pool();
  const stockPool = pool();
  const namedPool = nameStatements(pool());
  // Each ORM's named path on a wrapped pool of its own, as the stock side has one pool each way.
  const drizzleNamedPool = nameStatements(pool());
  const items = pgTable(table, {
    id: integer('id').primaryKey(),
    created: timestamp('created', { withTimezone: true }).notNull(),
    score: integer('score'),
    title: text('title').notNull(),
  });
  return {
    server: /^PostgreSQL [\d.]+/.exec(v[0]!.v)?.[0] ?? v[0]!.v,
    style: { rowValues: true, nullsLast: true },
    items,
    stock: {
      kysely: new Kysely({ dialect: new PostgresDialect({ pool: stockPool }) }),
      drizzle: drizzlePg(stockPool),
    },
    wrapped: {
      kysely: new Kysely({ dialect: new PostgresDialect({ pool: namedPool }) }),
      drizzle: drizzlePg(drizzleNamedPool),
    },
    wrapper: '`nameStatements(pool)`',
    async rowAt(orderBy, offset) {
      const { rows } = await rawPool.query(
        `SELECT ${SELECT} FROM ${table} ORDER BY ${orderBy} LIMIT 1 OFFSET $1`,
        [offset],
      );
      return rows[0];
    },
    async raw(text, values, named) {
      const sql = numbered(text);
      const { rows } = named
        ? await rawPool.query({
            name: `h${sql.length}_${values.length}_${sql.includes('>') ? 1 : 0}`,
            text: sql,
            values,
          })
        : await rawPool.query(sql, values);
      return rows;
    },
    async close() {
      // The Kysely instances' destroy ends the stock and named pools (a second `end` rejects,
      // which left the Drizzle pool open and the process running): the others end here.
      await rawPool.end();
      await drizzleNamedPool.end();
    },
  };
}

function openSqlite(): Setup {
  const file = join(tmpdir(), `${table}-${rows}.sqlite`);
  const admin = new Database(file);
  admin.pragma('journal_mode = WAL');
  const marker = `${table} ${rows}`;
  const seeded =
    (admin.prepare("SELECT 1 FROM sqlite_master WHERE name = 'marker'").get() as unknown) !== undefined &&
    (admin.prepare('SELECT m FROM marker').get() as { m: string } | undefined)?.m === marker;
  if (!seeded) {
    log(`Seeding SQLite ${file}`);
    admin.exec(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS marker;`);
    seedSqliteItems(admin, table, rows);
    admin.exec('CREATE TABLE marker (m text)');
    admin.prepare('INSERT INTO marker VALUES (?)').run(marker);
  }
  const version = (admin.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  admin.close();
  const open = () => new Database(file, { readonly: true });
  const rawDb = open();
  const statements = new Map<string, Database.Statement>();
  const stockDb = open();
  const wrappedDb = reusePreparedStatements(open());
  const items = sqliteTable(table, {
    id: sqInteger('id').primaryKey(),
    created: sqText('created').notNull(),
    score: sqInteger('score'),
    title: sqText('title').notNull(),
  });
  return {
    server: `SQLite ${version} (better-sqlite3), file in the temp folder, WAL`,
    style: { rowValues: true, nullsLast: false },
    items,
    stock: {
      kysely: new Kysely({ dialect: new SqliteDialect({ database: stockDb }) }),
      drizzle: drizzleSqlite(stockDb),
    },
    wrapped: {
      kysely: new Kysely({ dialect: new SqliteDialect({ database: wrappedDb }) }),
      drizzle: drizzleSqlite(wrappedDb as Database.Database),
    },
    wrapper: '`reusePreparedStatements(database)`',
    async rowAt(orderBy, offset) {
      return rawDb
        .prepare(`SELECT ${SELECT} FROM ${table} ORDER BY ${orderBy} LIMIT 1 OFFSET ?`)
        .get(offset) as KeysetRow;
    },
    async raw(text, values) {
      let stmt = statements.get(text);
      if (stmt === undefined) {
        stmt = rawDb.prepare(text);
        statements.set(text, stmt);
      }
      return stmt.all(...values) as Array<{ id: number }>;
    },
    async close() {
      rawDb.close();
      stockDb.close();
      (wrappedDb as Database.Database).close();
    },
  };
}

async function openMariadb(): Promise<Setup> {
  const options = { uri: MYSQL_URL, timezone: 'Z', connectionLimit: 2 } as const;
  const admin = createPool({ ...options, connectionLimit: 1 }).promise();
  const marker = `pagewise-bench v1 rows=${rows}`;
  const [found] = (await admin.query(
    'SELECT table_comment AS c FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?',
    [table],
  )) as unknown as [Array<{ c: string }>];
  if (found[0]?.c !== marker) {
    log(`Seeding MariaDB ${table}`);
    await admin.query(`DROP TABLE IF EXISTS ${table}`);
    await admin.query(
      `CREATE TABLE ${table} (id integer PRIMARY KEY, created datetime NOT NULL, score integer NULL, title varchar(40) NOT NULL) ENGINE=InnoDB`,
    );
    await admin.query("SET time_zone = '+00:00'");
    for (let from = 1; from <= rows; from += 100_000) {
      const to = Math.min(rows, from + 99_999);
      await admin.query(
        `INSERT INTO ${table} SELECT seq, FROM_UNIXTIME(1704067200 + ((seq * 2654435761) % ${rows}) DIV 8),
           CASE WHEN seq % 5 = 0 THEN NULL ELSE (seq * 48271) % 1000 END, CONCAT('item ', seq) FROM seq_${from}_to_${to}`,
      );
    }
    await admin.query(`CREATE INDEX ${table}_created_id_desc ON ${table} (created DESC, id DESC)`);
    await admin.query(`CREATE INDEX ${table}_created_desc_id_asc ON ${table} (created DESC, id ASC)`);
    await admin.query(`ANALYZE TABLE ${table}`);
    await admin.query(`ALTER TABLE ${table} COMMENT = '${marker}'`);
  }
  const [[{ v }]] = (await admin.query('SELECT version() AS v')) as unknown as [[{ v: string }]];
  await admin.end();
  const rawPool = createPool(options).promise();
  const stockPool = createPool(options);
  const wrappedPool = recordExactTimestamps(createPool(options));
  const items = mysqlTable(table, {
    id: myInt('id').primaryKey(),
    created: datetime('created').notNull(),
    score: myInt('score'),
    title: varchar('title', { length: 40 }).notNull(),
  });
  return {
    server: `${v} (mysql2), InnoDB`,
    style: { rowValues: false, nullsLast: false },
    items,
    stock: {
      kysely: new Kysely({ dialect: new MysqlDialect({ pool: stockPool }) }),
      drizzle: drizzleMysql(stockPool),
    },
    wrapped: {
      kysely: new Kysely({ dialect: new MysqlDialect({ pool: wrappedPool }) }),
      // Drizzle's mysql2 session reads date-times as their text already: it needs no wrapper, and
      // its wrapped column is the stock pool again.
      drizzle: drizzleMysql(stockPool),
    },
    wrapper: '`recordExactTimestamps(pool)`',
    async rowAt(orderBy, offset) {
      const [r] = (await rawPool.query(
        `SELECT ${SELECT} FROM ${table} ORDER BY ${orderBy} LIMIT 1 OFFSET ?`,
        [offset],
      )) as unknown as [KeysetRow[]];
      return r[0]!;
    },
    async raw(text, values) {
      const [r] = (await rawPool.execute(text, values as never)) as unknown as [Array<{ id: number }>];
      return r;
    },
    async close() {
      await rawPool.end();
      await new Promise((resolve) => stockPool.end(resolve));
      await new Promise((resolve) => (wrappedPool as typeof stockPool).end(resolve));
    },
  };
}

/** The keyset page hand-written in Drizzle: `gt`/`lt`, `or`, `and` by hand, as Drizzle's guides write it, with the leading bound that makes it an index range. */
function drizzleHandPage(db: AnyDrizzle, items: AnyTable, ordering: Ordering, after: KeysetRow | null) {
  const created = after === null ? null : after.created instanceof Date ? after.created : after.created;
  const idOp = ordering === 'uniform' ? lt : gt;
  const where =
    after === null
      ? undefined
      : and(
          lte(items.created, created),
          or(lt(items.created, created), and(eq(items.created, created), idOp(items.id, after.id))),
        );
  return db
    .select()
    .from(items)
    .where(where)
    .orderBy(desc(items.created), ordering === 'uniform' ? desc(items.id) : drizzleAsc(items.id))
    .limit(pageSize + 1);
}

const ids = (r: ReadonlyArray<{ id: number }>) => r.slice(0, pageSize).map((x) => Number(x.id));

/** The next link the last `handCursorPage` minted, checked beside its rows. */
let handNext: string | null = null;

async function measure(dialect: Dialect): Promise<Map<string, LatencyStats>> {
  const setup =
    dialect === 'postgres' ? await openPostgres() : dialect === 'sqlite' ? openSqlite() : await openMariadb();
  log(`${dialect}: ${setup.server}`);
  const all = new Map<string, LatencyStats>();
  try {
    for (const side of [setup.stock, setup.wrapped]) {
      // The catalog reads happen once per database, not per page.
      for (const ordering of ORDERINGS.filter((o) => orderings.includes(o.name as Ordering))) {
        await pagewiseCursorAfter(
          fromKysely(side.kysely.selectFrom(table).select([...COLUMNS]), {
            db: side.kysely,
            uniqueKey: UNIQUE_KEY,
          }),
          ordering.pagewise,
        );
        await pagewiseCursorAfter(
          fromDrizzle(side.drizzle.select().from(setup.items), { db: side.drizzle }),
          ordering.pagewise,
        );
      }
    }
    for (const depth of depths) {
      const fetches = new Map<string, PageFetch>();
      for (const name of orderings) {
        const ordering = ORDERINGS.find((o) => o.name === name)!;
        const before = depth === 0 ? null : await setup.rowAt(ORDER_SQL[name], depth - 1);
        const cursor =
          before === null
            ? null
            : await pagewiseCursorAfter(
                fromKysely(
                  setup.stock.kysely
                    .selectFrom(table)
                    .select([...COLUMNS])
                    .where('id', '=', before.id),
                  { db: setup.stock.kysely, uniqueKey: UNIQUE_KEY },
                ),
                ordering.pagewise,
              );
        const url = cursor === null ? 'http://127.0.0.1/items' : `http://127.0.0.1/items?cursor=${cursor}`;
        const pagination = new CursorPagination({ pageSize, ordering: ordering.pagewise });
        const raw = rawText(name, before !== null, setup.style.rowValues);
        const values = rawValues(name, before, setup.style.rowValues);
        fetches.set(`raw:${name}`, async () => ids(await setup.raw(raw.text, values, true)));
        if (dialect === 'postgres')
          fetches.set(`raw-unnamed:${name}`, async () => ids(await setup.raw(raw.text, values, false)));
        for (const [label, side] of [
          ['stock', setup.stock],
          ['wrapped', setup.wrapped],
        ] as const) {
          fetches.set(`kysely-hand:${label}:${name}`, async () =>
            ids(
              (await kyselyKeysetPage(
                side.kysely,
                table,
                name,
                before,
                pageSize + 1,
                setup.style,
              ).execute()) as Array<{
                id: number;
              }>,
            ),
          );
          if (withCursorHand) {
            const handUrl =
              before === null
                ? 'http://127.0.0.1/items'
                : `http://127.0.0.1/items?cursor=${handCursor(before)}`;
            fetches.set(`kysely-hand-cursor:${label}:${name}`, async () => {
              const page = await handCursorPage(
                side.kysely,
                table,
                name,
                handUrl,
                pageSize,
                setup.style,
                dialect !== 'sqlite',
              );
              handNext = page.next;
              return ids(page.rows);
            });
          }
          fetches.set(`drizzle-hand:${label}:${name}`, async () =>
            ids(await drizzleHandPage(side.drizzle, setup.items, name, before)),
          );
          fetches.set(`pagewise-kysely:${label}:${name}`, async () => {
            const query = fromKysely(side.kysely.selectFrom(table).select([...COLUMNS]), {
              db: side.kysely,
              uniqueKey: UNIQUE_KEY,
            });
            const page = (await pagination.paginateQueryset(query, new ApiRequest({ url })))!;
            pagination.getPaginatedResponse(page);
            return ids(page as Array<{ id: number }>);
          });
          fetches.set(`pagewise-drizzle:${label}:${name}`, async () => {
            const query = fromDrizzle(side.drizzle.select().from(setup.items), { db: side.drizzle });
            const page = (await pagination.paginateQueryset(query, new ApiRequest({ url })))!;
            pagination.getPaginatedResponse(page);
            return ids(page as Array<{ id: number }>);
          });
        }
      }
      for (const name of orderings) {
        const want = await fetches.get(`raw:${name}`)!();
        for (const [id, fetch] of fetches) {
          if (!id.endsWith(`:${name}`)) continue;
          const got = await fetch();
          // The hand-written page with its cursor mints a next link exactly when a page follows.
          const lastPage = depth + pageSize >= rows;
          if (id.startsWith('kysely-hand-cursor:') && (handNext === null) !== lastPage)
            throw new Error(`${dialect} ${id} at depth ${depth}: next link ${handNext}`);
          if (got.length !== want.length || got.some((x, i) => x !== want[i]))
            throw new Error(
              `${dialect} ${id} at depth ${depth}: ids ${got.slice(0, 3)} instead of ${want.slice(0, 3)}`,
            );
        }
      }
      if (profileKind !== undefined) {
        const summary = await profilePages(
          `${dialect} ${profileKind} depth ${depth}`,
          fetches.get(profileKind)!,
          3000,
        );
        process.stdout.write(`${JSON.stringify(summary, null, 1)}\n`);
        continue;
      }
      let stats: Map<string, LatencyStats>;
      if (profileMixed) {
        const profiled = await profileRoundRobin(`${dialect} depth ${depth}`, fetches, plan);
        stats = profiled.stats;
        const own = profiled.profile.areas.filter((a) => PAGEWISE_AREAS.includes(a.area));
        const total = own.reduce((sum, a) => sum + a.usPerPage, 0);
        log(
          `${dialect} ${depth}: Pagewise's own code ${total.toFixed(1)} us self time per Pagewise page (${own.map((a) => `${a.area} ${a.usPerPage.toFixed(1)}`).join(', ')}); heaviest: ${profiled.profile.top
            .slice(0, 8)
            .map((e) => `${e.fn.split(' (')[0]} ${e.usPerPage.toFixed(1)}`)
            .join(', ')}`,
        );
        // BENCH_PROFILE_LIST=N lists the N heaviest of Pagewise's functions with their files.
        for (const e of profiled.profile.top.slice(0, Number(process.env.BENCH_PROFILE_LIST ?? 0)))
          log(`  ${e.usPerPage.toFixed(1)} ${e.area}: ${e.fn}`);
      } else {
        stats = await measureRoundRobin(fetches, plan);
      }
      for (const [id, s] of stats) all.set(`${id}@${depth}`, s);
      const m = (id: string) => stats.get(id)?.medianMs.toFixed(3);
      log(
        `${dialect} ${depth}: raw ${m(`raw:${orderings[0]}`)} kysely-hand ${m(`kysely-hand:stock:${orderings[0]}`)} pw-kysely ${m(`pagewise-kysely:stock:${orderings[0]}`)} drizzle-hand ${m(`drizzle-hand:stock:${orderings[0]}`)} pw-drizzle ${m(`pagewise-drizzle:stock:${orderings[0]}`)} | wrapped pw-kysely ${m(`pagewise-kysely:wrapped:${orderings[0]}`)} pw-drizzle ${m(`pagewise-drizzle:wrapped:${orderings[0]}`)}`,
      );
    }
  } finally {
    await setup.stock.kysely.destroy().catch(() => {});
    await setup.wrapped.kysely.destroy().catch(() => {});
    await setup.close().catch(() => {});
  }
  return all;
}

const started = new Date();
const load0 = loadavg()[0]!;
const t0 = performance.now();
const results = new Map<Dialect, Map<string, LatencyStats>>();
for (const dialect of dialects) results.set(dialect, await measure(dialect));
if (profileKind !== undefined) process.exit(0);
const seconds = (performance.now() - t0) / 1000;
const load1 = loadavg()[0]!;

const f = (s: LatencyStats | undefined) => (s === undefined ? '-' : s.medianMs.toFixed(3));
const ratio = (a: LatencyStats | undefined, b: LatencyStats | undefined) =>
  a === undefined || b === undefined ? '-' : `${(a.medianMs / b.medianMs).toFixed(2)}x`;
const command =
  `pnpm --filter @pagewise/bench run orm -- ${args.filter((a) => a !== '--write' && a !== '--').join(' ')}`.trim();
const out: string[] = [];
out.push('<!-- orm-bench:start -->');
out.push('## Drizzle and Kysely, hand-written page vs Pagewise, default and named paths');
out.push('');
out.push(
  `Generated by \`${command}\` on ${started.toISOString()} (${seconds.toFixed(0)} s; ${cpus().length} CPUs ${cpus()[0]?.model ?? ''}; ` +
    `1-min load average ${load0.toFixed(2)} at the start, ${load1.toFixed(2)} at the end: other sessions shared the machine, so read the ratios, not the digits). ` +
    `${rows.toLocaleString('en-US')} rows, 50-row pages (+1 look-ahead), the packages as built (\`dist\`). Every contender is sampled round-robin at each depth ` +
    `(${plan.warmupRounds} untimed warm-up rounds, then ${plan.minSamples}-${plan.maxSamples} samples, ${plan.budgetMs} ms budget each) and was checked to return the raw page's rows first. ` +
    'A Pagewise page is a fresh `fromDrizzle`/`fromKysely` per request, `CursorPagination.paginateQueryset` and `getPaginatedResponse` (both links); ' +
    'the hand-written pages build their builder per request, the keyset written by hand: in Kysely as the main tables do, in Drizzle with `and(lte(created, c), or(lt(created, c), and(eq(created, c), lt(id, i))))` ' +
    "(Drizzle's guide's `or`/`and` chain plus the leading bound that makes it an index range; without it Postgres filters every row before the cursor, as kysely-paginate's column shows), positions the `Date`/text values the ORM returns. " +
    '**stock**: the pool or database as the driver makes it, what a user has without reading the adapter docs. **wrapped**: ' +
    "Postgres `nameStatements(pool)` (each ORM over a wrapped pool of its own), SQLite `reusePreparedStatements(database)`, MariaDB `recordExactTimestamps(pool)` (Drizzle's mysql2 session reads date-times as text already and needs no wrapper: its wrapped MariaDB columns run on the stock pool again, hand-written and Pagewise alike). " +
    'Raw: the same keyset SQL through the driver (Postgres: a named prepared statement, and unnamed; SQLite `stmt.all()` prepared once; MariaDB `pool.execute()`).',
);
for (const [dialect, stats] of results) {
  for (const name of orderings) {
    out.push('');
    out.push(`### ${dialect}, ${ORDERINGS.find((o) => o.name === name)!.title}`);
    out.push('');
    out.push(
      '| depth | raw | raw unnamed | Kysely hand | **PW Kysely / hand** | **PW Kysely / raw** | Drizzle hand | **PW Drizzle / hand** | **PW Drizzle / raw** | wrapped: Kysely hand | **PW Kysely / hand** | **/ raw** | Drizzle hand | **PW Drizzle / hand** | **/ raw** |',
    );
    out.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const depth of depths) {
      const s = (kind: string) => stats.get(`${kind}:${name}@${depth}`);
      out.push(
        `| ${depth.toLocaleString('en-US')} | ${f(s('raw'))} | ${f(s('raw-unnamed'))} | ${f(s('kysely-hand:stock'))} | ${f(s('pagewise-kysely:stock'))} (**${ratio(s('pagewise-kysely:stock'), s('kysely-hand:stock'))}**) | ${ratio(s('pagewise-kysely:stock'), s('raw'))} | ` +
          `${f(s('drizzle-hand:stock'))} | ${f(s('pagewise-drizzle:stock'))} (**${ratio(s('pagewise-drizzle:stock'), s('drizzle-hand:stock'))}**) | ${ratio(s('pagewise-drizzle:stock'), s('raw'))} | ` +
          `${f(s('kysely-hand:wrapped'))} | ${f(s('pagewise-kysely:wrapped'))} (**${ratio(s('pagewise-kysely:wrapped'), s('kysely-hand:wrapped'))}**) | ${ratio(s('pagewise-kysely:wrapped'), s('raw'))} | ` +
          `${f(s('drizzle-hand:wrapped'))} | ${f(s('pagewise-drizzle:wrapped'))} (**${ratio(s('pagewise-drizzle:wrapped'), s('drizzle-hand:wrapped'))}**) | ${ratio(s('pagewise-drizzle:wrapped'), s('raw'))} |`,
      );
    }
  }
}
out.push('<!-- orm-bench:end -->');
const section = out.join('\n');
process.stdout.write(`${section}\n`);
if (withCursorHand) {
  const extra = [
    '',
    "### Kysely's hand-written page with its cursor work (`--with-cursor-hand`, not written by `--write`)",
    '',
    '| dialect | ordering | depth | hand | hand with its cursor | **PW / hand** | **PW / hand with its cursor** | wrapped: hand | hand with its cursor | **PW / hand** | **PW / hand with its cursor** |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [dialect, stats] of results)
    for (const name of orderings)
      for (const depth of depths) {
        const s = (kind: string) => stats.get(`${kind}:${name}@${depth}`);
        const side = (label: string) =>
          `${f(s(`kysely-hand:${label}`))} | ${f(s(`kysely-hand-cursor:${label}`))} | **${ratio(s(`pagewise-kysely:${label}`), s(`kysely-hand:${label}`))}** | **${ratio(s(`pagewise-kysely:${label}`), s(`kysely-hand-cursor:${label}`))}**`;
        extra.push(
          `| ${dialect} | ${name} | ${depth.toLocaleString('en-US')} | ${side('stock')} | ${side('wrapped')} |`,
        );
      }
  process.stdout.write(`${extra.join('\n')}\n`);
}
if (args.includes('--write')) {
  const file = join(BENCH_DIR, 'RESULTS.md');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('<!-- orm-bench:start -->');
  const end = text.indexOf('<!-- orm-bench:end -->');
  const next =
    start >= 0 && end > start
      ? `${text.slice(0, start)}${section}${text.slice(end + '<!-- orm-bench:end -->'.length)}`
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
