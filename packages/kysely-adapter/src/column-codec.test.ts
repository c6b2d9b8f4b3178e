import { InvalidBoundError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { toParameter, toPosition } from './column-codec.js';
import { postgresCapabilities, sqliteCapabilities } from './dialect-capabilities.js';

describe('toPosition', () => {
  it('gives bigint columns bigint positions whatever the driver returns', () => {
    expect(toPosition('bigint', '9007199254740993', 'big')).toBe(9007199254740993n);
    expect(toPosition('bigint', 42, 'big')).toBe(42n);
  });

  it('reads dates stored as ISO text (SQLite) as dates, and NULL as null', () => {
    expect(toPosition('date', '2024-01-01T00:00:00.001Z', 'created')).toEqual(
      new Date(Date.UTC(2024, 0, 1, 0, 0, 0, 1)),
    );
    expect(toPosition('date', null, 'created')).toBeNull();
  });
});

describe('toParameter', () => {
  const invalid = (fn: () => unknown) => expect(fn).toThrow(InvalidBoundError);

  it('rejects values of another kind than the column', () => {
    invalid(() => toParameter('date', 'not a date', 'created', postgresCapabilities));
    invalid(() => toParameter('number', 'x', 'id', postgresCapabilities));
    invalid(() => toParameter('string', 5, 'name', postgresCapabilities));
    invalid(() => toParameter('boolean', 1, 'flag', postgresCapabilities));
  });

  it('rejects values the database would fail on', () => {
    invalid(() => toParameter('bigint', 2n ** 70n, 'big', postgresCapabilities));
    invalid(() => toParameter('number', Number.POSITIVE_INFINITY, 'id', postgresCapabilities));
    invalid(() => toParameter('string', 'a\u0000b', 'name', postgresCapabilities));
    invalid(() => toParameter('uuid', 'not-a-uuid', 'key', postgresCapabilities));
    invalid(() => toParameter('date', new Date(-250_000_000_000_000), 'created', postgresCapabilities));
    invalid(() =>
      toParameter('timestamp-text', '2024-02-30T00:00:00.000000', 'created', postgresCapabilities),
    );
    invalid(() => toParameter('timestamp-text', '2024-02-01 00:00:00.1+99', 'created', postgresCapabilities));
    invalid(() =>
      toParameter('timestamp-text', '2024-02-01 00:00:00.1; drop', 'created', postgresCapabilities),
    );
  });

  it('binds dates as ISO text on SQLite and natively elsewhere', () => {
    const date = new Date(Date.UTC(2024, 0, 1));
    expect(toParameter('date', date, 'created', sqliteCapabilities)).toBe('2024-01-01T00:00:00.000Z');
    expect(toParameter('date', date, 'created', postgresCapabilities)).toBe(date);
    expect(toParameter('string', 'a\u0000b', 'name', sqliteCapabilities)).toBe('a\u0000b');
    for (const text of [
      '2024-02-29T23:59:59.123456',
      '2024-05-01 12:00:00.1231+00',
      '2024-11-03 01:30:00-04:00',
    ]) {
      expect(toParameter('timestamp-text', text, 'created', postgresCapabilities)).toBe(text);
    }
  });
});
