import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  CursorPagination,
  encodeCursor,
  type KeyTerm,
  NotFound,
  type OrderedQuery,
  type OrderTerm,
  type PositionValue,
} from '@pagewise/rest';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestDatabase, tableName } from '../support/databases.js';
import { postgresMajor } from '../support/postgres-server.js';

type Row = Record<string, unknown>;
type Dialect = 'memory' | 'postgres' | 'sqlite' | 'mysql';

/** One column type on one backend: its DDL and its values (SQL literals, or JS values for memory). */
interface Flavour {
  readonly ddl?: string;
  /** Statements to run before the table is created (`$t` is the table name). */
  readonly setup?: readonly string[];
  readonly values: readonly unknown[];
  /** Forged cursor values the backend must answer with 404 Invalid cursor (wrong type or range). */
  readonly invalid?: readonly PositionValue[];
  /** Values a Postgres server holds from a major on (numeric `Infinity` from 14), by that major. */
  readonly since?: Readonly<Record<number, readonly unknown[]>>;
}

/** An orderable type and how each backend holds it; a string is the reason the backend skips it. */
interface MatrixType {
  readonly name: string;
  readonly postgres: Flavour | string;
  readonly mysql: Flavour | string;
  readonly sqlite: Flavour | string;
  readonly memory: Flavour | string;
}

const LONG = `'${'x'.repeat(299)}y'`;
/** Strings that look like the cursor codec's tags, non-ASCII, long, empty. */
const TEXTS = [
  "'s1'",
  "'b2'",
  "'d3'",
  "'n-0'",
  "'nNaN'",
  "'s'",
  LONG,
  `'${'x'.repeat(299)}z'`,
  "'é'",
  "'日本語'",
  "'😀'",
  "''",
  "'a'",
  "'A'",
  "'a '",
  "' a'",
  "'\t'",
  "'\n'",
  "'\u007f'",
  "'\uffff'",
  "'\u{10ffff}'",
];
const UUIDS = [
  "'00000000-0000-0000-0000-000000000000'",
  "'ffffffff-ffff-ffff-ffff-ffffffffffff'",
  "'123e4567-e89b-12d3-a456-426614174000'",
  "'123e4567-e89b-12d3-a456-426614174001'",
  "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'",
];
const unquote = (literal: string): string => literal.slice(1, -1);
const utc = (year: number, month = 0, day = 1, ms = 0): Date => {
  const date = new Date(Date.UTC(2000, month, day, 0, 0, 0, ms));
  date.setUTCFullYear(year);
  return date;
};

/** The 64-bit limits and the integers around 2^53, where a double rounds. */
const BIGINTS = [
  '-9223372036854775808',
  '9223372036854775807',
  '9007199254740992',
  '9007199254740993',
  '9007199254740994',
  '-9007199254740993',
  0,
];
const NO_ENUM = 'no enum type';
const NO_MYSQL_INTEGER = 'no such integer width (see smallint, integer, bigint)';
const SQLITE_INTEGERS = 'every INTEGER is 64-bit (see integer)';
/** MySQL/MariaDB integer types besides smallint, int and bigint, with their ranges. */
const MYSQL_INTEGERS: ReadonlyArray<readonly [string, number, number]> = [
  ['tinyint', -128, 127],
  ['tinyint unsigned', 0, 255],
  ['smallint unsigned', 0, 65535],
  ['mediumint', -8388608, 8388607],
  ['mediumint unsigned', 0, 16777215],
  ['int unsigned', 0, 4294967295],
];
/** The largest `numeric(1000,500)`: 500 nines either side of the point. */
const NUMERIC_MAX = `${'9'.repeat(500)}.${'9'.repeat(500)}`;
/** The largest `decimal(65,30)`. */
const DECIMAL65_MAX = `${'9'.repeat(35)}.${'9'.repeat(30)}`;
const NO_DECIMAL = 'JS has no exact decimal type (numbers round past 2^53)';

