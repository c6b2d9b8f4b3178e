// Forged unsigned cursors against a table with one ordering column per SQL type, over real HTTP on
// every SQL backend: each cursor value is checked against its column's type and range before it
// becomes a parameter, so every answer is 200 or 404 `Invalid cursor`, never a 5xx. The same table
// is served through fromDrizzle beside fromKysely, and every answer (first pages and forged
// cursors alike: the same rows, the same cursor tokens in its links) is byte for byte Kysely's.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fromDrizzle } from '@pagewise/drizzle-adapter';
import { fromKysely } from '@pagewise/kysely-adapter';
import {
  type ApiRequest,
  ConfigurationError,
  CursorPagination,
  createNodeHandler,
  ListView,
  type OrderedQuery,
  OrderingFilter,
  Routes,
} from '@pagewise/rest';
import { int, customType as mysqlCustomType, mysqlTable } from 'drizzle-orm/mysql-core';
import { customType as pgCustomType, integer as pgInteger, pgTable } from 'drizzle-orm/pg-core';
import { integer, customType as sqliteCustomType, sqliteTable } from 'drizzle-orm/sqlite-core';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DatabaseName, describeDatabase, type TestDatabase, tableName } from '../support/databases.js';
import {
  type DrizzleTarget,
  type DrizzleTestDatabase,
  drizzleTargets,
} from '../support/drizzle-databases.js';

/** At least 5,000 forged cursors per database (issue 10); PGlite, in-process and slower, fewer. */
const FORGED = 5_000;
const FORGED_ON: Readonly<Partial<Record<DatabaseName, number>>> = { pglite: 2_000 };
const IN_FLIGHT = 16;
const ROWS = 30;

/** Which list of hostile values a column's slot draws from first. */
type Category =
  | 'int'
  | 'decimal'
  | 'float'
  | 'bool'
  | 'text'
  | 'uuid'
  | 'date'
  | 'stamp'
  | 'time'
  | 'enum'
  | 'interval';

