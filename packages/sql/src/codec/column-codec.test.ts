import { ConfigurationError, InvalidBoundError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import type { ColumnInfo, ColumnKind } from '../dialect/column-info.js';
import { mysqlCapabilities } from '../mysql/capabilities.js';
import { postgresCapabilities } from '../postgres/capabilities.js';
import { sqliteCapabilities } from '../sqlite/capabilities.js';
import { positionReader, toParameter, toParameters, toPosition } from './column-codec.js';
import { ExactText } from './exact-text.js';

const WITH_ZONE = 'timestamp with time zone';
const col = (kind: ColumnKind, type?: string): ColumnInfo =>
  type === undefined ? { kind, nullable: true } : { kind, nullable: true, type };

describe('a page in one call each: toParameters and positionReader', () => {
  const fields = [
    {
      field: 'big',
      info: col('integer', 'integer'),
      readKey: 'pagewise0',
      exact: { key: 'pagewisex0' },
      recorded: false,
    },
    { field: 'at', info: col('timestamp-text', WITH_ZONE), readKey: 'at', exact: null, recorded: true },
    { field: 'title', info: col('string', 'text'), readKey: 'title', exact: null, recorded: false },
  ];

  it('checks every value of a bound as toParameter does, NULL kept, the first misfit named', () => {
    const bound = [7, '2024-05-01 12:00:00.000001+00 AD', null];
    expect(toParameters(fields, bound, postgresCapabilities)).toEqual(
      bound.map((value, i) =>
        value === null ? null : toParameter(fields[i]!.info, value, 'x', postgresCapabilities),
      ),
    );
    const misfit = () => toParameters(fields, [0.5, 'not a time', 'x'], postgresCapabilities);
    expect(misfit).toThrow(InvalidBoundError);
    expect(misfit).toThrow(/"big"/);
  });

  it("reads every field of a row: integers' exact text only on a page that carries it, recorded text where recorded", () => {
    const read = positionReader(fields);
    const at = new Date(0);
    ExactText.record(at, '2024-05-01 12:00:00.000001+00');
    // The driver rounded 9007199254740993 to 2^53; the exact text is read only when selected.
    const row = { pagewise0: 2 ** 53, pagewisex0: '9007199254740993', at, title: 'a' };
    const time = '2024-05-01 12:00:00.000001+00 AD';
    expect(read([row], false, postgresCapabilities)).toEqual([[2n ** 53n, time, 'a']]);
    expect(read([row], true, postgresCapabilities)).toEqual([[9007199254740993n, time, 'a']]);
    // Several rows in one call (a page's first and last), each read alike.
    expect(read([row, { ...row, pagewise0: 7, at: null, title: null }], false, postgresCapabilities)).toEqual(
      [
        [2n ** 53n, time, 'a'],
        [7, null, null],
      ],
    );
    // A value without its recorded text is refused, never guessed.
    expect(() => read([{ ...row, at: new Date(0) }], false, postgresCapabilities)).toThrow(
      ConfigurationError,
    );
  });
});

describe('toPosition', () => {
  it('gives bigint columns bigint positions whatever the driver returns', () => {
    expect(toPosition(col('bigint'), '9007199254740993', 'big', postgresCapabilities)).toBe(
      9007199254740993n,
    );
    expect(toPosition(col('bigint'), 42, 'big', postgresCapabilities)).toBe(42n);
  });

  it('reads dates stored as ISO text (SQLite) as dates, and NULL as null', () => {
    expect(toPosition(col('date'), '2024-01-01T00:00:00.001Z', 'created', sqliteCapabilities)).toEqual(
      new Date(Date.UTC(2024, 0, 1, 0, 0, 0, 1)),
    );
    expect(toPosition(col('date'), null, 'created', postgresCapabilities)).toBeNull();
  });

  it('reads SQLite text as a date exactly when Date#toISOString writes that text', () => {
    // The reference: the text is the ISO form of a date that writes it back unchanged.
    const reference = (raw: string) => {
      const date = new Date(raw);
      return /^(?:\d{4}|[+-]\d{6})-/.test(raw) && !Number.isNaN(date.getTime()) && date.toISOString() === raw
        ? date
        : raw;
    };
    const texts = [
      '2024-02-29T23:59:59.999Z', // leap day
      '2023-02-29T00:00:00.000Z', // no such day
      '1900-02-29T00:00:00.000Z', // not a leap year (century)
      '2000-02-29T00:00:00.000Z', // leap year (400)
      '2024-04-31T00:00:00.000Z',
      '2024-13-01T00:00:00.000Z',
      '2024-00-10T00:00:00.000Z',
      '2024-01-00T00:00:00.000Z',
      '2024-01-01T24:00:00.000Z',
      '2024-01-01T23:60:00.000Z',
      '2024-01-01T23:59:60.000Z',
      '0050-06-01T12:00:00.000Z', // two-digit years are not 1900 + year
      '0000-01-01T00:00:00.000Z',
      '0099-12-31T23:59:59.999Z',
      '0100-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '+010000-01-01T00:00:00.000Z',
      '-000001-01-01T00:00:00.000Z',
      '-000000-01-01T00:00:00.000Z',
      '+002024-01-01T00:00:00.000Z',
      '2024-01-01T00:00:00.000z',
      '2024-01-01 00:00:00.000Z',
      '2024-01-01T00:00:00.00Z',
      '2024-01-01T00:00:00Z',
      '2024-1a-01T00:00:00.000Z',
      '２０２４-01-01T00:00:00.000Z',
    ];
    // Every field one step around its bounds, on a leap and a common year.
    for (const year of ['2023', '2024', '1970', '0004']) {
      for (let month = 0; month <= 13; month += 1) {
        for (const day of [0, 1, 28, 29, 30, 31, 32]) {
          const mm = String(month).padStart(2, '0');
          texts.push(`${year}-${mm}-${String(day).padStart(2, '0')}T12:34:56.789Z`);
        }
      }
    }
    for (const time of ['00:00:00.000', '23:59:59.999', '09:05:07.001', '19:59:59.990', '99:99:99.999']) {
      texts.push(`2024-06-15T${time}Z`);
    }
    for (const raw of texts) {
      const got = toPosition(col('date'), raw, 'created', sqliteCapabilities);
      const want = reference(raw);
      if (want instanceof Date) {
        expect(got, raw).toBeInstanceOf(Date);
        expect((got as Date).getTime(), raw).toBe(want.getTime());
      } else {
        expect(got, raw).toBe(raw);
      }
    }
  });
});

describe('toParameter', () => {
  const invalid = (fn: () => unknown) => expect(fn).toThrow(InvalidBoundError);

  it('rejects values of another kind than the column', () => {
    invalid(() => toParameter(col('date'), 'not a date', 'created', postgresCapabilities));
    invalid(() => toParameter(col('number'), 'x', 'id', postgresCapabilities));
    invalid(() => toParameter(col('string'), 5, 'name', postgresCapabilities));
    invalid(() => toParameter(col('boolean'), 1, 'flag', postgresCapabilities));
  });

  it('rejects values the database would fail on', () => {
    invalid(() => toParameter(col('bigint'), 2n ** 70n, 'big', postgresCapabilities));
    invalid(() =>
      toParameter(col('integer', 'integer'), Number.POSITIVE_INFINITY, 'id', postgresCapabilities),
    );
    invalid(() => toParameter(col('number'), Number.POSITIVE_INFINITY, 'score', mysqlCapabilities));
    invalid(() => toParameter(col('number', 'real'), 1e39, 'score', postgresCapabilities));
    invalid(() => toParameter(col('string'), 'a\u0000b', 'name', postgresCapabilities));
    invalid(() => toParameter(col('uuid'), 'not-a-uuid', 'key', postgresCapabilities));
    invalid(() => toParameter(col('date'), new Date(-250_000_000_000_000), 'created', postgresCapabilities));
    invalid(() =>
      toParameter(col('timestamp-text'), '2024-02-30T00:00:00.000000', 'created', postgresCapabilities),
    );
    invalid(() =>
      toParameter(col('timestamp-text'), '2024-02-01 00:00:00.1+99', 'created', postgresCapabilities),
    );
    invalid(() =>
      toParameter(col('timestamp-text'), '2024-02-01 00:00:00.1; drop', 'created', postgresCapabilities),
    );
  });

  it('rejects integers out of their type range or not integral (forged unsigned cursors)', () => {
    const int4 = col('integer', 'integer');
    invalid(() => toParameter(int4, 2147483648, 'id', postgresCapabilities));
    invalid(() => toParameter(int4, -2147483649n, 'id', postgresCapabilities));
    invalid(() => toParameter(int4, 0.5, 'id', postgresCapabilities));
    invalid(() => toParameter(col('integer', 'smallint'), 32768, 'n', postgresCapabilities));
    invalid(() => toParameter(col('bigint', 'bigint unsigned'), -1n, 'n', mysqlCapabilities));
    expect(toParameter(int4, 2147483647, 'id', postgresCapabilities)).toBe(2147483647);
    expect(toParameter(col('bigint', 'bigint unsigned'), 2n ** 64n - 1n, 'n', mysqlCapabilities)).toBe(
      2n ** 64n - 1n,
    );
    expect(toParameter(col('integer', 'smallint'), 2n ** 62n, 'n', sqliteCapabilities)).toBe(2n ** 62n);
  });

  it('checks numbers against every integer range at its bounds, as bigints are', () => {
    const cases: Array<[string, bigint, bigint, typeof postgresCapabilities]> = [
      ['smallint', -32768n, 32767n, postgresCapabilities],
      ['integer', -(2n ** 31n), 2n ** 31n - 1n, postgresCapabilities],
      ['tinyint(3) unsigned', 0n, 255n, mysqlCapabilities],
      ['mediumint(9)', -(2n ** 23n), 2n ** 23n - 1n, mysqlCapabilities],
      ['year(4)', 0n, 2155n, mysqlCapabilities],
      ['integer unsigned', 0n, 2n ** 53n - 1n, sqliteCapabilities],
    ];
    for (const [type, min, max, capabilities] of cases) {
      const info = col('integer', type);
      for (const edge of [min, max]) {
        expect(toParameter(info, Number(edge), 'n', capabilities), `${type} ${edge}`).toBe(Number(edge));
        expect(toParameter(info, edge, 'n', capabilities), `${type} ${edge}n`).toBe(Number(edge));
      }
      invalid(() => toParameter(info, Number(min - 1n), 'n', capabilities));
      if (max < 2n ** 53n - 1n) invalid(() => toParameter(info, Number(max + 1n), 'n', capabilities));
    }
    // A bigint column answers bigints, from numbers too.
    expect(toParameter(col('bigint', 'bigint'), 7, 'n', postgresCapabilities)).toBe(7n);
    invalid(() => toParameter(col('integer', 'integer'), 2 ** 53, 'n', sqliteCapabilities));
    // A forged -0 binds as 0, as its bigint reading always did.
    expect(Object.is(toParameter(col('integer', 'integer'), -0, 'n', sqliteCapabilities), 0)).toBe(true);
  });

  it('keeps decimals exact and within the declared precision', () => {
    const decimal = col('decimal', 'decimal(40,30)');
    const tiny = '1.000000000000000000000000000001';
    expect(toParameter(decimal, tiny, 'v', mysqlCapabilities)).toBe(tiny);
    invalid(() => toParameter(decimal, `${tiny}1`, 'v', mysqlCapabilities));
    invalid(() => toParameter(decimal, '12345678901.5', 'v', mysqlCapabilities));
    invalid(() => toParameter(decimal, 1.5, 'v', mysqlCapabilities));
    invalid(() => toParameter(decimal, '1e5', 'v', postgresCapabilities));
    invalid(() => toParameter(decimal, 'NaN', 'v', mysqlCapabilities));
    expect(toParameter(col('decimal', 'numeric'), 'NaN', 'v', postgresCapabilities)).toBe('NaN');
  });

  it('accepts the timestamps Postgres writes: BC, years past 9999, infinity; rejects its out-of-range ones', () => {
    for (const text of [
      '0044-03-15 12:00:00.000001+00 BC',
      '10000-01-01 00:00:00.000000 AD',
      'infinity',
      '0099-12-31 AD',
    ]) {
      expect(
        toParameter(col('timestamp-text', 'timestamp with time zone'), text, 'at', postgresCapabilities),
      ).toBe(text);
    }
    for (const text of [
      '4714-01-01 00:00:00 BC',
      '294277-01-01 00:00:00',
      '0000-01-01 00:00:00',
      'Infinity',
    ]) {
      invalid(() =>
        toParameter(col('timestamp-text', 'timestamp with time zone'), text, 'at', postgresCapabilities),
      );
    }
    const time = col('timestamp-text', 'time without time zone');
    expect(toParameter(time, '24:00:00', 'at', postgresCapabilities)).toBe('24:00:00');
    invalid(() => toParameter(time, '24:00:01', 'at', postgresCapabilities));
    invalid(() => toParameter(time, '-838:59:59', 'at', postgresCapabilities));
    expect(toParameter(col('timestamp-text', 'time(6)'), '-838:59:59', 'at', mysqlCapabilities)).toBe(
      '-838:59:59',
    );
  });

  it('binds dates as ISO text on SQLite and as text the dialect parses elsewhere', () => {
    const date = new Date(Date.UTC(2024, 0, 1));
    expect(toParameter(col('date'), date, 'created', sqliteCapabilities)).toBe('2024-01-01T00:00:00.000Z');
    expect(
      toParameter(col('date', 'timestamp(3) with time zone'), date, 'created', postgresCapabilities),
    ).toBe('2024-01-01 00:00:00.000+00');
    const bc = new Date(Date.UTC(2000, 2, 15));
    bc.setUTCFullYear(-43);
    expect(toParameter(col('date', 'timestamp(3) with time zone'), bc, 'created', postgresCapabilities)).toBe(
      '0044-03-15 00:00:00.000+00 BC',
    );
    expect(toParameter(col('date', 'datetime(3)'), date, 'created', mysqlCapabilities)).toBe(
      '2024-01-01 00:00:00.000',
    );
    invalid(() => toParameter(col('date', 'datetime(3)'), bc, 'created', mysqlCapabilities));
    expect(
      toParameter(
        col('date', 'timestamp(3) with time zone'),
        Number.NEGATIVE_INFINITY,
        'created',
        postgresCapabilities,
      ),
    ).toBe('-infinity');
    expect(toParameter(col('string'), 'a\u0000b', 'name', sqliteCapabilities)).toBe('a\u0000b');
    for (const text of [
      '2024-02-29T23:59:59.123456',
      '2024-05-01 12:00:00.1231+00',
      '2024-11-03 01:30:00-04:00',
    ]) {
      expect(toParameter(col('timestamp-text'), text, 'created', postgresCapabilities)).toBe(text);
    }
  });
});

describe('the extremes of numbers and booleans', () => {
  const invalid = (fn: () => unknown) => expect(fn).toThrow(InvalidBoundError);

  it("gives SQLite's REALs in integer columns number positions, bound as the REALs they are", () => {
    for (const kind of ['integer', 'bigint'] as const) {
      const info = col(kind, kind);
      for (const value of [2 ** 63, -1e19, 1e300, 1.5, Number.POSITIVE_INFINITY]) {
        expect(toPosition(info, value, 'n', sqliteCapabilities), `${kind} ${value}`).toBe(value);
        expect(toParameter(info, value, 'n', sqliteCapabilities), `${kind} ${value}`).toBe(value);
      }
      // -2^63 is a 64-bit integer, whichever storage class holds it.
      expect(toPosition(info, -(2 ** 63), 'n', sqliteCapabilities)).toBe(-(2n ** 63n));
      invalid(() => toParameter(info, Number.NaN, 'n', sqliteCapabilities));
      invalid(() => toParameter(info, 1.5, 'n', postgresCapabilities));
    }
  });

  it('refuses a boolean column holding another number than 0 and 1: no boolean bound equals it', () => {
    expect(toPosition(col('boolean', 'boolean'), 1, 'flag', sqliteCapabilities)).toBe(true);
    expect(toPosition(col('boolean', 'boolean'), 0n, 'flag', sqliteCapabilities)).toBe(false);
    expect(() => toPosition(col('boolean', 'boolean'), 2, 'flag', sqliteCapabilities)).toThrow(
      ConfigurationError,
    );
  });

  it('takes floats to the largest float4 as Postgres writes it, and doubles whole on SQLite', () => {
    const real = col('number', 'real');
    expect(toParameter(real, 3.4028235e38, 'v', postgresCapabilities)).toBe(3.4028235e38);
    invalid(() => toParameter(real, 3.4028236e38, 'v', postgresCapabilities));
    invalid(() => toParameter(real, 1e-46, 'v', postgresCapabilities));
    expect(toParameter(real, 1e308, 'v', sqliteCapabilities)).toBe(1e308);
    expect(toParameter(real, 5e-324, 'v', sqliteCapabilities)).toBe(5e-324);
  });

  it('takes numerics of every length Postgres holds, and no infinity for a numeric(p,s)', () => {
    const numeric = col('decimal', 'numeric');
    const long = `${'9'.repeat(131072)}.${'9'.repeat(16383)}`;
    expect(toParameter(numeric, long, 'v', postgresCapabilities)).toBe(long);
    invalid(() => toParameter(numeric, `9${long}`, 'v', postgresCapabilities));
    expect(toParameter(numeric, 'Infinity', 'v', postgresCapabilities)).toBe('Infinity');
    const bounded = col('decimal', 'numeric(1000,500)');
    expect(toParameter(bounded, 'NaN', 'v', postgresCapabilities)).toBe('NaN');
    invalid(() => toParameter(bounded, 'Infinity', 'v', postgresCapabilities));
    invalid(() => toParameter(bounded, '-Infinity', 'v', postgresCapabilities));
  });
});

describe('exact timestamp bounds', () => {
  // The grammar the validator implements by character codes, as a regex (the former implementation).
  const GRAMMAR =
    /^(\d{4,6})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2})(?::(\d{2}))?)?)?)?( AD| BC)?$/;
  const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const daysIn = (y: number, m: number) =>
    [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  /**
   * Seconds of a UTC wall clock through `Date`, an independent calendar; years past its range
   * are moved into it by whole 400-year cycles of 146097 days.
   */
  const wallSeconds = (year: number, month: number, day: number, h: number, mi: number, s: number) => {
    const cycles = Math.trunc(year / 400);
    const date = new Date(Date.UTC(2000, month - 1, day, h, mi, s));
    date.setUTCFullYear(year - cycles * 400);
    return date.getTime() / 1000 + cycles * 146097 * 86400;
  };
  // 4714-11-24 00:00:00 BC and 294276-12-31 23:59:59, as written and in UTC.
  const MIN = wallSeconds(-4713, 11, 24, 0, 0, 0);
  const MAX = wallSeconds(294276, 12, 31, 23, 59, 59);
  const reference = (text: string): boolean => {
    const p = GRAMMAR.exec(text);
    if (!p) return false;
    const n = (i: number) => Number(p[i] ?? 0);
    const bc = p[10] === ' BC';
    if (n(7) > 15 || n(8) > 59 || n(9) > 59) return false;
    if (n(1) < 1) return false;
    const year = bc ? 1 - n(1) : n(1);
    const onCalendar =
      n(2) >= 1 &&
      n(2) <= 12 &&
      n(3) >= 1 &&
      n(3) <= daysIn(year, n(2)) &&
      n(4) <= 23 &&
      n(5) <= 59 &&
      n(6) <= 59;
    if (!onCalendar) return false;
    const local = wallSeconds(year, n(2), n(3), n(4), n(5), n(6));
    const sign = /[+-]\d\d/.exec(text.slice(10))?.[0][0] === '-' ? -1 : 1;
    const utc = local - sign * (n(7) * 3600 + n(8) * 60 + n(9));
    return local >= MIN && local <= MAX && utc >= MIN && utc <= MAX;
  };
  const accepts = (text: string): boolean => {
    try {
      toParameter(col('timestamp-text', 'timestamp with time zone'), text, 'at', postgresCapabilities);
      return true;
    } catch (error) {
      if (error instanceof InvalidBoundError) return false;
      throw error;
    }
  };

  it('accepts exactly the texts of the timestamp grammar within range', () => {
    const pieces = [
      ['2024', '0001', '294276', '294277', '4713', '4714', '4715', '12345', '123', '1234567', '0000', '2000'],
      ['-01', '-02', '-11', '-12', '-13', '-00', '-1', '-0a'],
      ['-01', '-23', '-24', '-28', '-29', '-30', '-31', '-32', '-00', '-1'],
      [
        '',
        ' ',
        'T',
        't',
        ' 00:00:00',
        'T23:59:59',
        ' 23:30:00',
        ' 00:30:00',
        ' 24:00:00',
        ' 12:60:00',
        ' 12:00:60',
        ' 1:00:00',
        ' 12:00',
      ],
      ['', '.1', '.123456', '.1234567', '.', '.12a'],
      [
        '',
        'Z',
        '+00',
        '-15',
        '+16',
        '+05:30',
        '+0530',
        '+05:30:15',
        '+053015',
        '+05:60',
        '+05:30:60',
        '+5',
        'z',
        '+05:3',
      ],
      ['', ' AD', ' BC', ' ad', ' XX', 'AD', '  AD'],
    ];
    let valid = 0;
    const rng = (() => {
      let seed = 7;
      return () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
    })();
    for (let i = 0; i < 40_000; i += 1) {
      const text = pieces.map((options) => options[Math.floor(rng() * options.length)]!).join('');
      expect(accepts(text), text).toBe(reference(text));
      if (reference(text)) valid += 1;
    }
    for (const text of [
      'infinity',
      '-infinity',
      '',
      'Infinity',
      '2024-02-29',
      '2023-02-29',
      '0001-02-29 BC',
      '0004-02-29 BC',
      '4714-11-24 00:00:00 BC',
      '4714-11-23 23:59:59.999999 BC',
      '4714-11-24 00:00:00+01 BC',
      '4714-11-24 00:30:00+00:30 BC',
      '294276-12-31 23:59:59.999999',
      '294276-12-31 23:00:00-01',
      '294276-12-31 23:00:00+01',
      '294277-01-01 00:00:00',
    ])
      expect(accepts(text), text).toBe(text.endsWith('infinity') || reference(text));
    // The cases reach both answers.
    expect(valid).toBeGreaterThan(80);
  });
});

