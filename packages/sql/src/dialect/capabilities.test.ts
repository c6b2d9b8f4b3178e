import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capabilitiesFromProbe } from '../dialects.js';
import { identifier, sql } from '../fragment/fragment.js';
import { RENDER_STYLES, renderSql } from '../fragment/render.js';
import { mysqlCapabilities } from '../mysql/capabilities.js';
import { postgresCapabilities } from '../postgres/capabilities.js';
import { sqliteCapabilities } from '../sqlite/capabilities.js';
import { baseCapabilities } from './capabilities.js';

describe('dialect capabilities', () => {
  it('recognises the dialect from compiled SQL', () => {
    expect(capabilitiesFromProbe('"p" = $1')).toBe(postgresCapabilities);
    expect(capabilitiesFromProbe('"p" = ?')).toBe(sqliteCapabilities);
    expect(capabilitiesFromProbe('`p` = ?')).toBe(mysqlCapabilities);
    expect(capabilitiesFromProbe('[p] = @1')).toBe(baseCapabilities);
  });

  it('keeps Postgres timestamps finer than milliseconds as exact text', () => {
    expect(postgresCapabilities.columnKind('timestamp with time zone')).toBe('timestamp-text');
    expect(postgresCapabilities.columnKind('timestamp(6) without time zone')).toBe('timestamp-text');
    expect(postgresCapabilities.columnKind('timestamp(3) with time zone')).toBe('date');
    expect(postgresCapabilities.columnKind('bigint')).toBe('bigint');
    expect(mysqlCapabilities.columnKind('datetime(6)')).toBe('timestamp-text');
    expect(mysqlCapabilities.columnKind('datetime(3)')).toBe('date');
    expect(sqliteCapabilities.columnKind('datetime')).toBe('date');
  });

  it('knows each type: exact kinds, enums, and the types it refuses', () => {
    const kinds = (capabilities: typeof postgresCapabilities, types: string[]) =>
      types.map((t) => capabilities.columnKind(t));
    expect(
      kinds(postgresCapabilities, [
        'smallint',
        'integer',
        'numeric(40,30)',
        'real',
        'date',
        'time without time zone',
        'json',
        'integer[]',
        'bytea',
        'interval',
        'time with time zone',
      ]),
    ).toEqual([
      'integer',
      'integer',
      'decimal',
      'number',
      'timestamp-text',
      'timestamp-text',
      'unsupported',
      'unsupported',
      'unsupported',
      'unsupported',
      'unsupported',
    ]);
    expect(
      kinds(mysqlCapabilities, [
        'tinyint(1)',
        'int(11) unsigned',
        'decimal(40,30)',
        "enum('b','a')",
        'time(6)',
        'date',
        'uuid',
        'blob',
        "set('a')",
      ]),
    ).toEqual([
      'integer',
      'integer',
      'decimal',
      'enum',
      'timestamp-text',
      'date',
      'uuid',
      'unsupported',
      'unsupported',
    ]);
    expect(kinds(sqliteCapabilities, ['integer', 'decimal(10,2)', 'time', 'blob', ''])).toEqual([
      'integer',
      'number',
      'string',
      'unsupported',
      'unknown',
    ]);
  });

  it('positions a Postgres date without a timestamp (timestamptz ends in 294276 AD), whatever the DateStyle', () => {
    const column = identifier('day');
    const position = (type: string | undefined) => {
      const info =
        type === undefined
          ? { kind: 'timestamp-text' as const, nullable: true }
          : { kind: 'timestamp-text' as const, nullable: true, type };
      const expression = postgresCapabilities.positionExpression(column, info)!;
      return renderSql(sql`select ${expression} as ${identifier('p')}`, RENDER_STYLES.postgres).sql;
    };
    expect(position('date')).toBe(
      `select to_json("day") #>> '{}' || case when "day" >= date '0001-01-01' and isfinite("day") then ' AD' else '' end as "p"`,
    );
    // An expression declared 'timestamp-text' without a type keeps its time (`to_char` of a date format cut it).
    expect(position(undefined)).toBe(`select to_json("day") #>> '{}' as "p"`);
  });

  it('gives each integer type its range (every SQLite INTEGER is 64-bit)', () => {
    expect(postgresCapabilities.integerRange('integer')).toEqual([-(2n ** 31n), 2n ** 31n - 1n]);
    expect(postgresCapabilities.integerRange('smallint')).toEqual([-32768n, 32767n]);
    expect(mysqlCapabilities.integerRange('tinyint(3) unsigned')).toEqual([0n, 255n]);
    expect(mysqlCapabilities.integerRange('mediumint(9)')).toEqual([-(2n ** 23n), 2n ** 23n - 1n]);
    expect(mysqlCapabilities.integerRange('bigint(20) unsigned')).toEqual([0n, 2n ** 64n - 1n]);
    expect(mysqlCapabilities.integerRange('year(4)')).toEqual([0n, 2155n]);
    expect(sqliteCapabilities.integerRange('smallint')).toEqual([-(2n ** 63n), 2n ** 63n - 1n]);
  });

  it('only MariaDB/MySQL avoid row values, and only Postgres sorts NULL high', () => {
    expect(
      [postgresCapabilities, sqliteCapabilities, mysqlCapabilities].map((c) => [
        c.rowValueSeek,
        c.nativeNulls,
      ]),
    ).toEqual([
      [true, 'high'],
      [true, 'low'],
      [false, 'low'],
    ]);
  });

  it("writes MySQL's UTC wall clock of a Date bound: years 0 to 9999, nothing else", () => {
    const text = (date: Date) => mysqlCapabilities.dateParameter!(date, 'datetime(3)');
    // An independent reading of the ISO text: the date, a space, the clock to milliseconds.
    const reference = (date: Date) => {
      const match = /^(\d{4})-(\d\d-\d\d)T(\d\d:\d\d:\d\d\.\d{3})Z$/.exec(date.toISOString());
      return match ? `${match[1]}-${match[2]} ${match[3]}` : null;
    };
    // Years -100 to 10100: inside and past both ends of MySQL's range.
    const from = Date.parse('-000100-01-01T00:00:00.000Z');
    const to = Date.parse('+010100-01-01T00:00:00.000Z');
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), (ms) => {
        expect(text(new Date(ms))).toBe(reference(new Date(ms)));
      }),
      { numRuns: 2000 },
    );
    expect(text(new Date('0001-01-01T00:00:00.000Z'))).toBe('0001-01-01 00:00:00.000');
    expect(text(new Date('9999-12-31T23:59:59.999Z'))).toBe('9999-12-31 23:59:59.999');
    expect(text(new Date('+010000-01-01T00:00:00.000Z'))).toBeNull();
    expect(text(new Date('-000001-12-31T00:00:00.000Z'))).toBeNull();
  });
});