/** The orderable types and their values; NULLs and duplicates are added to every one. */
export const MATRIX_TYPES: readonly MatrixType[] = [
  {
    name: 'smallint',
    postgres: {
      ddl: 'smallint',
      values: [-32768, 32767, 0, 1, -1, 100],
      invalid: [32768, -32769, 0.5, 'x', true, new Date(0)],
    },
    mysql: { ddl: 'smallint', values: [-32768, 32767, 0, 1, -1, 100], invalid: [32768, -32769, 0.5, 'x'] },
    // SQLite compares a REAL bound (0.5) with integers by value: no forgery there.
    sqlite: {
      ddl: 'smallint',
      values: [-32768, 32767, 0, 1, -1, 100],
      invalid: [2n ** 63n, Number.NaN, 'x'],
    },
    memory: { values: [-32768, 32767, 0, 1, -1, 100], invalid: ['x', true] },
  },
  {
    name: 'integer',
    postgres: {
      ddl: 'integer',
      values: [-2147483648, 2147483647, 0, 5, -5, 6],
      invalid: [2147483648, -2147483649, 0.5, 'x', 2n ** 40n],
    },
    mysql: {
      ddl: 'int',
      values: [-2147483648, 2147483647, 0, 5, -5, 6],
      invalid: [2147483648, -2147483649, 0.5, 'x'],
    },
    sqlite: {
      ddl: 'integer',
      values: [
        '-9223372036854775808',
        '9223372036854775807',
        '9007199254740993',
        '9007199254740992',
        '9007199254740994',
        0,
        5,
        // Past 64 bits SQLite keeps the value as a REAL, in the INTEGER column.
        '9223372036854775808',
        '-9223372036854775809',
        '1e300',
        '1.5',
      ],
      invalid: [2n ** 63n, -(2n ** 63n) - 1n, Number.NaN, 'x'],
    },
    memory: { values: [-2147483648, 2147483647, 0, 5, -5, 6], invalid: ['x', new Date(0)] },
  },
  {
    name: 'bigint',
    postgres: {
      ddl: 'bigint',
      values: BIGINTS,
      invalid: [2n ** 63n, -(2n ** 63n) - 1n, 0.5, 'x'],
    },
    mysql: {
      ddl: 'bigint',
      values: BIGINTS,
      invalid: [2n ** 63n, -(2n ** 63n) - 1n, 0.5],
    },
    sqlite: {
      ddl: 'bigint',
      values: [...BIGINTS, '9223372036854775808', '-1e19'],
      invalid: [2n ** 63n, Number.NaN, 'x'],
    },
    memory: {
      values: [
        -(2n ** 63n),
        2n ** 63n - 1n,
        2n ** 53n,
        2n ** 53n + 1n,
        2n ** 53n + 2n,
        -(2n ** 53n) - 1n,
        0n,
      ],
      invalid: ['x'],
    },
  },
  {
    name: 'bigint unsigned',
    postgres: 'no unsigned integers',
    mysql: {
      ddl: 'bigint unsigned',
      values: ['18446744073709551615', '18446744073709551614', '9223372036854775808', '9007199254740993', 0],
      invalid: [-1, 2n ** 64n, 0.5],
    },
    sqlite: 'no unsigned integers',
    memory: 'no unsigned integers',
  },
  ...MYSQL_INTEGERS.map(
    ([name, min, max]): MatrixType => ({
      name,
      postgres: NO_MYSQL_INTEGER,
      mysql: { ddl: name, values: [min, max, 0, 1, min + 1, max - 1], invalid: [min - 1, max + 1, 0.5] },
      sqlite: SQLITE_INTEGERS,
      memory: NO_MYSQL_INTEGER,
    }),
  ),
  {
    name: 'year',
    postgres: NO_MYSQL_INTEGER,
    mysql: { ddl: 'year', values: [1901, 2155, 0, 2024], invalid: [2156, -1, 0.5] },
    sqlite: SQLITE_INTEGERS,
    memory: NO_MYSQL_INTEGER,
  },
  {
    name: 'numeric/decimal',
    postgres: {
      ddl: 'numeric',
      values: [
        "'1.00000000000000000001'",
        "'1.00000000000000000002'",
        "'1.00000000000000000003'",
        "'9007199254740993'",
        "'9007199254740993.5'",
        "'-9007199254740993'",
        "'0.10'",
        "'0'",
        "'12345678901234567890.12345678901234567890'",
        "'NaN'",
        `'${'9'.repeat(1200)}'`,
        `'-${'9'.repeat(1200)}'`,
        `'0.${'0'.repeat(1200)}1'`,
      ],
      invalid: ['abc', '1e5', '1.5.5', 1.5, true, ' 1'],
      since: { 14: ["'Infinity'", "'-Infinity'"] },
    },
    mysql: {
      ddl: 'decimal(40,30)',
      values: [
        "'1.000000000000000000000000000001'",
        "'1.000000000000000000000000000002'",
        "'1.000000000000000000000000000003'",
        "'9999999999.999999999999999999999999999999'",
        "'-9999999999.999999999999999999999999999999'",
        "'9007199.254740993'",
        "'0.1'",
        "'0'",
      ],
      invalid: ['abc', '12345678901.5', '0.0000000000000000000000000000001', 'NaN', 1.5],
    },
    sqlite: {
      // NUMERIC affinity keeps integers as 64-bit INTEGERs and the rest as REALs.
      ddl: 'decimal(40,30)',
      values: [
        '9007199254740993',
        '9007199254740992',
        '9007199254740992.5',
        '1.5',
        '0.1',
        "'1.00000000000000000001'",
        '-9223372036854775808',
      ],
      invalid: ['x', true],
    },
    memory: NO_DECIMAL,
  },
  {
    name: 'decimal(p,s) max',
    postgres: {
      ddl: 'numeric(1000,500)',
      values: [`'${NUMERIC_MAX}'`, `'-${NUMERIC_MAX}'`, `'0.${'0'.repeat(499)}1'`, "'0'", "'1'", "'NaN'"],
      // A numeric(p,s) holds NaN, but no infinity.
      invalid: [`1${NUMERIC_MAX}`, `0.${'0'.repeat(500)}1`, 'Infinity', '-Infinity'],
    },
    mysql: {
      ddl: 'decimal(65,30)',
      values: [`'${DECIMAL65_MAX}'`, `'-${DECIMAL65_MAX}'`, `'0.${'0'.repeat(29)}1'`, "'0'", "'1'"],
      invalid: [`1${DECIMAL65_MAX}`, `0.${'0'.repeat(30)}1`, 'NaN'],
    },
    sqlite: 'no fixed-point type (NUMERIC affinity; see numeric/decimal)',
    memory: NO_DECIMAL,
  },
  {
    name: 'real',
    postgres: {
      ddl: 'real',
      values: [
        1.1,
        -1.5,
        0,
        "'3.4e38'",
        "'NaN'",
        "'Infinity'",
        "'-Infinity'",
        "'1e-45'",
        "'-0'",
        "'3.4028235e38'",
        "'-3.4028235e38'",
        "'3.4028233e38'",
        "'1.1754944e-38'",
        "'-1e-45'",
      ],
      invalid: [1e39, -1e39, 'x'],
    },
    mysql: {
      ddl: 'float',
      values: [
        1.1,
        -1.5,
        0,
        '3.4e38',
        '1e-38',
        0.3,
        '-0e0',
        // The largest float and the one below it: both print as 3.40282e38.
        '3.4028234663852886e38',
        '3.4028232635611926e38',
        '-3.4028234663852886e38',
        '1.1754943508222875e-38',
        '1.401298464324817e-45',
        '1.0000001',
        '1.0000002',
      ],
      invalid: [1e39, Number.POSITIVE_INFINITY, Number.NaN, 'x'],
    },
    sqlite: {
      ddl: 'real',
      values: [
        1.1,
        -1.5,
        0,
        '9e999',
        '-9e999',
        '1e308',
        '5e-324',
        '-0.0',
        '-5e-324',
        '1.7976931348623157e308',
      ],
      invalid: [Number.NaN, 'x'],
    },
    memory: {
      values: [
        1.1,
        -1.5,
        0,
        -0,
        3.4e38,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        1e-45,
        -1e-45,
      ],
      invalid: ['x'],
    },
  },
  {
    name: 'double',
    postgres: {
      ddl: 'double precision',
      values: [
        0.1,
        '0.30000000000000004',
        0.3,
        "'NaN'",
        "'Infinity'",
        "'-Infinity'",
        '1e308',
        '-1e308',
        '5e-324',
        "'-0'",
        "'1.7976931348623157e308'",
        "'-1.7976931348623157e308'",
        "'-5e-324'",
        "'2.2250738585072014e-308'",
      ],
      invalid: ['x', true],
    },
    mysql: {
      ddl: 'double',
      values: [
        0.1,
        '0.30000000000000004',
        0.3,
        '1e308',
        '-1e308',
        '5e-324',
        '-0e0',
        '1.7976931348623157e308',
        '-1.7976931348623157e308',
        '-5e-324',
        '2.2250738585072014e-308',
      ],
      invalid: [Number.POSITIVE_INFINITY, Number.NaN],
    },
    sqlite: {
      ddl: 'double precision',
      values: [
        0.1,
        '0.30000000000000004',
        0.3,
        '9e999',
        '-9e999',
        '1e308',
        '5e-324',
        '-0.0',
        '-1.7976931348623157e308',
        '2.2250738585072014e-308',
      ],
      invalid: [Number.NaN, 'x'],
    },
    memory: {
      values: [
        0.1,
        0.30000000000000004,
        0.3,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        1e308,
        5e-324,
      ],
      invalid: ['x'],
    },
  },
  {
    name: 'boolean',
    postgres: { ddl: 'boolean', values: ['true', 'false'], invalid: [1, 'true'] },
    mysql: { ddl: 'boolean', values: ['true', 'false', -128, 127, 2], invalid: ['true', 1.5, 300, -129] },
    sqlite: { ddl: 'boolean', values: [1, 0], invalid: [1, 'true'] },
    memory: { values: [true, false], invalid: [1, 'true'] },
  },
  {
    name: 'text',
    postgres: { ddl: 'text collate "C"', values: TEXTS, invalid: ['a\u0000b', 5] },
    mysql: {
      ddl: 'varchar(400) character set utf8mb4 collate utf8mb4_nopad_bin',
      values: TEXTS,
      invalid: [5, true],
    },
    sqlite: { ddl: 'text', values: TEXTS, invalid: [5, true] },
    memory: { values: TEXTS.map(unquote), invalid: [5, true] },
  },
  {
    name: 'varchar',
    postgres: { ddl: 'varchar(400) collate "C"', values: TEXTS, invalid: ['a\u0000b', 5] },
    mysql: {
      ddl: 'varchar(400) character set utf8mb4 collate utf8mb4_nopad_bin',
      values: TEXTS,
      invalid: [5],
    },
    sqlite: { ddl: 'varchar(400)', values: TEXTS, invalid: [5] },
    memory: { values: TEXTS.map(unquote), invalid: [5] },
  },
  {
    name: 'uuid',
    postgres: {
      ddl: 'uuid',
      values: UUIDS,
      invalid: ['not-a-uuid', 5, '123e4567-e89b-12d3-a456-42661417400'],
    },
    mysql: { ddl: 'uuid', values: UUIDS, invalid: ['not-a-uuid', 5] },
    sqlite: { ddl: 'uuid', values: UUIDS },
    memory: { values: UUIDS.map(unquote), invalid: [5] },
  },
  {
    name: 'date',
    postgres: {
      ddl: 'date',
      values: [
        "'0001-01-01'",
        "'0099-12-31'",
        "'2024-02-29'",
        "'9999-12-31'",
        "'10000-01-01'",
        "'0044-03-15 BC'",
        // The type's range: Julian day 0 to 5874897 AD, past timestamptz's 294276 AD either way.
        "'4714-11-24 BC'",
        "'4713-01-01 BC'",
        "'294277-01-01'",
        "'5874897-12-31'",
        "'infinity'",
        "'-infinity'",
      ],
      invalid: [
        new Date(8.64e15),
        'yesterday',
        '4714-01-01 BC',
        '4714-11-23 BC',
        '5874898-01-01 AD',
        '2024-02-30 AD',
        '2024-01-01 12:00:00 AD',
        5,
      ],
    },
    mysql: {
      ddl: 'date',
      values: [
        "'0001-01-01'",
        "'0099-12-31'",
        "'2024-02-29'",
        "'9999-12-31'",
        "'1000-01-01'",
        // MariaDB's default sql_mode stores the zero date, zero parts and year 0.
        "'0000-00-00'",
        "'0000-01-01'",
        "'2024-00-00'",
        "'2024-05-00'",
      ],
      invalid: [utc(-5), utc(10000), 'x', 5, '10000-01-01', '2024-13-01'],
    },
    sqlite: {
      ddl: 'date',
      values: [
        "'0001-01-01'",
        "'0099-12-31'",
        "'2024-02-29'",
        "'9999-12-31'",
        "'2024-02-29T00:00:00.000Z'",
        // JS dates end at ±8.64e15 ms; SQLite's text goes on.
        "'+275760-09-13T00:00:00.000Z'",
        "'+275760-09-13T00:00:00.001Z'",
        "'-271821-04-20T00:00:00.000Z'",
        "'-271821-04-19T23:59:59.999Z'",
        "'5874897-12-31'",
      ],
      invalid: ['x', 5, true],
    },
    memory: {
      values: [utc(1), utc(99, 11, 31), utc(2024, 1, 29), utc(9999, 11, 31), utc(10000), utc(-43, 2, 15)],
      invalid: ['x', 5],
    },
  },
  {
    name: 'time',
    postgres: {
      ddl: 'time',
      values: ["'00:00:00'", "'23:59:59.999999'", "'24:00:00'", "'12:00:00.000001'", "'12:00:00.000002'"],
      invalid: ['25:00:00', '24:00:01', '-838:59:59', 'noon', 5],
    },
    mysql: {
      ddl: 'time(6)',
      values: ["'-838:59:59'", "'838:59:59'", "'00:00:00.000001'", "'12:00:00.000002'", "'12:00:00'"],
      invalid: ['839:00:00', 'x', '12:60:00', 5],
    },
    sqlite: {
      ddl: 'time',
      values: ["'00:00:00'", "'23:59:59.999999'", "'12:00:00.000001'", "'12:00:00.000002'"],
      invalid: [5],
    },
    memory: { values: ['00:00:00', '23:59:59.999999', '12:00:00.000001', '12:00:00.000002'], invalid: [5] },
  },
  {
    name: 'timestamp',
    postgres: {
      ddl: 'timestamp',
      values: [
        "'2024-01-01 00:00:00.000001'",
        "'2024-01-01 00:00:00.000002'",
        "'2024-01-01 00:00:00.0000015'",
        "'0001-01-01 00:00:00'",
        "'0099-06-01 12:00:00.5'",
        "'9999-12-31 23:59:59.999999'",
        "'10000-01-01 00:00:00'",
        "'0044-03-15 12:00:00.000001 BC'",
        "'4714-11-24 00:00:00 BC'",
        "'294276-12-31 23:59:59.999999'",
        "'infinity'",
        "'-infinity'",
      ],
      invalid: [
        '2024-02-30 00:00:00',
        '294277-01-01 00:00:00',
        '4714-11-23 23:59:59.999999 BC',
        'yesterday',
        'Infinity',
        new Date(0),
      ],
    },
    mysql: {
      ddl: 'datetime(6)',
      values: [
        "'2024-01-01 00:00:00.000001'",
        "'2024-01-01 00:00:00.000002'",
        "'0001-01-01 00:00:00'",
        "'0099-06-01 12:00:00.5'",
        "'9999-12-31 23:59:59.999999'",
        "'1000-01-01 00:00:00'",
        "'0000-00-00 00:00:00'",
        "'0000-01-01 00:00:00'",
        "'2024-05-00 12:00:00'",
      ],
      invalid: ['x', '2024-02-30 00:00:00', new Date(0), '10000-01-01 00:00:00', '2024-01-01 00:00:00 BC'],
    },
    sqlite: {
      ddl: 'datetime',
      values: [
        "'2024-01-01T00:00:00.000001Z'",
        "'2024-01-01T00:00:00.000002Z'",
        "'2024-01-01T00:00:00.000Z'",
        "'0001-01-01T00:00:00.000Z'",
        "'0099-06-01T12:00:00.500Z'",
        "'9999-12-31T23:59:59.999Z'",
        "'+010000-01-01T00:00:00.000Z'",
        "'-000043-03-15T00:00:00.000Z'",
        "'2024-01-01 00:00:00'",
        "'+275760-09-13T00:00:00.001Z'",
        "'294276-12-31 23:59:59.999999'",
      ],
      invalid: ['x', 5],
    },
    memory: {
      values: [
        utc(2024, 0, 1, 1),
        utc(1),
        utc(99, 5, 1, 500),
        utc(9999, 11, 31, 999),
        utc(10000),
        utc(-43, 2, 15),
      ],
      invalid: ['x', 5],
    },
  },
  {
    name: 'timestamptz',
    postgres: {
      ddl: 'timestamptz',
      values: [
        "'2024-01-01 00:00:00.000001+00'",
        "'2024-01-01 00:00:00.000002+00'",
        "'2024-11-03 01:30:00-04'",
        "'2024-11-03 01:30:00-05'",
        "'0001-01-01 00:00:00+00'",
        "'0099-06-01 12:00:00.5+00'",
        "'9999-12-31 23:59:59.999999+00'",
        "'10000-01-01 00:00:00+00'",
        "'0044-03-15 12:00:00.000001+00 BC'",
        "'4714-11-24 00:00:00+00 BC'",
        "'294276-12-31 23:59:59.999999+00'",
        "'infinity'",
        "'-infinity'",
      ],
      invalid: [
        '2024-01-01 00:00:00+16',
        'x',
        '2024-01-01 00:00:00+00; drop',
        // In range as written, out of it in UTC.
        '294276-12-31 23:00:00-05',
        '4714-11-24 00:00:00+01 BC',
      ],
    },
    mysql: {
      ddl: 'timestamp(6) null',
      values: [
        "'1970-01-01 00:00:01.000001'",
        "'2038-01-19 03:14:07.999999'",
        "'2024-01-01 00:00:00.000001'",
        "'2024-01-01 00:00:00.000002'",
        "'0000-00-00 00:00:00'",
      ],
      invalid: ['x', '2024-13-01 00:00:00', '10000-01-01 00:00:00'],
    },
    sqlite: 'no time zone type (timestamps are text; see timestamp)',
    memory: 'no time zone type (dates are instants; see timestamp)',
  },
  {
    name: 'timestamptz(3)',
    postgres: {
      ddl: 'timestamptz(3)',
      values: [
        "'2024-01-01 00:00:00.001+00'",
        "'2024-01-01 00:00:00.002+00'",
        "'0001-01-01 00:00:00+00'",
        "'0099-06-01 12:00:00.5+00'",
        "'9999-12-31 23:59:59.999+00'",
        "'10000-01-01 00:00:00+00'",
        "'0044-03-15 12:00:00+00 BC'",
        "'4714-11-24 00:00:00+00 BC'",
        // Past the last JS date (275760-09-13) and up to the type's end.
        "'275760-09-13 00:00:00.001+00'",
        "'294276-12-31 23:59:59.999+00'",
        "'infinity'",
        "'-infinity'",
      ],
      invalid: [
        new Date(-8.64e15),
        'x',
        Number.NaN,
        5,
        new Date(-210_866_803_200_001),
        '294276-12-31 23:00:00.000000-05 AD',
      ],
    },
    mysql: {
      ddl: 'datetime(3)',
      values: [
        "'2024-01-01 00:00:00.001'",
        "'2024-01-01 00:00:00.002'",
        "'0001-01-01 00:00:00'",
        "'0099-06-01 12:00:00.5'",
        "'9999-12-31 23:59:59.999'",
        "'1000-01-01 00:00:00'",
        "'0000-00-00 00:00:00'",
        "'2024-05-00 12:00:00'",
      ],
      invalid: [utc(10000), 'x', Number.POSITIVE_INFINITY],
    },
    sqlite: 'no millisecond type (timestamps are text; see timestamp)',
    memory: 'no millisecond type (dates are milliseconds; see timestamp)',
  },
  {
    name: 'timestamp(3)',
    postgres: {
      ddl: 'timestamp(3)',
      values: [
        "'2024-01-01 00:00:00.001'",
        "'2024-01-01 00:00:00.002'",
        "'4714-11-24 00:00:00 BC'",
        "'275760-09-13 00:00:00.001'",
        "'294276-12-31 23:59:59.999'",
        "'infinity'",
        "'-infinity'",
      ],
      invalid: ['x', 5, new Date(-210_866_803_200_001), '294277-01-01 00:00:00.000000 AD'],
    },
    mysql: {
      ddl: 'timestamp(3) null',
      values: [
        "'1970-01-01 00:00:01'",
        "'2038-01-19 03:14:07.999'",
        "'2024-01-01 00:00:00.001'",
        "'2024-01-01 00:00:00.002'",
        "'0000-00-00 00:00:00'",
      ],
      invalid: [utc(10000), 'x', '10000-01-01 00:00:00.000', '2024-01-01 00:00:00.000+00'],
    },
    sqlite: 'no millisecond type (timestamps are text; see timestamp)',
    memory: 'no millisecond type (dates are milliseconds; see timestamp)',
  },
  {
    name: 'enum',
    postgres: {
      setup: ['drop type if exists $t_enum cascade', "create type $t_enum as enum ('b', 'a', 'c', 's1')"],
      ddl: '$t_enum',
      values: ["'a'", "'b'", "'c'", "'s1'"],
      invalid: ['zzz', 5, ''],
    },
    mysql: {
      ddl: "enum('b', 'a', 'c', 's1')",
      values: ["'a'", "'b'", "'c'", "'s1'"],
      invalid: ['a', 0.5, 70000],
    },
    sqlite: NO_ENUM,
    memory: NO_ENUM,
  },
];