interface Column {
  readonly name: string;
  readonly ddl: string;
  readonly category: Category;
  /** The value of row `i` (0-based), as the driver binds it. */
  readonly value: (i: number) => unknown;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const day = (i: number) => `20${pad(10 + (i % 15))}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`;
const clock = (i: number) => `${pad(i % 24)}:${pad((i * 7) % 60)}:${pad((i * 13) % 60)}`;
const micro = (i: number) => `${day(i)} ${clock(i)}.${pad((i * 104_729) % 1_000_000, 6)}`;
const uuid = (i: number) => `${pad(i, 8)}-0000-4000-8000-${pad(i * 31, 12)}`;
/** Spread over a type's range with both limits present. */
const spread = (min: bigint, max: bigint) => (i: number) =>
  i === 0 ? min : i === 1 ? max : min + ((BigInt(i) * 7_919_000_003n) % (max - min + 1n));
const asNumber = (f: (i: number) => bigint) => (i: number) => Number(f(i));
const asText = (f: (i: number) => bigint) => (i: number) => String(f(i));

function postgresColumns(): Column[] {
  return [
    { name: 'c_smallint', ddl: 'smallint', category: 'int', value: asNumber(spread(-32768n, 32767n)) },
    {
      name: 'c_integer',
      ddl: 'integer',
      category: 'int',
      value: asNumber(spread(-(2n ** 31n), 2n ** 31n - 1n)),
    },
    { name: 'c_bigint', ddl: 'bigint', category: 'int', value: asText(spread(-(2n ** 63n), 2n ** 63n - 1n)) },
    { name: 'c_numeric', ddl: 'numeric', category: 'decimal', value: (i) => `${i}.00000000000000000000${i}` },
    {
      name: 'c_numeric_scaled',
      ddl: 'numeric(6,2)',
      category: 'decimal',
      value: (i) => `${i * 37}.${pad(i)}`,
    },
    { name: 'c_real', ddl: 'real', category: 'float', value: (i) => i / 8 - 1 },
    { name: 'c_double', ddl: 'double precision', category: 'float', value: (i) => i / 3 - 5 },
    { name: 'c_boolean', ddl: 'boolean', category: 'bool', value: (i) => i % 2 === 0 },
    { name: 'c_text', ddl: 'text collate "C"', category: 'text', value: (i) => `t${pad(i)}é` },
    { name: 'c_varchar', ddl: 'varchar(8)', category: 'text', value: (i) => `v${pad(i)}` },
    { name: 'c_char', ddl: 'char(4)', category: 'text', value: (i) => `c${pad(i)}` },
    { name: 'c_uuid', ddl: 'uuid', category: 'uuid', value: uuid },
    { name: 'c_date', ddl: 'date', category: 'date', value: day },
    { name: 'c_time', ddl: 'time', category: 'time', value: clock },
    { name: 'c_timetz', ddl: 'time with time zone', category: 'time', value: (i) => `${clock(i)}+02` },
    { name: 'c_timestamp', ddl: 'timestamp', category: 'stamp', value: micro },
    { name: 'c_timestamptz', ddl: 'timestamptz', category: 'stamp', value: (i) => `${micro(i)}+00` },
    {
      name: 'c_timestamp3',
      ddl: 'timestamp(3)',
      category: 'date',
      value: (i) => `${day(i)} ${clock(i)}.${pad(i, 3)}`,
    },
    {
      name: 'c_timestamptz3',
      ddl: 'timestamptz(3)',
      category: 'date',
      value: (i) => `${day(i)} ${clock(i)}.${pad(i, 3)}+00`,
    },
    { name: 'c_interval', ddl: 'interval', category: 'interval', value: (i) => `${i} days ${i} hours` },
    { name: 'n_integer', ddl: 'integer null', category: 'int', value: (i) => (i % 3 === 0 ? null : i) },
    {
      name: 'n_timestamptz',
      ddl: 'timestamptz(3) null',
      category: 'date',
      value: (i) => (i % 4 === 0 ? null : `${day(i)} 00:00:00+00`),
    },
  ];
}

function mariadbColumns(collation: string): Column[] {
  return [
    { name: 'c_tinyint', ddl: 'tinyint', category: 'int', value: asNumber(spread(-128n, 127n)) },
    { name: 'c_smallint', ddl: 'smallint', category: 'int', value: asNumber(spread(-32768n, 32767n)) },
    {
      name: 'c_mediumint',
      ddl: 'mediumint',
      category: 'int',
      value: asNumber(spread(-(2n ** 23n), 2n ** 23n - 1n)),
    },
    { name: 'c_int', ddl: 'int', category: 'int', value: asNumber(spread(-(2n ** 31n), 2n ** 31n - 1n)) },
    { name: 'c_bigint', ddl: 'bigint', category: 'int', value: asText(spread(-(2n ** 63n), 2n ** 63n - 1n)) },
    {
      name: 'c_uint',
      ddl: 'int unsigned',
      category: 'int',
      value: (i) => (i === 1 ? 2 ** 32 - 1 : (i * 7919) % 2000),
    },
    {
      name: 'c_ubigint',
      ddl: 'bigint unsigned',
      category: 'int',
      value: (i) => (i === 1 ? String(2n ** 64n - 1n) : String((i * 7919) % 2000)),
    },
    {
      name: 'c_decimal',
      ddl: 'decimal(40,30)',
      category: 'decimal',
      value: (i) => `${i}.00000000000000000000${i}`,
    },
    { name: 'c_float', ddl: 'float', category: 'float', value: (i) => i / 8 - 1 },
    { name: 'c_double', ddl: 'double', category: 'float', value: (i) => i / 3 - 5 },
    { name: 'c_boolean', ddl: 'boolean', category: 'bool', value: (i) => i % 2 },
    {
      name: 'c_varchar',
      ddl: `varchar(16) character set utf8mb4 collate ${collation}`,
      category: 'text',
      value: (i) => `v${pad(i)}é`,
    },
    { name: 'c_text', ddl: 'text', category: 'text', value: (i) => `t${pad(i)}` },
    { name: 'c_char', ddl: 'char(4)', category: 'text', value: (i) => `c${pad(i)}` },
    { name: 'c_uuid', ddl: 'uuid', category: 'uuid', value: uuid },
    { name: 'c_date', ddl: 'date', category: 'date', value: day },
    { name: 'c_time', ddl: 'time', category: 'time', value: clock },
    { name: 'c_time6', ddl: 'time(6)', category: 'time', value: (i) => `${clock(i)}.${pad(i * 7, 6)}` },
    { name: 'c_datetime', ddl: 'datetime', category: 'date', value: (i) => `${day(i)} ${clock(i)}` },
    {
      name: 'c_datetime3',
      ddl: 'datetime(3)',
      category: 'date',
      value: (i) => `${day(i)} ${clock(i)}.${pad(i, 3)}`,
    },
    { name: 'c_datetime6', ddl: 'datetime(6)', category: 'stamp', value: micro },
    { name: 'c_timestamp', ddl: 'timestamp', category: 'date', value: (i) => `${day(i)} ${clock(i)}` },
    { name: 'c_year', ddl: 'year', category: 'int', value: (i) => 1901 + i * 8 },
    { name: 'c_enum', ddl: "enum('a','b','c')", category: 'enum', value: (i) => 'abc'[i % 3] },
    { name: 'n_int', ddl: 'int null', category: 'int', value: (i) => (i % 3 === 0 ? null : i) },
    {
      name: 'n_datetime',
      ddl: 'datetime(3) null',
      category: 'date',
      value: (i) => (i % 4 === 0 ? null : `${day(i)} 00:00:00`),
    },
  ];
}

function sqliteColumns(): Column[] {
  return [
    {
      name: 'c_integer',
      ddl: 'integer',
      category: 'int',
      value: asNumber(spread(-(2n ** 31n), 2n ** 31n - 1n)),
    },
    { name: 'c_bigint', ddl: 'bigint', category: 'int', value: spread(-(2n ** 63n), 2n ** 63n - 1n) },
    { name: 'c_real', ddl: 'real', category: 'float', value: (i) => i / 8 - 1 },
    { name: 'c_double', ddl: 'double', category: 'float', value: (i) => i / 3 - 5 },
    { name: 'c_numeric', ddl: 'numeric', category: 'decimal', value: (i) => i * 1.25 },
    { name: 'c_boolean', ddl: 'boolean', category: 'bool', value: (i) => i % 2 },
    { name: 'c_text', ddl: 'text', category: 'text', value: (i) => `t${pad(i)}é` },
    { name: 'c_varchar', ddl: 'varchar(8)', category: 'text', value: (i) => `v${pad(i)}` },
    { name: 'c_date', ddl: 'date', category: 'date', value: (i) => `${day(i)}T00:00:00.000Z` },
    {
      name: 'c_datetime',
      ddl: 'datetime',
      category: 'date',
      value: (i) => `${day(i)}T${clock(i)}.${pad(i, 3)}Z`,
    },
    { name: 'c_timestamp', ddl: 'timestamp', category: 'date', value: (i) => `${day(i)}T${clock(i)}.000Z` },
    { name: 'c_uuid', ddl: 'uuid', category: 'uuid', value: uuid },
    // No declared type: the column holds any value, and the driver cannot bind every cursor value.
    { name: 'c_any', ddl: '', category: 'text', value: (i) => (i % 2 ? `a${pad(i)}` : i) },
    { name: 'n_integer', ddl: 'integer null', category: 'int', value: (i) => (i % 3 === 0 ? null : i) },
    {
      name: 'n_datetime',
      ddl: 'datetime null',
      category: 'date',
      value: (i) => (i % 4 === 0 ? null : `${day(i)}T00:00:00.000Z`),
    },
  ];
}

async function createTypedTable(database: TestDatabase, table: string): Promise<Column[]> {
  const { db } = database;
  const q = (name: string) => (database.dialect === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const columns =
    database.dialect === 'postgres'
      ? postgresColumns()
      : database.dialect === 'mysql'
        ? mariadbColumns(database.binaryCollation)
        : sqliteColumns();
  await sql`drop table if exists ${sql.table(table)}`.execute(db);
  const defs = columns.map((c) => `${q(c.name)} ${c.ddl}${c.ddl.endsWith(' null') ? '' : ' not null'}`);
  await sql.raw(`create table ${q(table)} (${q('id')} integer primary key, ${defs.join(', ')})`).execute(db);
  const rows = Array.from({ length: ROWS }, (_, i) =>
    Object.fromEntries([['id', i + 1], ...columns.map((c) => [c.name, c.value(i)])]),
  );
  await db.insertInto(table).values(rows).execute();
  return columns;
}

// Encoded cursor values (the JSON inside the token): `s` strings, `b` bigints, `d` epoch ms,
// `n` odd numbers, plain JSON numbers, booleans and null.
const INT: readonly unknown[] = [
  0,
  1,
  -1,
  127,
  128,
  -129,
  255,
  256,
  32767,
  32768,
  -32768,
  -32769,
  65535,
  8388607,
  8388608,
  -8388609,
  2147483647,
  2147483648,
  -2147483648,
  -2147483649,
  4294967295,
  4294967296,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  'b9007199254740993',
  'b-9007199254740993',
  'b9223372036854775807',
  'b9223372036854775808',
  'b-9223372036854775808',
  'b-9223372036854775809',
  'b18446744073709551615',
  'b18446744073709551616',
  `b${'9'.repeat(60)}`,
  `b-${'9'.repeat(60)}`,
  'b0',
  'b-0',
  0.5,
  1.5,
  -0.5,
  1e21,
  1e308,
  -1e308,
  5e-324,
  'n-0',
  'nNaN',
  'nInfinity',
  'n-Infinity',
  1901,
  2155,
  2156,
  1900,
];
const DECIMAL: readonly unknown[] = [
  ...INT,
  's1.000000000000000000001',
  's-0',
  's1e400',
  's1e-400',
  'sNaN',
  'sInfinity',
  's12abc',
  's',
  's 1',
  `s${'9'.repeat(200)}`,
  `s0.${'0'.repeat(200)}1`,
];
const FLOAT: readonly unknown[] = [
  ...INT,
  3.4028235e38,
  3.5e38,
  -3.5e38,
  1e-46,
  1.17549435e-38,
  2.2250738585072014e-308,
];
const BOOL: readonly unknown[] = [true, false, 0, 1, 2, -1, 0.5, 'strue', 'st', 's', 'b1', 'b0', 'n-0', null];
const TEXT: readonly unknown[] = [
  's',
  'sabc',
  's\u0000',
  'sa\u0000b',
  `s${'x'.repeat(700)}`,
  `s${'é'.repeat(350)}`,
  's\ud800',
  's\udfff\ud800',
  's😀',
  "s' or 1=1 --",
  's\\',
  'sb123',
  'sd0',
  's%',
  's_',
  'd0',
  1,
  true,
  'b1',
];
const UUID: readonly unknown[] = [
  's00000000-0000-0000-0000-000000000000',
  'sffffffff-ffff-ffff-ffff-ffffffffffff',
  'sFFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  's00000005-0000-4000-8000-000000000155',
  's{00000000-0000-0000-0000-000000000000}',
  's00000000000000000000000000000000',
  's00000000-0000-0000-0000-00000000000',
  's00000000-0000-0000-0000-0000000000000',
  'szzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  's0000000-00000-0000-0000-000000000000',
  's',
  'snull',
  's\u0000',
  1,
];
const DATE: readonly unknown[] = [
  'd0',
  'd-1',
  'd1',
  'd1700000000000',
  'd1700000000123',
  'd8640000000000000',
  'd-8640000000000000',
  'd8640000000000001',
  'd-62135596800000',
  'd-62135596800001',
  'd-62167219200000',
  'd-62198755200001',
  'd-59011459200000',
  'd-210866803200000',
  'd-210866803200001',
  'd-210866803200000000',
  'd253402300799999',
  'd253402300800000',
  'd32503680000000',
  'd2147483647000',
  'd2147483648000',
  'd-2147483649000',
  'd9224318016000000',
  'd1.5',
  'd-0',
  'd01',
  'd',
  's2024-01-01',
  1700000000000,
  true,
];
const STAMP: readonly unknown[] = [
  ...DATE,
  's2024-01-01 00:00:00',
  's2024-01-01 00:00:00.123456',
  's2024-01-01 00:00:00.1234567',
  's2024-01-01T00:00:00Z',
  's2024-01-01 00:00:00+00',
  's2024-01-01 00:00:00+15:59',
  's2024-01-01 00:00:00+15:59:59',
  's2024-01-01 00:00:00+16',
  's2024-01-01 00:00:00-16:00',
  's2024-13-01 00:00:00',
  's2024-02-30 00:00:00',
  's2023-02-29 00:00:00',
  's2024-01-01 24:00:00',
  's2024-01-01 23:59:60',
  's0000-01-01 00:00:00',
  's0001-01-01 00:00:00',
  's9999-12-31 23:59:59.999999',
  's10000-01-01 00:00:00',
  's294277-01-01 00:00:00',
  'sinfinity',
  's-infinity',
  's0001-01-01 00:00:00 BC',
  's4714-11-24 00:00:00 BC',
  'sepoch',
  'snow',
  'sallballs',
  's',
];
const TIME: readonly unknown[] = [
  ...STAMP,
  's00:00:00',
  's12:00:00',
  's12:00:00.999999',
  's12:00:00.9999999',
  's23:59:59',
  's24:00:00',
  's24:00:01',
  's25:00:00',
  's-01:00:00',
  's838:59:59',
  's839:00:00',
  's-838:59:59',
  's-839:00:00',
  's12:00:00+02',
  's12:00:00+25',
  's12:60:00',
  's1 day',
];
const ENUM: readonly unknown[] = ['sa', 'sb', 'sc', 'sz', 's', 'sA', 's\u0000', 1, 0, 4, true];
const INTERVAL: readonly unknown[] = [
  's1 day',
  's-1 day',
  's00:00:01',
  's178000000 years',
  's-178000000 years',
  's999999999 years',
  'sP1Y2M',
  'sabc',
  's',
  ...INT.slice(0, 8),
];
const BY_CATEGORY: Readonly<Record<Category, readonly unknown[]>> = {
  int: INT,
  decimal: DECIMAL,
  float: FLOAT,
  bool: BOOL,
  text: TEXT,
  uuid: UUID,
  date: DATE,
  stamp: STAMP,
  time: TIME,
  enum: ENUM,
  interval: INTERVAL,
};
const ANY: readonly unknown[] = [...new Set(Object.values(BY_CATEGORY).flat()), null];

/** One ordering the server pages by, with the fingerprint and slots a real cursor of it carries. */
interface Harvested {
  readonly ordering: string;
  readonly k: string;
  /** The category of each position slot (the ordering's columns, then the `id` tiebreaker). */
  readonly slots: readonly Category[];
}

interface Forged {
  readonly ordering: string;
  readonly cursor: string;
}

function forgedArbitrary(harvested: readonly Harvested[]): fc.Arbitrary<Forged> {
  return fc.constantFrom(...harvested).chain((h) =>
    fc
      .record({
        p: fc.tuple(
          ...h.slots.map((category) =>
            fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom(...BY_CATEGORY[category]) },
              { weight: 1, arbitrary: fc.constantFrom(...ANY) },
            ),
          ),
        ),
        o: fc.constantFrom(0, 0, 0, 1, 3, 2 ** 31, 2 ** 53 - 1),
        r: fc.constantFrom(0, 0, 1),
      })
      .map(({ p, o, r }) => {
        const body: Record<string, unknown> = { k: h.k, p };
        if (o !== 0) body.o = o;
        if (r !== 0) body.r = r;
        return { ordering: h.ordering, cursor: Buffer.from(JSON.stringify(body)).toString('base64url') };
      }),
  );
}

