import { describe, expect, it } from 'vitest';
import type { ColumnInfo } from '../dialect/column-info.js';
import { mysqlCapabilities } from '../mysql/capabilities.js';
import { postgresCapabilities } from '../postgres/capabilities.js';
import { sqliteCapabilities } from '../sqlite/capabilities.js';
import { lookupAccepts, lookupParameter } from './lookup-value.js';

const integer = (type: string): ColumnInfo => ({ kind: 'integer', nullable: false, type });

describe('lookup values: a path value as a parameter of its column, by the width of its type', () => {
  it("binds integers within their type's range, and nothing outside it", () => {
    expect(lookupParameter(integer('integer'), '2147483647', postgresCapabilities)).toBe(2147483647);
    expect(lookupParameter(integer('integer'), '2147483648', postgresCapabilities)).toBeUndefined();
    expect(lookupParameter(integer('smallint'), '-32769', postgresCapabilities)).toBeUndefined();
    expect(lookupParameter(integer('tinyint(3) unsigned'), '255', mysqlCapabilities)).toBe(255);
    expect(lookupParameter(integer('tinyint(3) unsigned'), '-1', mysqlCapabilities)).toBeUndefined();
    // SQLite's every INTEGER is 64-bit, whatever its declared name.
    expect(lookupParameter(integer('smallint'), '9007199254740993', sqliteCapabilities)).toBe(
      9007199254740993n,
    );
    expect(
      lookupParameter({ kind: 'bigint', nullable: false, type: 'bigint' }, '007', postgresCapabilities),
    ).toBe(7);
    expect(lookupParameter(integer('integer'), '1.5', postgresCapabilities)).toBeUndefined();
  });

  it('accepts integer text out of range as a value of the type (no row), but not text of another type', () => {
    expect(lookupAccepts(integer('integer'), '2147483648', postgresCapabilities)).toBe(true);
    expect(lookupAccepts(integer('integer'), 'abc', postgresCapabilities)).toBe(false);
    expect(lookupAccepts(integer('integer'), '1.5', postgresCapabilities)).toBe(false);
    expect(
      lookupAccepts({ kind: 'uuid', nullable: false, type: 'uuid' }, 'not-a-uuid', postgresCapabilities),
    ).toBe(false);
  });
});