const DIRECTIONS: ReadonlyArray<OrderTerm> = [
  { field: 'v', direction: 'asc', nulls: 'last' },
  { field: 'v', direction: 'asc', nulls: 'first' },
  { field: 'v', direction: 'desc', nulls: 'first' },
  { field: 'v', direction: 'desc', nulls: 'last' },
];
const ORIGIN = 'http://testserver/';
const PAGE_SIZE = 3;
/** Page sizes walked: at 1 every row's position is a cursor's bound, both ways. */
const PAGE_SIZES = [PAGE_SIZE, 1];

/** A backend of the matrix: where a type's table lives and how the database itself orders it. */
export interface MatrixBackend {
  readonly name: string;
  readonly dialect: Dialect;
  /** Loads `values` (plus NULLs and duplicates) and answers the query and the database's own order. */
  load(type: MatrixType, flavour: Flavour): Promise<Loaded>;
  close(): Promise<void>;
}

interface Loaded {
  readonly query: OrderedQuery<Row>;
  readonly rows: number;
  /** Ids in the database's own `ORDER BY v <term>, id <same direction>`. */
  order(term: OrderTerm): Promise<number[]>;
}

/** Values in row order: each value, the first two again (ties), then three NULLs. */
function rowValues(values: readonly unknown[]): unknown[] {
  return [...values, ...values.slice(0, 2), null, null, null];
}