interface ServerError {
  readonly ordering: string;
  readonly cursor: string;
  readonly message: string;
  /** A `ConfigurationError`: the adapter refused the ordering (a type it cannot page by cursor). */
  readonly configuration: boolean;
}

/**
 * The typed table through Drizzle: every column a custom one that hands rows the driver's values,
 * whatever the type (positions are read by the adapter from the database column, not a Drizzle mode).
 */
function drizzleQuery(database: DrizzleTestDatabase, table: string, columns: readonly Column[]) {
  const raw = { dataType: () => 'v' };
  const db = database.drizzle;
  const schema =
    database.dialect === 'postgres'
      ? pgTable(table, {
          id: pgInteger('id').primaryKey(),
          ...Object.fromEntries(columns.map((c) => [c.name, pgCustomType<{ data: unknown }>(raw)(c.name)])),
        })
      : database.dialect === 'mysql'
        ? mysqlTable(table, {
            id: int('id').primaryKey(),
            ...Object.fromEntries(
              columns.map((c) => [c.name, mysqlCustomType<{ data: unknown }>(raw)(c.name)]),
            ),
          })
        : sqliteTable(table, {
            id: integer('id').primaryKey(),
            ...Object.fromEntries(
              columns.map((c) => [c.name, sqliteCustomType<{ data: unknown }>(raw)(c.name)]),
            ),
          });
  return () =>
    fromDrizzle(db.select().from(schema) as never, { db }) as OrderedQuery<Record<string, unknown>>;
}

