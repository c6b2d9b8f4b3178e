// Issue 15: a plain `pg` pool wrapped in `nameStatements` records the exact text Postgres sent
// beside each timestamp value (a per-query type parser), so cursor pages read positions from it
// instead of selecting a `to_char`/`extract(epoch)` column per position. Exact or refused: the
// positions, links and rows are those of the stock pool; a text that is not ISO output never
// becomes a position; where the driver does not record the text, the column is selected as before.
import { inspect } from 'node:util';
import { fromKysely, nameStatements } from '@pagewise/kysely-adapter';
import { ApiRequest, ConfigurationError, CursorPagination, type PositionValue } from '@pagewise/rest';
import fc from 'fast-check';
import { Kysely, type LogConfig, PostgresDialect, type SelectQueryBuilder, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTarget, describeDatabase, tableName } from '../support/databases.js';
import { restoreProcessZone } from '../support/process-zone.js';

const target = databaseTarget('postgres-named-statements');
const url = process.env.PG_URL!;
const TABLE = tableName('pw_exact_ts');
const ORIGIN = 'http://testserver/';

/** Every statement text sent through the databases opened by `open`, in order. */
let sent: string[] = [];
const log: LogConfig = (event) => {
  if (event.level === 'query') sent.push(event.query.sql);
};

// biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
type Db = Kysely<any>;
const opened: Db[] = [];

/** A Kysely over a fresh one-connection pool, wrapped in `nameStatements` or stock. */
function open(wrap: boolean | { exactTimestamps: boolean }, config: pg.PoolConfig = {}): Db {
  const raw = new pg.Pool({ connectionString: url, max: 1, ...config });
  const pool = wrap === false ? raw : nameStatements(raw, wrap === true ? {} : wrap);
  const db = new Kysely({ dialect: new PostgresDialect({ pool }), log });
  opened.push(db);
  return db;
}

const TIMESTAMPS = [
  '2024-05-01 12:00:00.000001+00',
  '2024-05-01 12:00:00.000001+00',
  '2024-05-01 12:00:00.000001+00',
  '2024-05-01 12:00:00.000002+00',
  '2024-05-01 12:00:00.000002+00',
  '2024-05-01 12:00:00.0005+00',
  '0044-03-15 12:00:00.000001+00 BC',
  '4713-11-24 00:00:00+00 BC',
  'infinity',
  '-infinity',
  '10000-01-01 00:00:00.5+00',
  '1900-01-01 00:00:00+00',
  '1969-12-31 23:59:59.9995+00',
  '2024-11-03 05:30:00.123456+00',
  '2024-11-03 06:30:00.123456+00',
  '0001-01-01 00:00:00+00',
];

/** One column per kind the adapter reads from recorded text, each with ties, infinity and BC. */
const COLUMNS = ['created', 'day', 'wall', 'ms'] as const;

beforeAll(async () => {
  if (target.skipReason !== null) return;
  const db = open(false);
  await sql.raw(`drop table if exists ${TABLE}`).execute(db);
  await sql
    .raw(
      `create table ${TABLE} (id integer primary key, created timestamptz not null, day date not null,
       wall timestamp not null, ms timestamptz(3) not null)`,
    )
    .execute(db);
  const values = TIMESTAMPS.map((t, i) => `(${i + 1}, timestamptz '${t}')`).join(', ');
  await sql
    .raw(
      `insert into ${TABLE} select id, v, cast(v at time zone 'UTC' as date), v at time zone 'UTC', v
       from (values ${values}) as t(id, v)`,
    )
    .execute(db);
});

afterAll(async () => {
  if (opened.length > 0) await sql.raw(`drop table if exists ${TABLE}`).execute(opened[0]!);
  for (const db of opened) await db.destroy();
});

interface Walk {
  readonly pages: number[][];
  readonly links: string[];
}

