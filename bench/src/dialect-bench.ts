import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromKysely, recordExactTimestamps, reusePreparedStatements } from '@pagewise/kysely-adapter';
import { ApiRequest, CursorPagination, type OrderingInput } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { type CompiledQuery, Kysely, type KyselyConfig, MysqlDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import type { Pool as MysqlPromisePool } from 'mysql2/promise';
import { COLUMNS } from './bench-table.js';
import { expandedAfter, type KeysetRow, type KeysetStyle, kyselyKeysetPage } from './kysely-keyset.js';
import {
  type LatencyEntry,
  type LatencyStats,
  measureRoundRobin,
  type PageFetch,
  type SamplingPlan,
  statsAt,
} from './measure.js';
import { ORDERINGS, type OrderingName, pagewiseCursorAfter, UNIQUE_KEY } from './orderings.js';
import { type ProfileSummary, profilePages } from './profile.js';
import { progressBar } from './progress.js';

/** The other dialects measured beside Postgres. */
export type DialectName = 'sqlite' | 'mariadb';

/** Who serves a page on SQLite or MariaDB. */
export type DialectKind = 'raw' | 'kysely-hand' | 'pagewise-sql-kysely' | 'pagewise-cursor';

/** The column titles of the dialect tables. */
export const DIALECT_KIND_LABELS: Readonly<Record<DialectKind, string>> = {
  raw: 'raw prepared statement',
  'kysely-hand': 'hand-written Kysely',
  'pagewise-sql-kysely': "Pagewise's SQL via Kysely",
  'pagewise-cursor': 'Pagewise cursor',
};

/** One dialect's run: latency per `kind:ordering` contender and depth. */
export interface DialectResult {
  readonly dialect: DialectName;
  /** Driver and server, e.g. `better-sqlite3 12.11.1 (SQLite 3.50.4), file table`. */
  readonly server: string;
  readonly seeded: boolean;
  readonly seedSeconds: number;
  readonly depths: readonly number[];
  /** `null` when the dialect was skipped, with the reason in `skipped`. */
  readonly skipped: string | null;
  readonly latency: ReadonlyArray<{
    readonly contender: string;
    readonly depth: number;
    readonly stats: LatencyStats;
  }>;
  readonly mismatches: readonly string[];
  /** A CPU profile of the Pagewise uniform page at the middle depth. */
  readonly profile: ProfileSummary | null;
  /**
   * Pagewise pages over `DEPTH_DEPENDENT` times their ordering's first page, with how the
   * database ran their statements; absent in results from before it was recorded.
   */
  readonly slowPlans?: readonly SlowDialectPlan[];
}

/** A Pagewise page whose time grew with its depth, and the plan of each statement it sent. */
export interface SlowDialectPlan {
  readonly ordering: OrderingName;
  readonly depth: number;
  readonly medianMs: number;
  /** The same ordering's page at depth 0. */
  readonly firstMs: number;
  readonly statements: ReadonlyArray<{ readonly sql: string; readonly plan: string }>;
}

/**
 * SQLite's plan of `sql` (`EXPLAIN QUERY PLAN`), its steps in a line.
 *
 * @example
 * sqlitePlan(db, 'SELECT * FROM items WHERE id < ? ORDER BY id DESC LIMIT 5', [10])
 * // 'SEARCH items USING INTEGER PRIMARY KEY (rowid<?)'
 */
export function sqlitePlan(db: Database.Database, sql: string, parameters: readonly unknown[]): string {
  const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as Array<{ detail: string }>;
  return steps.map((s) => s.detail).join('; ');
}

/**
 * How MariaDB ran `sql` (`ANALYZE FORMAT=JSON`: it runs the statement), or how MySQL, which has no
 * `ANALYZE` of a statement, plans it (`EXPLAIN FORMAT=JSON`), in a line (`mysqlPlanSummary`).
 */
export async function mysqlPlan(
  pool: MysqlPromisePool,
  sql: string,
  parameters: readonly unknown[],
): Promise<string> {
  type Answer = [Array<Record<string, string>>];
  let answer: Answer;
  try {
    answer = (await pool.query(`ANALYZE FORMAT=JSON ${sql}`, parameters as unknown[])) as unknown as Answer;
  } catch {
    answer = (await pool.query(`EXPLAIN FORMAT=JSON ${sql}`, parameters as unknown[])) as unknown as Answer;
  }
  return mysqlPlanSummary(Object.values(answer[0][0] ?? {})[0] ?? '{}');
}

/** A page this many times slower than its ordering's first page gets its plan recorded. */
export const DEPTH_DEPENDENT = 3;

/**
 * The Pagewise cursor pages of `latency` over `DEPTH_DEPENDENT` times their ordering's page at the
 * first of `depths`, in ordering then depth order.
 */
export function depthDependent(
  latency: readonly LatencyEntry[],
  depths: readonly number[],
): Array<Omit<SlowDialectPlan, 'statements'>> {
  return ORDERINGS.flatMap(({ name }) => {
    const medianAt = (depth: number) => statsAt(latency, `pagewise-cursor:${name}`, depth)?.medianMs;
    const firstMs = medianAt(depths[0]!);
    if (firstMs === undefined) return [];
    return depths.slice(1).flatMap((depth) => {
      const medianMs = medianAt(depth);
      return medianMs !== undefined && medianMs > DEPTH_DEPENDENT * firstMs
        ? [{ ordering: name, depth, medianMs, firstMs }]
        : [];
    });
  });
}

/**
 * One line per table of a MariaDB/MySQL `ANALYZE FORMAT=JSON` answer: how the table was read
 * (`ref`, `range`...), through which index, the rows the optimizer expected and those it returned
 * (after the index condition), the pages it touched and the time it took.
 *
 * @example
 * mysqlPlanSummary('{"query_block":{"nested_loop":[{"table":{"table_name":"t","access_type":"ref","key":"t_score","rows":201366,"r_rows":51,"r_engine_stats":{"pages_accessed":234},"r_table_time_ms":5.2}}]}}')
 * // '`t`: `ref` on `t_score`, 201,366 rows estimated, 51 rows read, 234 pages accessed, 5.20 ms'
 */
export function mysqlPlanSummary(analyzeJson: string): string {
  const tables: Array<Record<string, unknown>> = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) {
      const table = (node as { table?: unknown }).table;
      if (typeof table === 'object' && table !== null && 'access_type' in table) {
        tables.push(table as Record<string, unknown>);
      }
      for (const value of Object.values(node)) visit(value);
    }
  };
  visit(JSON.parse(analyzeJson));
  return tables
    .map((t) => {
      const count = (n: unknown, what: string) =>
        typeof n === 'number' ? `, ${Math.round(n).toLocaleString('en-US')} ${what}` : '';
      const key = typeof t.key === 'string' ? ` on \`${t.key}\`` : '';
      const pages = (t.r_engine_stats as { pages_accessed?: unknown } | undefined)?.pages_accessed;
      const time = typeof t.r_table_time_ms === 'number' ? `, ${t.r_table_time_ms.toFixed(2)} ms` : '';
      return `\`${t.table_name}\`: \`${t.access_type}\`${key}${count(t.rows, 'rows estimated')}${count(t.r_rows, 'rows read')}${count(pages, 'pages accessed')}${time}`;
    })
    .join('; ');
}

