// Issue 15: a plain mysql2 pool wrapped in `recordExactTimestamps` records the exact text MariaDB
// sent beside each DATETIME, TIMESTAMP and DATE value (a per-query `typeCast`), so cursor pages
// read positions from it instead of selecting a `cast(... as char)` column per date-time. Exact or
// refused: the positions, links and rows are those of the stock pool, in every session time zone;
// where the pool does not record the text, the column is selected as before.
import { inspect } from 'node:util';
import { fromKysely, recordExactTimestamps } from '@pagewise/kysely-adapter';
import { ApiRequest, ConfigurationError, CursorPagination, type PositionValue } from '@pagewise/rest';
import fc from 'fast-check';
import { CompiledQuery, Kysely, type LogConfig, MysqlDialect, sql } from 'kysely';
import { createPool, type PoolOptions } from 'mysql2';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { restoreProcessZone } from '../support/process-zone.js';

const target = databaseTarget('mariadb');
const TABLE = tableName('pw_mysql_exact_ts');
const ORIGIN = 'http://testserver/';

let sent: string[] = [];
const log: LogConfig = (event) => {
  if (event.level === 'query') sent.push(event.query.sql);
};

// biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
type Db = Kysely<any>;
const opened: Db[] = [];

/** A Kysely over a fresh one-connection pool, wrapped or stock, its session in `zone`. */
function open(wrap: boolean, options: PoolOptions = {}, zone = '+00:00'): Db {
  const raw = createPool({ uri: process.env.MYSQL_URL!, connectionLimit: 1, ...options });
  const db = new Kysely({
    dialect: new MysqlDialect({
      pool: wrap ? recordExactTimestamps(raw) : raw,
      onCreateConnection: async (c) =>
        void (await c.executeQuery(CompiledQuery.raw(`set time_zone = '${zone}'`))),
    }),
    log,
  });
  opened.push(db);
  return db;
}

/** Date-times with ties, microseconds, year 1 (mysql2 reads it as 1901) and the last instant. */
const CREATED = [
  '2024-05-01 12:00:00.000001',
  '2024-05-01 12:00:00.000001',
  '2024-05-01 12:00:00.000002',
  '2024-05-01 12:00:00.000002',
  '2024-05-01 12:00:00.0005',
  '0001-01-01 00:00:00',
  '0099-12-31 23:59:59.999999',
  '1000-01-01 00:00:00',
  '9999-12-31 23:59:59.999999',
  '1969-12-31 23:59:59.9995',
  '2024-03-31 02:30:00.123456',
  '2024-10-27 02:30:00.123456',
  '1970-01-01 00:00:01',
  '2038-01-19 03:14:07.999999',
];
/** TIMESTAMPs hold 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC: the in-range ones, else a tie. */
const STAMP = CREATED.map((t) =>
  t >= '1970-01-01 00:00:01' && t <= '2038-01-19 03:14:07' ? t : '2001-01-01 00:00:00',
);
/** Ids on both sides of 2^53: the tiebreaker's positions must stay exact through a rounding pool. */
const IDS = CREATED.map((_, i) => 9007199254740985n + BigInt(i));

/** One column per kind the adapter reads from recorded text. */
const COLUMNS = ['created', 'stamp', 'day', 'ms', 'sec'] as const;

beforeAll(async () => {
  if (target.skipReason !== null) return;
  const db = open(false);
  await sql.raw(`drop table if exists ${TABLE}`).execute(db);
  await sql
    .raw(
      `create table ${TABLE} (id bigint primary key, n integer not null, created datetime(6) not null,
       stamp timestamp(6) not null, day date not null, ms datetime(3) not null, sec datetime null)`,
    )
    .execute(db);
  const values = CREATED.map(
    (t, i) =>
      `(${IDS[i]}, ${i + 1}, '${t}', '${STAMP[i]}', '${t}', '${t}', ${i % 4 === 3 ? 'null' : `'${t}'`})`,
  );
  await sql.raw(`insert into ${TABLE} values ${values.join(', ')}`).execute(db);
});

afterAll(async () => {
  if (opened.length > 0) await sql.raw(`drop table if exists ${TABLE}`).execute(opened[0]!);
  for (const db of opened) await db.destroy();
});

interface Walk {
  readonly pages: number[][];
  readonly links: string[];
  /** The pages again, walked back by `previous` links from the last one. */
  readonly back: number[][];
}