/** A cursor walk forward, page size 2, by `field` in `direction` (then the `id` tiebreaker). */
async function walk(db: Db, field: string, direction: 'asc' | 'desc', start = ORIGIN): Promise<Walk> {
  const { pages, links } = await walkRows(db, field, direction, start, (d) =>
    d.selectFrom(TABLE).selectAll(),
  );
  return { pages: pages.map((page) => page.map((r) => Number(r.id))), links };
}

interface RowWalk {
  readonly pages: Array<Array<Record<string, unknown>>>;
  readonly links: string[];
}

/** `walk` over the query `select` builds, with the rows themselves. */
async function walkRows(
  db: Db,
  field: string,
  direction: 'asc' | 'desc',
  start: string,
  // biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
  select: (db: Db) => SelectQueryBuilder<any, any, Record<string, unknown>>,
): Promise<RowWalk> {
  const pages: Array<Array<Record<string, unknown>>> = [];
  const links: string[] = [];
  let link: string | null = start;
  while (link !== null && pages.length < 40) {
    const pagination = new CursorPagination({
      pageSize: 2,
      ordering: [`${direction === 'desc' ? '-' : ''}${field}`],
    });
    const rows = await pagination.paginateQueryset(
      fromKysely(select(db), { db }),
      new ApiRequest({ url: link }),
    );
    pages.push([...(rows ?? [])]);
    link = pagination.getNextLink();
    if (link !== null) links.push(link);
  }
  return { pages, links };
}

/** Every row's position under `[field, id]`, read by the adapter. */
async function positions(db: Db, field: string, table = TABLE): Promise<PositionValue[][]> {
  const query = fromKysely(db.selectFrom(table).selectAll(), { db });
  const order = [
    { field, direction: 'asc' as const, nulls: 'last' as const },
    { field: 'id', direction: 'asc' as const, nulls: 'last' as const, unique: true as const },
  ];
  const rows = await query.fetch({ order, after: null, offset: 0, limit: 1000 });
  return rows.map((r) => [...r.position]);
}

/**
 * A text column per timestamp position: `to_char`/`to_json`/`extract(epoch)`, or the column's own
 * text where the session's DateStyle is ISO (`cast("created" as text)`).
 */