/** What `measureDialect` needs. */
export interface DialectBenchOptions extends SamplingPlan {
  readonly dialect: DialectName;
  readonly rows: number;
  readonly table: string;
  readonly pageSize: number;
  readonly depths: readonly number[];
  /** SQLite: the database file (reused when it holds this seed). */
  readonly sqliteFile: string;
  /** MariaDB/MySQL server URL; `null` skips MariaDB. */
  readonly mysqlUrl: string | null;
  /** Pages profiled at the middle depth (0: none). */
  readonly profilePages: number;
  readonly log: NodeJS.WritableStream | null;
}

/** The default SQLite file: one per row count, in the temp folder, reused between runs. */
export function defaultSqliteFile(rows: number): string {
  return join(tmpdir(), `pagewise-bench-${rows}.sqlite`);
}

const EPOCH_SECONDS = 1_704_067_200;
const SELECT = COLUMNS.join(', ');

/** The raw side of a dialect: an OFFSET lookup (set-up) and a prepared keyset page. */
interface RawSide {
  rowAt(orderBy: string, offset: number): Promise<KeysetRow & { title: string }>;
  /** Prepared once per statement text; `values` bound per call. */
  page(text: string, values: readonly unknown[]): Promise<ReadonlyArray<{ id: number }>>;
  close(): Promise<void>;
}