async function page(db: Db, ordering: string, link: string) {
  const pagination = new CursorPagination({ pageSize: 2, ordering: [ordering] });
  const rows = await pagination.paginateQueryset(
    fromKysely(db.selectFrom(TABLE).selectAll(), { db }),
    new ApiRequest({ url: link }),
  );
  return {
    ns: (rows ?? []).map((r) => Number(r.n)),
    next: pagination.getNextLink(),
    previous: pagination.getPreviousLink(),
  };
}

/** A cursor walk forward from `start`, page size 2, then back from its last page. */
async function walk(db: Db, ordering: string, start = ORIGIN): Promise<Walk> {
  const pages: number[][] = [];
  const links: string[] = [];
  let link: string | null = start;
  let previous: string | null = null;
  while (link !== null && pages.length < 40) {
    const result = await page(db, ordering, link);
    pages.push(result.ns);
    previous = result.previous;
    link = result.next;
    if (link !== null) links.push(link);
  }
  const back: number[][] = [];
  while (previous !== null && back.length < 40) {
    const result = await page(db, ordering, previous);
    back.unshift(result.ns);
    previous = result.previous;
  }
  return { pages, links, back };
}

/** Every row's position under `[field, id]`, read by the adapter. */
async function positions(db: Db, field: string): Promise<PositionValue[][]> {
  const query = fromKysely(db.selectFrom(TABLE).selectAll(), { db });
  const order = [
    { field, direction: 'asc' as const, nulls: 'last' as const },
    { field: 'id', direction: 'asc' as const, nulls: 'last' as const, unique: true as const },
  ];
  const rows = await query.fetch({ order, after: null, offset: 0, limit: 1000 });
  return rows.map((r) => [...r.position]);
}

const pageStatements = () => sent.filter((s) => s.includes(TABLE) && s.includes('limit'));
const casts = (statements: string[]) =>
  statements.filter((s) => /cast\(`(created|stamp|day|ms|sec)` as char\)/.test(s));