const TEXT_COLUMN = /to_char|to_json|extract\(epoch|cast\("[a-z_]+" as text\)/;

const pageStatements = () => sent.filter((s) => s.includes(TABLE) && s.includes('limit'));

describeDatabase(target, 'exact timestamps recorded by nameStatements', () => {
  it('pages select no text column when wrapped, and do when not; walks and links are the same', async () => {
    const stock = open(false);
    const wrapped = open(true);
    for (const field of COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        sent = [];
        const expected = await walk(stock, field, direction);
        expect(pageStatements().every((s) => TEXT_COLUMN.test(s))).toBe(true);
        sent = [];
        const actual = await walk(wrapped, field, direction);
        const statements = pageStatements();
        expect(statements.length).toBeGreaterThan(0);
        expect(statements.filter((s) => TEXT_COLUMN.test(s) || /pagewise(?:x?\d|tie)/.test(s))).toEqual([]);
        expect(actual, `${field} ${direction}`).toEqual(expected);
        expect(expected.pages.flat().sort((a, b) => a - b)).toEqual(TIMESTAMPS.map((_, i) => i + 1));
      }
    }
  });

  it('tokens are interchangeable: a stock link read through the wrapped pool, and back', async () => {
    const stock = open(false);
    const wrapped = open(true);
    for (const field of COLUMNS) {
      const { pages, links } = await walk(stock, field, 'desc');
      for (const [i, link] of links.entries()) {
        expect((await walk(wrapped, field, 'desc', link)).pages[0]).toEqual(pages[i + 1]);
      }
      const back = await walk(wrapped, field, 'desc');
      for (const [i, link] of back.links.entries()) {
        expect((await walk(stock, field, 'desc', link)).pages[0]).toEqual(back.pages[i + 1]);
      }
    }
  });

  it('positions are the stock ones, in every session time zone (offsets, half hours, LMT)', async () => {
    const expected = await Promise.all(COLUMNS.map((field) => positions(open(false), field)));
    for (const zone of [
      'UTC',
      'Asia/Kolkata',
      'America/St_Johns',
      'Europe/Amsterdam',
      'Pacific/Kiritimati',
    ]) {
      const wrapped = open(true, { options: `-c TimeZone=${zone}` });
      sent = [];
      for (const [i, field] of COLUMNS.entries()) {
        expect(await positions(wrapped, field), `${zone} ${field}`).toEqual(expected[i]);
      }
      expect(pageStatements().filter((s) => TEXT_COLUMN.test(s))).toEqual([]);
    }
  });

  it('rows keep the Dates the stock pool gives: equal, same JSON, same inspection, no keys', async () => {
    const stockRows = await open(false).selectFrom(TABLE).selectAll().orderBy('id').execute();
    const wrapped = open(true);
    const pagination = new CursorPagination({ pageSize: 50, ordering: ['created'] });
    const rows = await pagination.paginateQueryset(
      fromKysely(wrapped.selectFrom(TABLE).selectAll(), { db: wrapped }),
      new ApiRequest({ url: ORIGIN }),
    );
    const byId = [...(rows ?? [])].sort((a, b) => Number(a.id) - Number(b.id));
    expect(byId).toEqual(stockRows);
    expect(JSON.stringify(byId)).toBe(JSON.stringify(stockRows));
    expect(inspect(byId, { depth: 4 })).toBe(inspect(stockRows, { depth: 4 }));
    const created = byId.find((r) => r.id === 1)!.created as Date;
    expect(created).toBeInstanceOf(Date);
    expect(Object.getPrototypeOf(created)).toBe(Date.prototype);
    expect(Reflect.ownKeys(created)).toEqual([]);
  });

  it('rows hold the stock Dates in every session and process time zone: LMT offsets, BC, past 9999', async () => {
    const table = tableName('pw_exact_ts_zones');
    const setup = open(false);
    // Instants from 4713 BC to 294276 AD, and old years whose zones print local mean time offsets
    // (+05:53:28, -04:56:02, ...); each also as `timestamp` and `date` in the session's zone.
    const instants = [
      // Two days inside Postgres's bounds, so the casts to local `timestamp` and `date` stay in range.
      ...fc.sample(fc.bigInt({ min: -211813315200000000n, max: 9223371158399999000n }), 150),
      ...fc.sample(fc.bigInt({ min: -4_000_000_000_000_000n, max: 1_000_000_000_000_000n }), 150),
    ];
    const DAY = 86_400_000_000n;
    const values = instants.map((us, i) => {
      const days = us / DAY - (us % DAY < 0n ? 1n : 0n);
      return `(${i + 1}, timestamptz '2000-01-01 00:00:00+00' + ${days} * interval '1 day' + ${us - days * DAY} * interval '1 microsecond')`;
    });
    const extra = TIMESTAMPS.filter((t) => !t.startsWith('4713')).map(
      (t, i) => `(${instants.length + i + 1}, timestamptz '${t}')`,
    );
    await sql.raw(`drop table if exists ${table}`).execute(setup);
    await sql.raw(`create table ${table} (id integer primary key, created timestamptz)`).execute(setup);
    await sql.raw(`insert into ${table} values ${[...values, ...extra].join(', ')}`).execute(setup);
    const shown = (rows: Array<Record<string, unknown>>) =>
      rows.map((row) =>
        Object.entries(row).map(([key, value]) =>
          value instanceof Date
            ? `${key} Date ${value.getTime()}`
            : `${key} ${typeof value} ${String(value)}`,
        ),
      );
    const read = (db: Db) =>
      sql<Record<string, unknown>>`select id, created, cast(created as timestamp) as wall,
        cast(created as date) as day from ${sql.table(table)} where id > ${0} order by id`.execute(db);
    try {
      for (const processZone of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
        process.env.TZ = processZone;
        for (const sessionZone of [
          'UTC',
          'Asia/Kolkata',
          'America/New_York',
          'Asia/Kathmandu',
          'Pacific/Chatham',
        ]) {
          const options = { options: `-c TimeZone=${sessionZone}` };
          const expected = shown((await read(open(false, options))).rows);
          const actual = shown((await read(open(true, options))).rows);
          expect(actual, `process ${processZone}, session ${sessionZone}`).toEqual(expected);
          expect(expected).toHaveLength(instants.length + extra.length);
        }
      }
    } finally {
      restoreProcessZone();
      await sql.raw(`drop table if exists ${table}`).execute(setup);
    }
  });

  it("a parser set on the client is called for every value, never replaced by the adapter's", async () => {
    let calls = 0;
    const counted = (text: string) => {
      calls += 1;
      return (pg.types.getTypeParser(1184, 'text') as (t: string) => unknown)(text);
    };
    const db = open(true, {
      types: {
        getTypeParser: ((oid: number, format?: 'text') =>
          oid === 1184 ? counted : pg.types.getTypeParser(oid, format)) as never,
      },
    });
    const rows = await db.selectFrom(TABLE).select(['id', 'created']).where('id', '>', 0).execute();
    expect(rows).toHaveLength(TIMESTAMPS.length);
    expect(calls).toBe(TIMESTAMPS.length);
    const expected = await walk(open(false), 'created', 'desc');
    expect(await walk(db, 'created', 'desc')).toEqual(expected);
  });

  it("Kysely's per-connection hook runs once per pg connection, not once per query", async () => {
    const created: unknown[] = [];
    const db = new Kysely({
      dialect: new PostgresDialect({
        pool: nameStatements(new pg.Pool({ connectionString: url, max: 1 })),
        onCreateConnection: async (connection) => {
          created.push(connection);
        },
      }),
    });
    opened.push(db);
    for (let i = 0; i < 3; i += 1) await walk(db, 'created', 'desc');
    expect(created).toHaveLength(1);
  });

  it("pg copies only a query's own parsers: its statement's name and text are the config's prototype", async () => {
    // pg copies each config's own properties one by one (`Object.getOwnPropertyDescriptors`).
    const raw = new pg.Pool({ connectionString: url, max: 1 });
    const configs: Array<Record<string, unknown>> = [];
    const spied = new WeakSet<object>();
    const connect = raw.connect.bind(raw) as () => Promise<pg.PoolClient>;
    (raw as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
      const client = await connect();
      if (!spied.has(client)) {
        spied.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config, ...rest) => {
          if (typeof config === 'object' && config !== null) configs.push(config as Record<string, unknown>);
          return query(config, ...rest);
        };
      }
      return client;
    };
    const db = new Kysely({ dialect: new PostgresDialect({ pool: nameStatements(raw) }) });
    opened.push(db);
    expect(await walk(db, 'created', 'desc')).toEqual(await walk(open(false), 'created', 'desc'));
    const paged = configs.filter((c) => typeof c.text === 'string' && c.text.includes(TABLE));
    expect(paged.length).toBeGreaterThan(3);
    for (const config of paged) {
      expect(Object.keys(config)).toEqual(['types']);
      expect(config.name).toMatch(/^pagewise_\d+$/);
    }
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_prepared_statements where name like 'pagewise_%'`.execute(db);
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  it('the probe runs once per database', async () => {
    const wrapped = open(true);
    sent = [];
    await walk(wrapped, 'created', 'asc');
    await walk(wrapped, 'day', 'desc');
    const probes = sent.filter((s) => !s.includes(TABLE) && /timestamptz|timestamp/.test(s));
    expect(probes).toHaveLength(1);
  });

  it('exactTimestamps: false keeps the text column', async () => {
    const wrapped = open({ exactTimestamps: false });
    sent = [];
    const expected = await walk(open(false), 'created', 'desc');
    sent = [];
    expect(await walk(wrapped, 'created', 'desc')).toEqual(expected);
    expect(pageStatements().every((s) => TEXT_COLUMN.test(s))).toBe(true);
  });

  it('a session DateStyle other than ISO: the text column, never a misread text', async () => {
    const expected = await walk(open(false), 'created', 'desc');
    for (const style of ['SQL, DMY', 'German', 'Postgres, MDY']) {
      const wrapped = open(true, { options: `-c DateStyle=${style.replace(' ', '')}` });
      sent = [];
      expect(await walk(wrapped, 'created', 'desc')).toEqual(expected);
      expect(pageStatements().every((s) => s.includes('to_char'))).toBe(true);
    }
  });

  it('DateStyle changed after the probe: the page is refused with a ConfigurationError', async () => {
    const wrapped = open(true);
    const first = await walk(wrapped, 'created', 'desc');
    await sql`set DateStyle = 'SQL, DMY'`.execute(wrapped);
    await expect(walk(wrapped, 'created', 'desc', first.links[0])).rejects.toThrow(ConfigurationError);
    await expect(walk(wrapped, 'created', 'desc', first.links[0])).rejects.toThrow(/DateStyle/);
  });

  it("a user's timestamptz parser: its values are kept; strings fall back to the text column", async () => {
    const expected = await walk(open(false), 'created', 'desc');
    const strings = open(true, {
      types: {
        getTypeParser: ((oid: number, format?: 'text') =>
          oid === 1184 ? (t: string) => t : pg.types.getTypeParser(oid, format)) as never,
      },
    });
    sent = [];
    expect(await walk(strings, 'created', 'desc')).toEqual(expected);
    expect(pageStatements().every((s) => TEXT_COLUMN.test(s))).toBe(true);
    const rows = await strings.selectFrom(TABLE).select('created').where('id', '=', 1).execute();
    expect(rows).toEqual([{ created: '2024-05-01 12:00:00.000001+00' }]);

    const wrapped = (text: string) => ({ text });
    const objects = open(true, {
      types: {
        getTypeParser: ((oid: number, format?: 'text') =>
          oid === 1184 ? wrapped : pg.types.getTypeParser(oid, format)) as never,
      },
    });
    sent = [];
    expect(await walk(objects, 'created', 'desc')).toEqual(expected);
    expect(pageStatements().filter((s) => TEXT_COLUMN.test(s))).toEqual([]);
    const pagination = new CursorPagination({ pageSize: 1, ordering: ['-created'] });
    const page = await pagination.paginateQueryset(
      fromKysely(objects.selectFrom(TABLE).select(['id', 'created']), { db: objects }),
      new ApiRequest({ url: ORIGIN }),
    );
    expect(page).toEqual([{ id: 9, created: { text: 'infinity' } }]);
  });

  it('property: positions of random instants from 4714 BC to 294276 AD match the stock ones', async () => {
    const table = tableName('pw_exact_ts_random');
    const setup = open(false);
    // Microseconds since 2000-01-01 as Postgres bounds them (4714-11-24 BC to 294276-12-31 AD; the
    // last millisecond, so timestamptz(3) does not round past the end).
    const MIN = -211813488000000000n;
    const MAX = 9223371331199999000n;
    const samples = fc.sample(fc.bigInt({ min: MIN, max: MAX }), 300);
    const near = fc.sample(fc.bigInt({ min: -3_155_760_000_000_000n, max: 3_155_760_000_000_000n }), 300);
    await sql.raw(`drop table if exists ${table}`).execute(setup);
    await sql
      .raw(
        `create table ${table} (id integer primary key, created timestamptz, day date, wall timestamp, ms timestamptz(3))`,
      )
      .execute(setup);
    // Whole days and the microseconds left, each exact in interval arithmetic (the session is UTC).
    const DAY = 86_400_000_000n;
    const values = [...samples, ...near, MIN, MAX].map((us, i) => {
      const days = us / DAY - (us % DAY < 0n ? 1n : 0n);
      const rest = us - days * DAY;
      return `(${i + 1}, timestamptz '2000-01-01 00:00:00+00' + ${days} * interval '1 day' + ${rest} * interval '1 microsecond')`;
    });
    await sql
      .raw(
        `insert into ${table} select id, v, cast(v at time zone 'UTC' as date), v at time zone 'UTC', v
         from (values ${values.join(', ')}) as t(id, v)`,
      )
      .execute(setup);
    try {
      for (const field of COLUMNS) {
        const expected = await positions(setup, field, table);
        for (const zone of ['UTC', 'America/St_Johns', 'Asia/Kathmandu']) {
          expect(
            await positions(open(true, { options: `-c TimeZone=${zone}` }), field, table),
            `${field} ${zone}`,
          ).toEqual(expected);
        }
      }
    } finally {
      await sql.raw(`drop table if exists ${table}`).execute(setup);
    }
  });
});

// The stock pool (issue 37, the default path): where the session's DateStyle is ISO, a position
// column is the column's own text, `cast(x as text)`, which the server writes at about a third of
// `to_char`'s cost; it reads to the positions `to_char` gives, in any TimeZone (the text carries
// the offset, local mean time's seconds included), and a page whose session no longer writes ISO
// is read again with `to_char`.
describeDatabase(target, "the stock pool's text column", () => {
  const castColumn = (s: string) =>
    /cast\("[a-z_]+" as text\) as "pagewise/.test(s) && !s.includes('to_char');

  it('reads cast(x as text) in any TimeZone: the rows and links of the to_char column', async () => {
    const charPool = open(false, { options: '-c DateStyle=SQL,DMY' });
    for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'America/New_York']) {
      const stock = open(false, { options: `-c TimeZone=${zone}` });
      for (const field of COLUMNS) {
        for (const direction of ['asc', 'desc'] as const) {
          sent = [];
          const expected = await walk(charPool, field, direction);
          expect(
            pageStatements().every((s) => /to_char|to_json|extract\(epoch/.test(s) && !castColumn(s)),
          ).toBe(true);
          sent = [];
          const actual = await walk(stock, field, direction);
          expect(actual, `${zone} ${field} ${direction}`).toEqual(expected);
          expect(actual.pages.flat()).toHaveLength(TIMESTAMPS.length);
          const statements = pageStatements();
          expect(statements.length).toBeGreaterThan(0);
          expect(statements.filter((s) => !castColumn(s))).toEqual([]);
        }
      }
    }
  });

  it('DateStyle changed after the probe: each page is read again with to_char, the same rows and links', async () => {
    const stock = open(false);
    const expected = await walk(stock, 'created', 'desc');
    await sql`set DateStyle = 'SQL, DMY'`.execute(stock);
    sent = [];
    expect(await walk(stock, 'created', 'desc')).toEqual(expected);
    const statements = pageStatements();
    // Every page twice: the column's text, then `to_char`.
    expect(statements.length).toBe(2 * expected.pages.length);
    statements.forEach((s, i) => {
      expect(i % 2 === 0 ? castColumn(s) : s.includes('to_char')).toBe(true);
    });
    await sql`reset DateStyle`.execute(stock);
  });

  it('an ordering without a unique term keeps to_char (its tie groups rank by the text column)', async () => {
    const stock = open(false);
    sent = [];
    const pagination = new CursorPagination({ pageSize: 2, ordering: ['-created'] });
    const rows = await pagination.paginateQueryset(
      fromKysely(stock.selectFrom(TABLE).selectAll(), { db: stock, uniqueKey: null }),
      new ApiRequest({ url: ORIGIN }),
    );
    expect(rows).toHaveLength(2);
    expect(pageStatements().length).toBeGreaterThan(0);
    expect(pageStatements().every((s) => s.includes('to_char') && !castColumn(s))).toBe(true);
  });
});

// The stock pool, columns selected by name (issue 37, the default path): the text takes the
// column's own place, `cast("t"."created" as text) as "created"`, so no column is added, and rows
// get back the `Date`s pg's parser makes of it (`parseDateText`, cheaper than pg's own parse).
// The probe compares pg's values with the parsed text once per database, per type: a parser the
// user set keeps that type's column as it is, with the text beside it.
describeDatabase(target, 'the text in place of a column selected by name', () => {
  const SELECTED = ['id', ...COLUMNS] as const;
  const inPlaceOf = (field: string) => `cast("${TABLE}"."${field}" as text) as "${field}"`;

  /** `walk`, over a query selecting the columns by name, with the rows themselves. */
  const walkSelected = (db: Db, field: string, direction: 'asc' | 'desc') =>
    walkRows(db, field, direction, ORIGIN, (d) => d.selectFrom(TABLE).select([...SELECTED]));

  /** Rows as a test can compare them: each value's type, a Date's instant (Invalid Date too). */
  const shown = (rows: ReadonlyArray<Record<string, unknown> | undefined>) =>
    rows.map((row) =>
      Object.entries(row ?? {}).map(([key, value]) =>
        value instanceof Date ? `${key} Date ${value.getTime()}` : `${key} ${typeof value} ${String(value)}`,
      ),
    );

  /** The rows the pool gives the same query without Pagewise, by id. */
  async function plainRows(db: Db): Promise<Map<unknown, Record<string, unknown>>> {
    const rows = await db
      .selectFrom(TABLE)
      .select([...SELECTED])
      .orderBy('id')
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  it('rows as pg parses them and the links of the column beside, in every process and session zone', async () => {
    try {
      for (const processZone of ['UTC', 'America/New_York']) {
        process.env.TZ = processZone;
        for (const zone of ['UTC', 'America/St_Johns', 'America/New_York']) {
          const stock = open(false, { options: `-c TimeZone=${zone}` });
          const plain = await plainRows(stock);
          for (const field of COLUMNS) {
            for (const direction of ['asc', 'desc'] as const) {
              const where = `process ${processZone}, session ${zone}, ${field} ${direction}`;
              // `selectAll()`: the text beside the columns.
              const expected = await walk(stock, field, direction);
              sent = [];
              const actual = await walkSelected(stock, field, direction);
              expect(actual.links, where).toEqual(expected.links);
              expect(
                actual.pages.map((page) => page.map((r) => Number(r.id))),
                where,
              ).toEqual(expected.pages);
              const rows = actual.pages.flat();
              expect(rows).toHaveLength(TIMESTAMPS.length);
              const wanted = rows.map((r) => plain.get(r.id));
              expect(shown(rows), where).toEqual(shown(wanted));
              expect(inspect(rows, { depth: 4 })).toBe(inspect(wanted, { depth: 4 }));
              // Each page selects the text in place, no column beside; a page holding a year
              // before 100 (`0001-01-01`, which the parser leaves to pg) is read again with the
              // column as it is and its `to_char`/`to_json` beside.
              const statements = pageStatements();
              const inPlace = statements.filter((s) => s.includes(inPlaceOf(field)));
              expect(inPlace, where).toHaveLength(actual.pages.length);
              expect(inPlace.every((s) => !s.includes('as "pagewise'))).toBe(true);
              const again = statements.filter((s) => !s.includes(inPlaceOf(field)));
              expect(again.length, where).toBeGreaterThan(0);
              expect(
                again.every((s) => /to_char|to_json|extract\(epoch/.test(s) && s.includes('as "pagewise')),
              ).toBe(true);
            }
          }
        }
      }
    } finally {
      restoreProcessZone();
    }
  });

  it("a parser the user set keeps its type's column as it is, and its values; other types go in place", async () => {
    const parsed = (text: string) => `parsed ${text}`;
    const db = open(false, {
      types: {
        getTypeParser: ((oid: number, format?: 'text') =>
          oid === 1184 ? parsed : pg.types.getTypeParser(oid, format)) as never,
      },
    });
    const stock = open(false);
    for (const field of ['created', 'ms', 'wall', 'day'] as const) {
      sent = [];
      const actual = await walkSelected(db, field, 'desc');
      const statements = pageStatements();
      const expected = await walk(stock, field, 'desc');
      expect(actual.links).toEqual(expected.links);
      expect(actual.pages.map((page) => page.map((r) => Number(r.id)))).toEqual(expected.pages);
      const rows = actual.pages.flat();
      // timestamptz columns hold the user's strings, whichever field orders.
      expect(
        rows.every((r) => String(r.created).startsWith('parsed ') && String(r.ms).startsWith('parsed ')),
      ).toBe(true);
      expect(rows.every((r) => r.wall instanceof Date || typeof r.wall === 'number')).toBe(true);
      const zoned = field === 'created' || field === 'ms';
      expect(statements.some((s) => s.includes(inPlaceOf(field)))).toBe(!zoned);
      if (zoned)
        expect(statements.every((s) => s.includes(`cast("${field}" as text) as "pagewise`))).toBe(true);
    }
  });

  it('DateStyle changed after the probe: each page is read again with the column as it is, the rows pg gives', async () => {
    const stock = open(false);
    const first = await walkSelected(stock, 'created', 'desc');
    await sql`set DateStyle = 'SQL, DMY'`.execute(stock);
    try {
      const plain = await plainRows(stock);
      sent = [];
      const again = await walkSelected(stock, 'created', 'desc');
      expect(again.links).toEqual(first.links);
      expect(again.pages.map((page) => page.map((r) => r.id))).toEqual(
        first.pages.map((page) => page.map((r) => r.id)),
      );
      const rows = again.pages.flat();
      expect(shown(rows)).toEqual(shown(rows.map((r) => plain.get(r.id))));
      // Every page twice: the text in place, then the column as it is with `to_char` beside.
      const statements = pageStatements();
      expect(statements).toHaveLength(2 * again.pages.length);
      statements.forEach((s, i) => {
        expect(i % 2 === 0 ? s.includes(inPlaceOf('created')) : s.includes('to_char')).toBe(true);
      });
    } finally {
      await sql`reset DateStyle`.execute(stock);
    }
  });

  it("a plugin of the db sees its rows' values: the text stays beside the column", async () => {
    const seen: unknown[] = [];
    const db = open(false).withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        for (const row of args.result.rows) if ('created' in row) seen.push(row.created);
        return args.result;
      },
    });
    sent = [];
    const actual = await walkSelected(db, 'created', 'desc');
    expect(actual.pages.flat()).toHaveLength(TIMESTAMPS.length);
    expect(seen.length).toBeGreaterThanOrEqual(TIMESTAMPS.length);
    expect(seen.every((value) => value instanceof Date || typeof value === 'number')).toBe(true);
    const statements = pageStatements();
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.some((s) => s.includes(inPlaceOf('created')))).toBe(false);
  });

  it('the probe runs once per database, and reads each type as its value and as its text', async () => {
    const stock = open(false);
    sent = [];
    await walkSelected(stock, 'created', 'asc');
    await walkSelected(stock, 'day', 'desc');
    const probes = sent.filter((s) => !s.includes(TABLE) && /as timestamptz\) as text\) as "x/.test(s));
    expect(probes).toHaveLength(1);
    for (const type of ['timestamptz', 'timestamp', 'date']) expect(probes[0]).toContain(`as ${type}) as "t`);
  });
});