export function memoryMatrixBackend(): MatrixBackend {
  return {
    name: 'memory',
    dialect: 'memory',
    load: async (_type, flavour) => {
      const rows = rowValues(flavour.values).map((v, i) => ({ id: i + 1, v }));
      const query = fromArray(rows, { uniqueKey: 'id' });
      return {
        query,
        rows: rows.length,
        order: async (term) => {
          const ordered = query.orderBy([term, { field: 'id', direction: term.direction }]);
          const all = await ordered.fetch({ order: null, after: null, offset: 0, limit: null });
          return all.map((r) => Number((r.row as Row).id));
        },
      };
    },
    close: async () => {},
  };
}

/**
 * The matrix on a database; `paged` makes the query of a loaded table (the Kysely adapter's by
 * default; the Drizzle suites pass `fromDrizzle` of the same table), `name` the backend's name.
 */
export function sqlMatrixBackend(
  database: TestDatabase,
  paged: (table: string) => OrderedQuery<Row> = (table) =>
    fromKysely(database.db.selectFrom(table).selectAll(), { db: database.db }),
  name: string = database.name,
): MatrixBackend {
  const { db, dialect } = database;
  const q = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const tables: string[] = [];
  const cleanup: string[] = [];
  let major: Promise<number> | undefined;
  /** The Postgres major of the server (`since` values it holds); 0 for the other dialects. */
  const serverMajor = () => {
    major ??=
      dialect === 'postgres'
        ? sql<{ v: string }>`select current_setting('server_version_num') as v`
            .execute(db)
            .then(({ rows }) => Math.floor(Number(rows[0]!.v) / 10_000))
        : Promise.resolve(0);
    return major;
  };
  return {
    name,
    dialect,
    load: async (type, given) => {
      const held = await serverMajor();
      const since = Object.entries(given.since ?? {}).flatMap(([from, values]) =>
        held >= Number(from) ? values : [],
      );
      const flavour = { ...given, values: [...given.values, ...since] };
      const table = tableName(`pw_tm_${name.replaceAll('-', '_')}_${type.name.replace(/\W+/g, '_')}`);
      const expand = (text: string) => text.replaceAll('$t', table);
      await sql.raw(`drop table if exists ${q(table)}`).execute(db);
      for (const statement of flavour.setup ?? []) await sql.raw(expand(statement)).execute(db);
      if (flavour.setup) cleanup.push(expand('drop type if exists $t_enum cascade'));
      await sql
        .raw(`create table ${q(table)} (id integer primary key, v ${expand(flavour.ddl ?? '')})`)
        .execute(db);
      tables.push(table);
      const values = rowValues(flavour.values).map(
        (v, i) => `(${i + 1}, ${v === null ? 'null' : String(v)})`,
      );
      await sql.raw(`insert into ${q(table)} (id, v) values ${values.join(', ')}`).execute(db);
      return {
        query: paged(table),
        rows: values.length,
        order: async (term) => {
          const dir = term.direction;
          const nulls =
            dialect === 'mysql'
              ? `v is null ${term.nulls === 'first' ? 'desc' : 'asc'}, v ${dir}`
              : `v ${dir} nulls ${term.nulls}`;
          const { rows } = await sql
            .raw<{ id: unknown }>(`select id from ${q(table)} order by ${nulls}, id ${dir}`)
            .execute(db);
          return rows.map((r) => Number(r.id));
        },
      };
    },
    close: async () => {
      for (const table of tables) await sql.raw(`drop table if exists ${q(table)}`).execute(db);
      for (const statement of cleanup) await sql.raw(statement).execute(db);
      await database.close();
    },
  };
}