describeDatabase(target, 'exact date-times recorded by recordExactTimestamps', () => {
  it('pages select no text column when wrapped, and do when not; walks both ways and links are the same', async () => {
    const stock = open(false);
    const wrapped = open(true);
    for (const field of COLUMNS) {
      for (const ordering of [field, `-${field}`]) {
        sent = [];
        const expected = await walk(stock, ordering);
        expect(casts(pageStatements()).length).toBe(pageStatements().length);
        sent = [];
        const actual = await walk(wrapped, ordering);
        expect(pageStatements().length).toBeGreaterThan(0);
        expect(casts(pageStatements())).toEqual([]);
        expect(actual, ordering).toEqual(expected);
        expect(expected.pages.flat().sort((a, b) => a - b)).toEqual(CREATED.map((_, i) => i + 1));
        expect(expected.back.slice(1)).toEqual(expected.pages.slice(1, expected.back.length));
      }
    }
  });

  it('tokens are interchangeable: a stock link read through the wrapped pool, and back', async () => {
    const stock = open(false);
    const wrapped = open(true);
    for (const field of COLUMNS) {
      const { pages, links } = await walk(stock, `-${field}`);
      for (const [i, link] of links.entries()) {
        expect((await page(wrapped, `-${field}`, link)).ns).toEqual(pages[i + 1]);
      }
      const back = await walk(wrapped, field);
      for (const [i, link] of back.links.entries()) {
        expect((await page(stock, field, link)).ns).toEqual(back.pages[i + 1]);
      }
    }
  });

  it('positions are the stock ones in every session time zone and pool timezone', async () => {
    for (const zone of ['+00:00', '+05:45', '-09:30', '+13:00']) {
      for (const timezone of ['local', 'Z', '-03:00']) {
        const stock = open(false, { timezone }, zone);
        const wrapped = open(true, { timezone }, zone);
        for (const field of COLUMNS) {
          const expected = await positions(stock, field);
          sent = [];
          expect(await positions(wrapped, field), `${zone} ${timezone} ${field}`).toEqual(expected);
          expect(casts(pageStatements())).toEqual([]);
        }
        expect(await walk(wrapped, '-stamp')).toEqual(await walk(stock, '-stamp'));
      }
    }
  });

  it('rows keep the values the stock pool gives: equal, same JSON, same inspection, no keys', async () => {
    try {
      for (const [tz, options] of [
        ['UTC', {}],
        ['Europe/Amsterdam', {}],
        ['America/St_Johns', { timezone: 'Z' }],
        ['Asia/Kathmandu', { timezone: '+05:30' }],
      ] as const) {
        process.env.TZ = tz;
        const stockRows = await open(false, options).selectFrom(TABLE).selectAll().orderBy('n').execute();
        const wrapped = open(true, options);
        const pagination = new CursorPagination({ pageSize: 50, ordering: ['created'] });
        const rows = await pagination.paginateQueryset(
          fromKysely(wrapped.selectFrom(TABLE).selectAll(), { db: wrapped }),
          new ApiRequest({ url: ORIGIN }),
        );
        const byN = [...(rows ?? [])].sort((a, b) => Number(a.n) - Number(b.n));
        expect(byN, tz).toEqual(stockRows);
        expect(JSON.stringify(byN)).toBe(JSON.stringify(stockRows));
        expect(inspect(byN, { depth: 4 })).toBe(inspect(stockRows, { depth: 4 }));
        expect(byN.map((r) => [r.created, r.day].map((d: Date) => d.getTime()))).toEqual(
          stockRows.map((r) => [r.created, r.day].map((d: Date) => d.getTime())),
        );
        const created = byN[0]!.created as Date;
        expect(Object.getPrototypeOf(created)).toBe(Date.prototype);
        expect(Reflect.ownKeys(created)).toEqual([]);
      }
    } finally {
      restoreProcessZone();
    }
  });

  it("mysql2 gets each query as a command made by its own createQuery's class (no options spread)", async () => {
    const raw = createPool({ uri: process.env.MYSQL_URL!, connectionLimit: 1 });
    const handed: string[] = [];
    const spied = new WeakSet<object>();
    const pool: Parameters<typeof recordExactTimestamps>[0] = {
      getConnection(callback) {
        raw.getConnection((error, connection) => {
          if (connection && !spied.has(connection)) {
            spied.add(connection);
            const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
            Object.assign(connection, {
              query: (...args: unknown[]) => {
                handed.push((args[0] as object).constructor.name);
                return query(...args);
              },
            });
          }
          callback(error, connection);
        });
      },
      end: (callback) => raw.end(callback),
    };
    const db: Db = new Kysely({ dialect: new MysqlDialect({ pool: recordExactTimestamps(pool) }) });
    opened.push(db);
    const stock = await open(false).selectFrom(TABLE).selectAll().orderBy('n').execute();
    expect(await db.selectFrom(TABLE).selectAll().orderBy('n').execute()).toEqual(stock);
    expect(handed).toEqual(['Query']);
  });

  it('the probe runs once per Kysely instance', async () => {
    const wrapped = open(true);
    sent = [];
    await walk(wrapped, 'created');
    await walk(wrapped, '-day');
    expect(sent.filter((s) => !s.includes(TABLE) && s.includes('as datetime(6)'))).toHaveLength(1);
  });

  it('pools giving date strings answer as unwrapped, and pages select the column', async () => {
    for (const options of [{ dateStrings: true }, { dateStrings: ['DATETIME' as const] }]) {
      const expected = await walk(open(false, options), '-created');
      const wrapped = open(true, options);
      sent = [];
      expect(await walk(wrapped, '-created')).toEqual(expected);
      expect(casts(pageStatements()).length).toBe(pageStatements().length);
      const stockRows = await open(false, options).selectFrom(TABLE).selectAll().orderBy('n').execute();
      expect(await wrapped.selectFrom(TABLE).selectAll().orderBy('n').execute()).toEqual(stockRows);
    }
  });

  it("a user's typeCast: its values are kept; strings fall back to the text column", async () => {
    const expected = await walk(open(false), '-created');
    const strings = open(true, {
      typeCast: (field, next) => (field.type === 'DATETIME' ? field.string() : next()),
    });
    sent = [];
    expect(await walk(strings, '-created')).toEqual(expected);
    expect(casts(pageStatements()).length).toBe(pageStatements().length);
    const rows = await strings.selectFrom(TABLE).select('created').where('n', '=', 1).execute();
    expect(rows).toEqual([{ created: '2024-05-01 12:00:00.000001' }]);

    const objects = open(true, {
      typeCast: (field, next) =>
        field.type === 'DATETIME' ? { text: field.string(), date: next() } : next(),
    });
    sent = [];
    expect(await walk(objects, '-created')).toEqual(expected);
    expect(casts(pageStatements()).filter((s) => s.includes('`created`'))).toEqual([]);
    const [row] = await objects.selectFrom(TABLE).select(['created', 'day']).where('n', '=', 9).execute();
    expect(row).toEqual({
      created: { text: '9999-12-31 23:59:59.999999', date: new Date(9999, 11, 31, 23, 59, 59, 999) },
      day: new Date(9999, 11, 31),
    });
  });

  it('a typeCast that answers strings after the probe: the page is refused with a ConfigurationError', async () => {
    let strings = false;
    const wrapped = open(true, {
      typeCast: (field, next) => (strings && field.type === 'DATETIME' ? field.string() : next()),
    });
    const first = await walk(wrapped, '-created');
    strings = true;
    await expect(page(wrapped, '-created', first.links[0]!)).rejects.toThrow(ConfigurationError);
    await expect(page(wrapped, '-created', first.links[0]!)).rejects.toThrow(/typeCast/);
  });
});

