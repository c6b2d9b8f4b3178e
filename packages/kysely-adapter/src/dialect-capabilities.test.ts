import { describe, expect, it } from 'vitest';
import {
  baseCapabilities,
  capabilitiesFromProbe,
  mysqlCapabilities,
  postgresCapabilities,
  sqliteCapabilities,
} from './dialect-capabilities.js';

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
});