interface WalkResult {
  readonly forward: number[][];
  readonly backward: number[][];
}

async function walk(query: OrderedQuery<Row>, term: OrderTerm, pageSize: number): Promise<WalkResult> {
  const page = async (url: string) => {
    const pagination = new CursorPagination({ pageSize, ordering: [term] });
    const rows = await pagination.paginateQueryset(query, new ApiRequest({ url }));
    return {
      ids: (rows ?? []).map((r) => Number(r.id)),
      next: pagination.getNextLink(),
      previous: pagination.getPreviousLink(),
    };
  };
  const forward: number[][] = [];
  let url: string | null = ORIGIN;
  let last: Awaited<ReturnType<typeof page>> | undefined;
  while (url !== null && forward.length < 100) {
    last = await page(url);
    forward.push(last.ids);
    url = last.next;
  }
  const backward: number[][] = [];
  url = last?.previous ?? null;
  while (url !== null && backward.length < 100) {
    const previous = await page(url);
    backward.push(previous.ids);
    url = previous.previous;
  }
  return { forward, backward };
}

/** A cursor for `[value, 1]` under `term` then the `id` tiebreaker, as if a client forged it. */
function forgedUrl(term: OrderTerm, value: PositionValue): string {
  const order: KeyTerm[] = [
    { field: term.field, direction: term.direction, nulls: term.nulls ?? 'last' },
    { field: 'id', direction: term.direction, nulls: 'last', unique: true },
  ];
  return `${ORIGIN}?cursor=${encodeCursor({ offset: 0, reverse: false, position: [value, 1] }, { order })}`;
}