/** The ORDER BY and keyset SQL of each ordering, as an expert writes it for this dialect. */
function rawStatement(
  name: OrderingName,
  table: string,
  after: KeysetRow | null,
  limit: number,
  style: KeysetStyle,
): { text: string; values: unknown[]; nullBlock?: string } {
  const orderBy = {
    uniform: 'created DESC, id DESC',
    mixed: 'created DESC, id ASC',
    nullable: 'score DESC, id DESC',
  }[name];
  const from = `SELECT ${SELECT} FROM ${table}`;
  if (after === null) return { text: `${from} ORDER BY ${orderBy} LIMIT ?`, values: [limit] };
  const c = after.created;
  if (name === 'uniform') {
    return style.rowValues
      ? {
          text: `${from} WHERE (created, id) < (?, ?) ORDER BY ${orderBy} LIMIT ?`,
          values: [c, after.id, limit],
        }
      : {
          text: `${from} WHERE created <= ? AND (created < ? OR (created = ? AND id < ?)) ORDER BY ${orderBy} LIMIT ?`,
          values: [c, c, c, after.id, limit],
        };
  }
  if (name === 'mixed') {
    return {
      text: `${from} WHERE created <= ? AND (created < ? OR (created = ? AND id > ?)) ORDER BY ${orderBy} LIMIT ?`,
      values: [c, c, c, after.id, limit],
    };
  }
  // The NULL block is ordered by id alone (every score in it is NULL): MariaDB then walks the
  // primary key instead of sorting.
  if (after.score === null) {
    return {
      text: `${from} WHERE score IS NULL AND id < ? ORDER BY id DESC LIMIT ?`,
      values: [after.id, limit],
    };
  }
  const s = after.score;
  const scored = style.rowValues
    ? { where: '(score, id) < (?, ?)', values: [s, after.id] }
    : { where: 'score <= ? AND (score < ? OR (score = ? AND id < ?))', values: [s, s, s, after.id] };
  // Two statements, the second only when the scored rows run out (MariaDB materializes a UNION
  // of derived tables in full, so one statement would read every remaining row).
  return {
    text: `${from} WHERE ${scored.where} ORDER BY ${orderBy} LIMIT ?`,
    values: [...scored.values, limit],
    nullBlock: `${from} WHERE score IS NULL ORDER BY id DESC LIMIT ?`,
  };
}

const INDEXES = (table: string) => [
  `CREATE INDEX ${table}_created_id_desc ON ${table} (created DESC, id DESC)`,
  `CREATE INDEX ${table}_created_desc_id_asc ON ${table} (created DESC, id ASC)`,
  `CREATE INDEX ${table}_score_id_desc ON ${table} (score DESC, id DESC)`,
];

// biome-ignore lint/suspicious/noExplicitAny: the table name is chosen at run time.
type AnyDb = Kysely<any>;

interface DialectSetup {
  readonly server: string;
  readonly seeded: boolean;
  readonly style: KeysetStyle;
  readonly raw: RawSide;
  /** How the database runs `sql` with `parameters`, in a line (`ANALYZE`, `EXPLAIN QUERY PLAN`). */
  plan(sql: string, parameters: readonly unknown[]): Promise<string>;
  /** A fresh Kysely instance over its own connection(s), stock dialect. */
  kysely(): AnyDb;
  /**
   * The Kysely instance Pagewise runs on: the stock one with Pagewise's own driver options; with
   * `log`, an untimed one that shows the SQL Pagewise sends.
   */
  pagewiseKysely(log?: KyselyConfig['log']): AnyDb;
}