describeDatabase(target, 'recordExactTimestamps gives the values mysql2 gives', () => {
  it('property: random date-times from year 1 to 9999, in every pool timezone and with a typeCast', async () => {
    const table = tableName('pw_mysql_exact_ts_random');
    const setup = open(false);
    const day = 86_400_000;
    // Milliseconds from 0001-01-01 to 9999-12-31, whole days for DATE; microseconds from the index.
    const MIN = -62_135_596_800_000;
    const MAX = 253_402_300_799_000;
    const instants = [
      ...fc.sample(fc.integer({ min: MIN, max: MAX }), 300),
      ...fc.sample(fc.integer({ min: -2_208_988_800_000, max: 4_102_444_800_000 }), 300),
      ...fc.sample(fc.integer({ min: MIN, max: -59_011_459_200_000 }), 50),
    ];
    const text = (ms: number, micro: number) =>
      `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}.${String(micro).padStart(6, '0')}`;
    await sql.raw(`drop table if exists ${table}`).execute(setup);
    await sql
      .raw(`create table ${table} (n integer primary key, created datetime(6), sec datetime, day date)`)
      .execute(setup);
    const values = instants.map((ms, i) => {
      const t = text(ms, (i * 7919) % 1_000_000);
      return `(${i}, '${t}', '${t.slice(0, 19)}', '${new Date(Math.floor(ms / day) * day).toISOString().slice(0, 10)}')`;
    });
    await sql.raw(`insert into ${table} values ${values.join(', ')}`).execute(setup);
    try {
      for (const [tz, options] of [
        ['America/Sao_Paulo', {}],
        ['Australia/Lord_Howe', {}],
        ['UTC', { timezone: 'Z' }],
        ['Asia/Tokyo', { timezone: '+05:30' }],
        ['Europe/London', { timezone: '-11:00' }],
        ['Europe/Paris', { typeCast: (_field: unknown, next: () => unknown) => next() }],
      ] as const) {
        process.env.TZ = tz;
        const read = (db: Db) => db.selectFrom(table).selectAll().orderBy('n').execute();
        const stock = await read(open(false, options as PoolOptions));
        const wrapped = await read(open(true, options as PoolOptions));
        const times = (rows: Record<string, unknown>[]) =>
          rows.map((r) => [r.created, r.sec, r.day].map((d) => (d as Date).getTime()));
        expect(times(wrapped), tz).toEqual(times(stock));
      }
    } finally {
      restoreProcessZone();
      await sql.raw(`drop table if exists ${table}`).execute(setup);
    }
  });
});

describeDatabase(target, 'recordExactTimestamps with several statements in one text', () => {
  it('each result gets the values the stock pool gives', async () => {
    const text = `set @pagewise_x = 1; select created, day from ${TABLE} where n = 9; select 1 as one`;
    const stock = await sql.raw(text).execute(open(false, { multipleStatements: true }));
    const wrapped = await sql.raw(text).execute(open(true, { multipleStatements: true }));
    expect(wrapped.rows).toEqual(stock.rows);
    expect(inspect(wrapped.rows, { depth: 4 })).toBe(inspect(stock.rows, { depth: 4 }));
  });
});