/** One cell of the closing note's table. */
interface Cell {
  readonly type: string;
  readonly backend: string;
  readonly walked?: number;
  readonly rows?: number;
  readonly duplicates?: number;
  /** Forged cursors with values of the wrong type or range, and how many answered 404. */
  readonly forged?: number;
  readonly rejected?: number;
  readonly skip?: string;
}

const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'type-matrix');
const BACKEND_ORDER = ['memory', 'sqlite', 'sqlite-safe-integers', 'pglite', 'postgres', 'mariadb'];

/**
 * Writes this backend's cells and regenerates the table from every backend's last run, once every
 * backend has one.
 */
function writeResults(backend: string, cells: readonly Cell[]): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${backend}.json`), `${JSON.stringify(cells, null, 1)}\n`);
  const all = readdirSync(RESULTS_DIR)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => JSON.parse(readFileSync(join(RESULTS_DIR, f), 'utf8')) as Cell[]);
  const backends = BACKEND_ORDER.filter((b) => all.some((c) => c.backend === b));
  // A filtered run in a fresh checkout has only some backends' cells: keep the committed table.
  if (backends.length < BACKEND_ORDER.length) return;
  const lines = [
    '# Type matrix (generated by tests/conformance/type-matrix.ts)',
    '',
    'Each cell: rows the cursor walks visited / rows expected, over 4 orderings (asc/desc x NULLs',
    `first/last), walked forward and back at page sizes ${PAGE_SIZES.join(' and ')} (at 1 every row's position`,
    "is a cursor's bound), compared with the database's own ORDER BY; then duplicates seen; then",
    "forged cursors (values of the wrong type or out of the type's range) answered 404 Invalid",
    'cursor. "skip" gives the reason the backend has no such type. The values walked, each type\'s',
    'extremes among them, are listed in `MATRIX_TYPES`.',
    '',
    `| type | ${backends.join(' | ')} |`,
    `|---|${backends.map(() => '---').join('|')}|`,
    ...MATRIX_TYPES.map((type) => {
      const cells = backends.map((b) => {
        const cell = all.find((c) => c.backend === b && c.type === type.name);
        if (cell === undefined) return 'not run';
        if (cell.skip !== undefined) return `skip: ${cell.skip}`;
        return `${cell.walked}/${cell.rows}, ${cell.duplicates} dup, ${cell.rejected}/${cell.forged} forged 404`;
      });
      return `| ${type.name} | ${cells.join(' | ')} |`;
    }),
    '',
  ];
  writeFileSync(join(dirname(RESULTS_DIR), 'TYPE-MATRIX.md'), lines.join('\n'));
}