function serve(
  queryset: () => OrderedQuery<Record<string, unknown>>,
  columns: readonly Column[],
  errors: ServerError[],
) {
  class Feed extends CursorPagination {
    override pageSize = 3;
    override ordering = 'id';
  }
  const routes = new Routes().add(
    '/typed/',
    'typed',
    ListView.asView({
      queryset,
      paginationClass: Feed,
      versioningClass: null,
      filterBackends: [new OrderingFilter({ orderingFields: columns.map((c) => c.name) })],
      serializer: (row: Record<string, unknown>) => Number(row.id),
    }),
  );
  const onError = (error: unknown, request: ApiRequest | null) => {
    errors.push({
      ordering: request?.queryParams.get('ordering') ?? '',
      cursor: request?.queryParams.get('cursor') ?? '',
      message: String((error as Error)?.message ?? error).split('\n')[0]!,
      configuration: error instanceof ConfigurationError,
    });
  };
  const server = http.createServer(createNodeHandler({ routes, onError }));
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Orderings: every column both ways, and pairs of columns in mixed directions. */
function orderings(columns: readonly Column[]): string[] {
  const single = columns.flatMap((c) => [c.name, `-${c.name}`]);
  const pairs = columns.map((c, i) => {
    const other = columns[(i * 5 + 3) % columns.length]!;
    return other === c ? c.name : `${i % 2 ? '-' : ''}${c.name},${i % 3 ? '' : '-'}${other.name}`;
  });
  return [...single, ...pairs];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

/** A GET over node:http with a keep-alive agent: lighter than `fetch` for thousands of requests. */
function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Server errors grouped by message (values elided), most frequent first, with one cursor each. */
function summarize(errors: readonly ServerError[]): string {
  const groups = new Map<string, { count: number; sample: ServerError }>();
  for (const error of errors) {
    const key = error.message.replace(/"[^"]*"/g, '"…"').slice(0, 140);
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { count: 1, sample: error });
  }
  return [...groups.entries()]
    .sort(([, a], [, b]) => b.count - a.count)
    .map(([key, { count, sample }]) => {
      const body = Buffer.from(sample.cursor, 'base64url').toString();
      return `  ${count} x ${key}\n      e.g. ordering=${sample.ordering} cursor=${body.slice(0, 160)}`;
    })
    .join('\n');
}

function fuzzDatabase(target: DrizzleTarget): void {
  describeDatabase(target, 'forged cursors over typed columns (HTTP)', () => {
    let database: DrizzleTestDatabase;
    let server: http.Server;
    let port: number;
    /** The same table through fromDrizzle. */
    let drizzleServer: http.Server;
    let drizzlePort: number;
    let columns: Column[];
    const table = tableName(`pw_typed_fuzz_${target.name}`);
    const errors: ServerError[] = [];
    const drizzleErrors: ServerError[] = [];

    beforeAll(async () => {
      database = await target.open();
      columns = await createTypedTable(database, table);
      const { db } = database;
      server = await serve(() => fromKysely(db.selectFrom(table).selectAll(), { db }), columns, errors);
      port = (server.address() as AddressInfo).port;
      drizzleServer = await serve(drizzleQuery(database, table, columns), columns, drizzleErrors);
      drizzlePort = (drizzleServer.address() as AddressInfo).port;
    });

    afterAll(async () => {
      for (const open of [server, drizzleServer]) {
        if (!open) continue;
        open.closeAllConnections();
        await new Promise((resolve) => open.close(resolve));
      }
      if (database) {
        await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
        await database.close();
      }
    });

    const get = (ordering: string, cursor?: string, on = port) => {
      const search = new URLSearchParams({ ordering, page_size: '2' });
      if (cursor !== undefined) search.set('cursor', cursor);
      return rawGet(on, `/typed/?${search}`);
    };
    /** Answers of the Drizzle server that differ from Kysely's (links read with Kysely's port). */
    const differences: string[] = [];
    let compared = 0;
    const compare = async (
      answer: { status: number; body: string },
      ordering: string,
      cursor?: string,
    ): Promise<void> => {
      const { status, body } = await get(ordering, cursor, drizzlePort);
      compared += 1;
      const same = body.replaceAll(`127.0.0.1:${drizzlePort}`, `127.0.0.1:${port}`);
      if (status !== answer.status || same !== answer.body) {
        const forged = cursor === undefined ? '' : ` cursor=${Buffer.from(cursor, 'base64url').toString()}`;
        differences.push(
          `ordering=${ordering}${forged}: kysely ${answer.status} ${answer.body.slice(0, 160)} / drizzle ${status} ${same.slice(0, 160)}`,
        );
      }
    };

    test('every ordering serves its first page or is refused up front; forged cursors answer 200 or 404 Invalid cursor', async () => {
      const harvested: Harvested[] = [];
      const firstPages = new Map<number, number>();
      for (const ordering of orderings(columns)) {
        const { status, body } = await get(ordering);
        await compare({ status, body }, ordering);
        firstPages.set(status, (firstPages.get(status) ?? 0) + 1);
        if (status !== 200) continue;
        const next = (JSON.parse(body) as { next: string | null }).next;
        const cursor = next && new URL(next).searchParams.get('cursor');
        expect(cursor, `first page of ${ordering} has a next link`).toBeTruthy();
        const { k, p } = JSON.parse(Buffer.from(cursor!, 'base64url').toString()) as {
          k: string;
          p: unknown[];
        };
        const named = ordering.split(',').map((f) => columns.find((c) => c.name === f.replace(/^-/, ''))!);
        const slots = p.map((_, i): Category => named[i]?.category ?? 'int');
        harvested.push({ ordering, k, slots });
      }
      // Types the adapter cannot carry in a cursor are refused on the first page, never mid-walk.
      const refused = errors.splice(0).filter((e) => {
        const upFront = e.configuration && e.cursor === '' && /cannot page by "/.test(e.message);
        if (!upFront) errors.push(e);
        return upFront;
      });
      const refusedTypes = [
        ...new Set(refused.map((e) => /\btype (.+?) (?:cannot|has)\b/.exec(e.message)?.[1])),
      ];
      const started = performance.now();
      const forged = fc.sample(forgedArbitrary(harvested), {
        numRuns: FORGED_ON[target.name] ?? FORGED,
        seed: 20261123,
      });
      const statuses = new Map<number, number>();
      const wrong: string[] = [];
      for (let i = 0; i < forged.length; i += IN_FLIGHT) {
        const batch = forged.slice(i, i + IN_FLIGHT);
        const answers = await Promise.all(batch.map(({ ordering, cursor }) => get(ordering, cursor)));
        await Promise.all(batch.map(({ ordering, cursor }, j) => compare(answers[j]!, ordering, cursor)));
        answers.forEach(({ status, body }, j) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          const fine = status === 200 || (status === 404 && body === '{"detail":"Invalid cursor"}');
          if (!fine && status < 500)
            wrong.push(`${status} ${body.slice(0, 100)} for ${JSON.stringify(batch[j])}`);
        });
      }
      const counts = (m: Map<number, number>) =>
        [...m.entries()]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ');
      console.log(
        `[${target.name}] typed-column fuzz: first pages {${counts(firstPages)}} (refused up front: ${refusedTypes.join(', ') || 'none'}), ${forged.length} forged cursors {${counts(statuses)}} in ${Math.round(performance.now() - started)} ms`,
      );
      expect(wrong, 'answers other than 200 / 404 Invalid cursor / 5xx').toEqual([]);
      expect(errors.length, `server errors on ${target.name}:\n${summarize(errors)}`).toBe(0);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(statuses.get(404) ?? 0).toBeGreaterThan(0);
      // fromDrizzle: the same answer to every request, and the same types refused up front alone.
      expect(differences.slice(0, 10), `${differences.length} answers of fromDrizzle differ`).toEqual([]);
      expect(compared).toBe(orderings(columns).length + forged.length);
      const drizzleRefused = drizzleErrors.filter((e) => e.configuration && e.cursor === '');
      expect(drizzleRefused.map((e) => e.ordering)).toEqual(refused.map((e) => e.ordering));
      expect(drizzleErrors.length - drizzleRefused.length, summarize(drizzleErrors)).toBe(0);
    }, 240_000);
  });
}

for (const target of drizzleTargets()) fuzzDatabase(target);