/**
 * SQLite through better-sqlite3: the same rows as the Postgres table (ids, whole-second
 * `created` as ISO text in a `datetime` column, `score` NULL every fifth row), in a file.
 */
function openSqlite(options: DialectBenchOptions): DialectSetup {
  const marker = `pagewise-bench v1 rows=${options.rows}`;
  const file = options.sqliteFile;
  const admin = new Database(file);
  admin.pragma('journal_mode = WAL');
  const seededAlready =
    existsSync(file) &&
    (admin.prepare("SELECT 1 FROM sqlite_master WHERE name = 'pagewise_bench_marker'").get() as unknown) !==
      undefined &&
    (admin.prepare('SELECT marker FROM pagewise_bench_marker').get() as { marker: string } | undefined)
      ?.marker === `${marker} ${options.table}`;
  if (!seededAlready) {
    const t = options.table;
    admin.exec(`DROP TABLE IF EXISTS ${t}; DROP TABLE IF EXISTS pagewise_bench_marker;`);
    admin.exec(
      `CREATE TABLE ${t} (id integer PRIMARY KEY, created datetime NOT NULL, score integer, title text NOT NULL)`,
    );
    const report = progressBar(options.log, `Seeding SQLite ${t}`, 1);
    admin.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${options.rows})
       INSERT INTO ${t} SELECT i,
         strftime('%Y-%m-%dT%H:%M:%fZ', ${EPOCH_SECONDS} + ((i * 2654435761) % ${options.rows}) / 8, 'unixepoch'),
         CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 48271) % 1000 END,
         'item ' || i
       FROM n`,
    );
    for (const ddl of INDEXES(t)) admin.exec(ddl);
    admin.exec('ANALYZE');
    admin.exec('CREATE TABLE pagewise_bench_marker (marker text)');
    admin.prepare('INSERT INTO pagewise_bench_marker VALUES (?)').run(`${marker} ${t}`);
    report(1);
  }
  const version = (admin.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  admin.close();
  const rawDb = new Database(file, { readonly: true });
  const statements = new Map<string, Database.Statement>();
  const raw: RawSide = {
    async rowAt(orderBy, offset) {
      return rawDb
        .prepare(`SELECT ${SELECT} FROM ${options.table} ORDER BY ${orderBy} LIMIT 1 OFFSET ?`)
        .get(offset) as KeysetRow & { title: string };
    },
    async page(text, values) {
      let stmt = statements.get(text);
      if (stmt === undefined) {
        stmt = rawDb.prepare(text);
        statements.set(text, stmt);
      }
      return stmt.all(...values) as { id: number }[];
    },
    async close() {
      rawDb.close();
    },
  };
  return {
    server: `better-sqlite3 (SQLite ${version}), file ${file}, WAL`,
    plan: async (sql, parameters) => sqlitePlan(rawDb, sql, parameters),
    seeded: !seededAlready,
    style: { rowValues: true, nullsLast: false },
    raw,
    kysely: () =>
      new Kysely({ dialect: new SqliteDialect({ database: new Database(file, { readonly: true }) }) }),
    pagewiseKysely: (log) =>
      new Kysely({
        ...(log === undefined ? {} : { log }),
        dialect: new SqliteDialect({
          database: reusePreparedStatements(new Database(file, { readonly: true })),
        }),
      }),
  };
}

/** MariaDB (or MySQL) through mysql2: the same rows, `created datetime`, InnoDB. */
async function openMariadb(options: DialectBenchOptions & { mysqlUrl: string }): Promise<DialectSetup> {
  const poolOptions = { uri: options.mysqlUrl, timezone: 'Z', connectionLimit: 2 } as const;
  const admin = createPool({ ...poolOptions, connectionLimit: 1 }).promise();
  const t = options.table;
  const marker = `pagewise-bench v1 rows=${options.rows}`;
  const [found] = (await admin.query(
    'SELECT table_comment AS c FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?',
    [t],
  )) as unknown as [Array<{ c: string }>];
  const seeded = found[0]?.c !== marker;
  if (seeded) {
    await admin.query(`DROP TABLE IF EXISTS ${t}`);
    await admin.query(
      `CREATE TABLE ${t} (id integer PRIMARY KEY, created datetime NOT NULL, score integer NULL, title varchar(40) NOT NULL) ENGINE=InnoDB`,
    );
    await admin.query("SET time_zone = '+00:00'");
    const report = progressBar(options.log, `Seeding MariaDB ${t}`, options.rows);
    const chunk = 100_000;
    for (let from = 1; from <= options.rows; from += chunk) {
      const to = Math.min(options.rows, from + chunk - 1);
      await admin.query(
        `INSERT INTO ${t} SELECT seq,
           FROM_UNIXTIME(${EPOCH_SECONDS} + ((seq * 2654435761) % ${options.rows}) DIV 8),
           CASE WHEN seq % 5 = 0 THEN NULL ELSE (seq * 48271) % 1000 END,
           CONCAT('item ', seq)
         FROM seq_${from}_to_${to}`,
      );
      report(to);
    }
    for (const ddl of INDEXES(t)) await admin.query(ddl);
    await admin.query(`ANALYZE TABLE ${t}`);
    await admin.query(`ALTER TABLE ${t} COMMENT = '${marker}'`);
  }
  const [[{ v: version }]] = (await admin.query('SELECT version() AS v')) as unknown as [[{ v: string }]];
  await admin.end();
  const rawPool: MysqlPromisePool = createPool(poolOptions).promise();
  const raw: RawSide = {
    async rowAt(orderBy, offset) {
      const [rows] = (await rawPool.query(`SELECT ${SELECT} FROM ${t} ORDER BY ${orderBy} LIMIT 1 OFFSET ?`, [
        offset,
      ])) as unknown as [Array<KeysetRow & { title: string }>];
      return rows[0]!;
    },
    async page(text, values) {
      // `execute`: a server-side prepared statement, cached per connection by mysql2.
      const [rows] = (await rawPool.execute(
        text,
        values as Parameters<MysqlPromisePool['execute']>[1],
      )) as unknown as [Array<{ id: number }>];
      return rows;
    },
    async close() {
      await rawPool.end();
    },
  };
  return {
    server: `mysql2 to ${version}, InnoDB, over TCP loopback`,
    plan: (sql, parameters) => mysqlPlan(rawPool, sql, parameters),
    seeded,
    style: { rowValues: false, nullsLast: false },
    raw,
    kysely: () => new Kysely({ dialect: new MysqlDialect({ pool: createPool(poolOptions) }) }),
    // The stock dialect over the pool wrapped by Pagewise's `recordExactTimestamps`: cursor pages
    // read `created`'s positions from the text mysql2 received, with no `cast(... as char)` column.
    pagewiseKysely: (log) =>
      new Kysely({
        ...(log === undefined ? {} : { log }),
        dialect: new MysqlDialect({ pool: recordExactTimestamps(createPool(poolOptions)) }),
      }),
  };
}

/**
 * The hand-written Kysely page on SQLite and MariaDB: `kyselyKeysetPage`, except that the
 * nullable ordering runs as the raw statements do (scored rows, then the NULL block by id only
 * when they run out).
 */
async function kyselyDialectPage(
  db: AnyDb,
  table: string,
  ordering: OrderingName,
  after: KeysetRow | null,
  limit: number,
  style: KeysetStyle,
): Promise<Array<{ id: number }>> {
  if (ordering !== 'nullable' || after === null) {
    return (await kyselyKeysetPage(db, table, ordering, after, limit, style).execute()) as Array<{
      id: number;
    }>;
  }
  const nullBlock = (rest: number, beforeId: number | null) => {
    let q = db
      .selectFrom(table)
      .select([...COLUMNS])
      .where('score', 'is', null);
    if (beforeId !== null) q = q.where('id', '<', beforeId);
    return q.orderBy('id', 'desc').limit(rest).execute() as Promise<Array<{ id: number }>>;
  };
  if (after.score === null) return nullBlock(limit, after.id);
  const score = after.score;
  const scored = (await db
    .selectFrom(table)
    .select([...COLUMNS])
    .where(expandedAfter('score', score, after.id, '<'))
    .orderBy('score', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()) as Array<{ id: number }>;
  if (scored.length >= limit) return scored;
  return [...scored, ...(await nullBlock(limit - scored.length, null))];
}

/**
 * The Pagewise cursor of the page after the row `id` of `table` in `ordering`, read through
 * `db` as a page's next link would carry it.
 *
 * @example
 * await cursorAfterRow(db, 'pagewise_bench_items', 115841, ['-created', '-id'])
 */
export function cursorAfterRow(
  db: AnyDb,
  table: string,
  id: number,
  ordering: OrderingInput,
): Promise<string> {
  const row = db
    .selectFrom(table)
    .select([...COLUMNS])
    .where('id', '=', id);
  return pagewiseCursorAfter(fromKysely(row, { db, uniqueKey: UNIQUE_KEY }), ordering);
}

const ORDER_BY: Record<OrderingName, string> = {
  uniform: 'created DESC, id DESC',
  mixed: 'created DESC, id ASC',
  nullable: 'score DESC, id DESC',
};

/**
 * Times, at every depth and for every ordering, the raw prepared keyset statement, the same
 * query hand-written in Kysely (builder per request, stock dialect) and a Pagewise cursor page,
 * round-robin, after checking that all three return the raw statement's rows.
 */
export async function measureDialect(options: DialectBenchOptions): Promise<DialectResult> {
  const empty = (skipped: string): DialectResult => ({
    dialect: options.dialect,
    server: '',
    seeded: false,
    seedSeconds: 0,
    depths: [],
    skipped,
    latency: [],
    mismatches: [],
    profile: null,
  });
  if (options.dialect === 'mariadb' && options.mysqlUrl === null) {
    return empty('no MariaDB server: set BENCH_MYSQL_URL or MYSQL_URL, or pass --mysql URL');
  }
  const seedStart = performance.now();
  const setup =
    options.dialect === 'sqlite'
      ? openSqlite(options)
      : await openMariadb({ ...options, mysqlUrl: options.mysqlUrl! });
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const handDb = setup.kysely();
  const pagewiseDb = setup.pagewiseKysely();
  // Sees the statements a Pagewise page sends, for the `pagewise-sql-kysely` contender.
  let capturing: CompiledQuery[] = [];
  const probeDb = setup.pagewiseKysely((event) => {
    if (event.level === 'query') capturing.push(event.query);
  });
  const { table, pageSize } = options;
  try {
    const latency: DialectResult['latency'][number][] = [];
    const mismatches: string[] = [];
    let profile: ProfileSummary | null = null;
    const profileDepth = options.depths[Math.floor(options.depths.length / 2)];
    /** The statements of each Pagewise page, by `ordering@depth`. */
    const sentAt = new Map<string, readonly CompiledQuery[]>();
    const queryOn = (db: AnyDb) => () =>
      fromKysely(db.selectFrom(table).select([...COLUMNS]), { db, uniqueKey: UNIQUE_KEY });
    const pagewiseQuery = queryOn(pagewiseDb);
    const probeQuery = queryOn(probeDb);
    // One untimed page per ordering: the adapter's catalog lookup is not a per-page cost.
    for (const ordering of ORDERINGS) {
      await pagewiseCursorAfter(pagewiseQuery(), ordering.pagewise);
      await pagewiseCursorAfter(probeQuery(), ordering.pagewise);
    }
    for (const depth of options.depths) {
      const fetches = new Map<string, PageFetch>();
      for (const ordering of ORDERINGS) {
        const before = depth === 0 ? null : await setup.raw.rowAt(ORDER_BY[ordering.name], depth - 1);
        const cursor =
          before === null ? null : await cursorAfterRow(pagewiseDb, table, before.id, ordering.pagewise);
        const statement = rawStatement(ordering.name, table, before, pageSize + 1, setup.style);
        const pagination = new CursorPagination({ pageSize, ordering: ordering.pagewise });
        const url = cursor === null ? 'http://127.0.0.1/items' : `http://127.0.0.1/items?cursor=${cursor}`;
        const ids = (rows: ReadonlyArray<{ id: number }>) => rows.slice(0, pageSize).map((r) => Number(r.id));
        fetches.set(`raw:${ordering.name}`, async () => {
          const rows = await setup.raw.page(statement.text, statement.values);
          if (statement.nullBlock === undefined || rows.length >= pageSize + 1) return ids(rows);
          return ids([...rows, ...(await setup.raw.page(statement.nullBlock, [pageSize + 1 - rows.length]))]);
        });
        fetches.set(`kysely-hand:${ordering.name}`, async () =>
          ids(await kyselyDialectPage(handDb, table, ordering.name, before, pageSize + 1, setup.style)),
        );
        fetches.set(`pagewise-cursor:${ordering.name}`, async () => {
          const rows = (await pagination.paginateQueryset(pagewiseQuery(), new ApiRequest({ url })))!;
          pagination.getPaginatedResponse(rows);
          return ids(rows as { id: number }[]);
        });
        // The statements of this page, run by `executeQuery` on Pagewise's own instance: the page
        // minus this is Pagewise's own JavaScript.
        capturing = [];
        await pagination.paginateQueryset(probeQuery(), new ApiRequest({ url }));
        const sent = capturing;
        sentAt.set(`${ordering.name}@${depth}`, sent);
        fetches.set(`pagewise-sql-kysely:${ordering.name}`, async () => {
          // A page that crosses into a NULL block sends one statement per block.
          const rows: Array<{ id: number }> = [];
          for (const q of sent) rows.push(...(await pagewiseDb.executeQuery<{ id: number }>(q)).rows);
          return ids(rows);
        });
      }
      for (const ordering of ORDERINGS) {
        const want = await fetches.get(`raw:${ordering.name}`)!();
        for (const kind of ['kysely-hand', 'pagewise-sql-kysely', 'pagewise-cursor'] as const) {
          const got = await fetches.get(`${kind}:${ordering.name}`)!();
          if (got.length !== want.length || got.some((id, i) => id !== want[i])) {
            mismatches.push(
              `${options.dialect} ${kind}:${ordering.name} at depth ${depth}: first ids ${got.slice(0, 3)} instead of ${want.slice(0, 3)}`,
            );
          }
        }
      }
      const stats = await measureRoundRobin(fetches, options);
      for (const [contender, s] of stats) latency.push({ contender, depth, stats: s });
      if (depth === profileDepth && options.profilePages > 0) {
        profile = await profilePages(
          `${options.dialect} Pagewise cursor page, uniform, depth ${depth}`,
          fetches.get('pagewise-cursor:uniform')!,
          options.profilePages,
        );
      }
      options.log?.write(
        `${options.dialect} depth ${depth}: Pagewise ${stats.get('pagewise-cursor:uniform')?.medianMs.toFixed(3)} ms, ` +
          `Kysely ${stats.get('kysely-hand:uniform')?.medianMs.toFixed(3)} ms, raw ${stats.get('raw:uniform')?.medianMs.toFixed(3)} ms\n`,
      );
    }
    const slowPlans: SlowDialectPlan[] = [];
    for (const slow of depthDependent(latency, options.depths)) {
      const statements = [];
      for (const q of sentAt.get(`${slow.ordering}@${slow.depth}`) ?? []) {
        statements.push({ sql: q.sql, plan: await setup.plan(q.sql, q.parameters) });
      }
      slowPlans.push({ ...slow, statements });
    }
    return {
      dialect: options.dialect,
      server: setup.server,
      seeded: setup.seeded,
      seedSeconds,
      depths: options.depths,
      skipped: null,
      latency,
      mismatches,
      profile,
      slowPlans,
    };
  } finally {
    await Promise.all([handDb.destroy(), pagewiseDb.destroy(), probeDb.destroy(), setup.raw.close()]);
  }
}
