import { ConfigurationError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { keyColumnsOf, keyText, uniqueKeyColumns } from './key-columns.js';

const KYSELY = { name: 'kysely', factory: 'fromKysely' };

describe('uniqueKeyColumns', () => {
  it('keeps a one-column key a plain key, written either way, and a composite one as its list', () => {
    expect(uniqueKeyColumns(KYSELY, 'id')).toEqual({ uniqueKey: 'id', uniqueKeys: undefined });
    expect(uniqueKeyColumns(KYSELY, ['id'])).toEqual({ uniqueKey: 'id', uniqueKeys: undefined });
    expect(uniqueKeyColumns(KYSELY, null)).toEqual({ uniqueKey: null, uniqueKeys: undefined });
    const key = uniqueKeyColumns(KYSELY, ['tenant_id', 'id']);
    expect(key).toEqual({ uniqueKey: null, uniqueKeys: ['tenant_id', 'id'] });
    expect(Object.isFrozen(key.uniqueKeys)).toBe(true);
  });

  it('refuses an empty list, a column twice and anything but names', () => {
    for (const bad of [[], ['id', 'id'], ['tenant_id', ''], [1, 2]]) {
      expect(() => uniqueKeyColumns(KYSELY, bad as never)).toThrow(ConfigurationError);
    }
    expect(() => uniqueKeyColumns(KYSELY, ['id', 'id'])).toThrow(
      /kysely adapter: uniqueKey must be a column name or a list of distinct column names/,
    );
  });

  it('reads the columns back, and names them for messages', () => {
    expect(keyColumnsOf({ uniqueKey: 'id' })).toEqual(['id']);
    expect(keyColumnsOf({ uniqueKey: null })).toEqual([]);
    expect(keyColumnsOf({ uniqueKey: null, uniqueKeys: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(keyText(['id'])).toBe('"id"');
    expect(keyText(['tenant_id', 'id'])).toBe('["tenant_id", "id"]');
  });
});