/**
 * The type matrix: for every orderable type the backend has, a cursor walk forward and back in
 * both directions with NULLs first and last visits every row once, in the database's own order.
 */
export function typeMatrixCases(open: () => Promise<MatrixBackend>, name: string): void {
  let backend: MatrixBackend;
  const cells: Cell[] = [];
  // A Postgres major's own project (vitest.config.ts) keeps its cells apart from CI's server's.
  const major = name === 'postgres' ? postgresMajor() : undefined;
  const key = major === undefined ? name : `postgres-${major}`;
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
    writeResults(key, cells);
  });

  for (const type of MATRIX_TYPES) {
    const database = name.replace(/^drizzle-/, '');
    const dialect: Dialect =
      name === 'memory'
        ? 'memory'
        : database.startsWith('mariadb')
          ? 'mysql'
          : database.startsWith('sqlite')
            ? 'sqlite'
            : 'postgres';
    const flavour = type[dialect];
    if (typeof flavour === 'string') {
      // The backend has no such type: the reason goes into TYPE-MATRIX.md, not into a test.
      cells.push({ type: type.name, backend: key, skip: flavour });
      continue;
    }
    it(`[${name}] type matrix: ${type.name}: walks visit every row once, in the database's order`, async () => {
      const loaded = await backend.load(type, flavour);
      let walked = 0;
      let duplicates = 0;
      let rejected = 0;
      const invalid = flavour.invalid ?? [];
      const checks: Array<() => void> = [];
      try {
        for (const value of invalid) {
          const term = DIRECTIONS[0]!;
          const pagination = new CursorPagination({ pageSize: PAGE_SIZE, ordering: [term] });
          const outcome = await pagination
            .paginateQueryset(loaded.query, new ApiRequest({ url: forgedUrl(term, value) }))
            .then(
              () => 'a page',
              (error: unknown) => error,
            );
          if (outcome instanceof NotFound && outcome.detail === 'Invalid cursor') rejected += 1;
          checks.push(() =>
            expect(outcome, `forged ${typeof value} ${String(value)}`).toEqual(
              new NotFound('Invalid cursor'),
            ),
          );
        }
        for (const term of DIRECTIONS) {
          const expected = await loaded.order(term);
          for (const pageSize of PAGE_SIZES) {
            const { forward, backward } = await walk(loaded.query, term, pageSize);
            const visited = forward.flat();
            walked += visited.length;
            duplicates += visited.length - new Set(visited).size;
            const label = `${term.direction} nulls ${term.nulls}, page size ${pageSize}`;
            checks.push(() => {
              expect(visited, label).toEqual(expected);
              expect(backward, `${label}, backward`).toEqual(forward.slice(0, -1).reverse());
            });
          }
        }
      } finally {
        cells.push({
          type: type.name,
          backend: key,
          walked,
          rows: loaded.rows * DIRECTIONS.length * PAGE_SIZES.length,
          duplicates,
          forged: invalid.length,
          rejected,
        });
      }
      for (const check of checks) check();
    });
  }
}