describe('the full range of each temporal type', () => {
  const invalid = (fn: () => unknown) => expect(fn).toThrow(InvalidBoundError);
  const pgDate = col('timestamp-text', 'date');

  it("takes Postgres dates from Julian day 0 to 5874897 AD, past timestamptz's end, and no time of day", () => {
    for (const text of [
      '5874897-12-31 AD',
      '5874897-12-31',
      '294277-01-01 AD',
      '4714-11-24 BC',
      'infinity',
    ]) {
      expect(toParameter(pgDate, text, 'day', postgresCapabilities), text).toBe(text);
    }
    for (const text of [
      '5874898-01-01 AD',
      '4714-11-23 BC',
      '0000-01-01',
      '2024-01-01 12:00:00 AD',
      '2024-01-01 00:00:00+00 AD',
      '12345678-01-01',
    ]) {
      invalid(() => toParameter(pgDate, text, 'day', postgresCapabilities));
    }
  });

  it('positions Postgres millisecond timestamps past the last Date as their exact text, and binds it', () => {
    const zoned = col('date', 'timestamp(3) with time zone');
    const local = col('date', 'timestamp(3) without time zone');
    // extract(epoch ...) of 294276-12-31 23:59:59.999 and of 275760-09-13 00:00:00.001.
    expect(toPosition(zoned, '9224318015999.999000', 'at', postgresCapabilities)).toBe(
      '294276-12-31 23:59:59.999000+00 AD',
    );
    expect(toPosition(local, '8640000000000.001000', 'at', postgresCapabilities)).toBe(
      '275760-09-13 00:00:00.001000 AD',
    );
    // The last Date is still a Date; 4714-11-24 BC is one too.
    expect(toPosition(zoned, '8640000000000.000000', 'at', postgresCapabilities)).toEqual(new Date(8.64e15));
    const first = toPosition(zoned, '-210866803200.000000', 'at', postgresCapabilities) as Date;
    expect(toParameter(zoned, first, 'at', postgresCapabilities)).toBe('4714-11-24 00:00:00.000+00 BC');
    expect(toParameter(zoned, '294276-12-31 23:59:59.999000+00 AD', 'at', postgresCapabilities)).toBe(
      '294276-12-31 23:59:59.999000+00 AD',
    );
    invalid(() => toParameter(zoned, '294277-01-01 00:00:00.000000+00 AD', 'at', postgresCapabilities));
    invalid(() => toParameter(zoned, new Date(-210_866_803_200_001), 'at', postgresCapabilities));
  });

  it("keeps MySQL's zero dates and zero parts as text positions, bound as they are; years past 9999 refused", () => {
    const date = col('date', 'date');
    const datetime = col('date', 'datetime(3)');
    for (const [info, text] of [
      [date, '0000-00-00'],
      [date, '2024-05-00'],
      [datetime, '0000-00-00 00:00:00.000'],
      [datetime, '2024-00-10 12:00:00.000'],
    ] as const) {
      expect(toPosition(info, text, 'at', mysqlCapabilities), text).toBe(text);
      expect(toParameter(info, text, 'at', mysqlCapabilities), text).toBe(text);
    }
    expect(toPosition(date, '0000-01-01', 'at', mysqlCapabilities)).toEqual(new Date('0000-01-01T00:00:00Z'));
    const micro = col('timestamp-text', 'datetime(6)');
    for (const text of ['0000-00-00 00:00:00.000000', '9999-12-31 23:59:59.999999', '0000-01-01 00:00:00']) {
      expect(toParameter(micro, text, 'at', mysqlCapabilities), text).toBe(text);
    }
    for (const text of [
      '10000-01-01 00:00:00',
      '2024-01-01 00:00:00 AD',
      '2024-01-01 00:00:00+00',
      '2024-13-01 00:00:00',
      '2024-02-30 00:00:00',
      '0000-02-29 00:00:00',
      '2024-01-32 00:00:00',
    ]) {
      invalid(() => toParameter(micro, text, 'at', mysqlCapabilities));
    }
    // A day only ALLOW_INVALID_DATES stores: no position, no bound.
    expect(() => toPosition(date, '2024-02-30', 'at', mysqlCapabilities)).toThrow(
      /"at" holds a text that is no value of its type date/,
    );
    invalid(() => toParameter(date, '2024-02-30', 'at', mysqlCapabilities));
    invalid(() => toParameter(date, '2024-01-01 12:00:00', 'at', mysqlCapabilities));
    invalid(() => toParameter(date, '10000-01-01', 'at', mysqlCapabilities));
  });
});
