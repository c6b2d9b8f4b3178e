import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../dialect/catalog-rows.js';
import { type KeyCoverage, uniqueKeyRefusal } from './key-coverage.js';
import { uniqueIndexes } from './unique-indexes.js';

/** A catalog of `items`: `code` nullable, every other column NOT NULL; the unique indexes on every row. */
function catalog(uniques: CatalogRow['uniques'] | undefined): ReadonlyMap<string, CatalogRow> {
  const columns = ['id', 'category', 'seq', 'created', 'code', 'tenant', 'ref'];
  return new Map(
    columns.map((name): [string, CatalogRow] => {
      const row: CatalogRow = { name, type: 'integer', nullable: name === 'code' ? 't' : 'f' };
      return [name, uniques === undefined ? row : { ...row, uniques }];
    }),
  );
}

const indexes = JSON.stringify([
  ['items_category_seq', 'category', false],
  ['items_category_seq', 'seq', false],
  ['items_code', 'code', false],
  ['items_tenant_ref', 'tenant', false],
  ['items_tenant_ref', 'ref', false],
  ['items_lower_code', null, false],
  ['items_ref', 'ref', false],
  ['items_pkey', 'id', true],
]);

function refusal(columns: string[], fixed: string[] = [], listed: CatalogRow['uniques'] = indexes) {
  const rows = catalog(listed);
  const coverage: KeyCoverage = {
    adapter: { name: 'kysely', factory: 'fromKysely' },
    uniqueKey: columns.at(-1)!,
    table: 'items',
    columns,
    fixed,
    catalog: rows,
    indexes: uniqueIndexes(rows) ?? [],
  };
  return uniqueKeyRefusal(coverage);
}

describe('uniqueIndexes', () => {
  it('groups the pairs by index and leaves out the ones holding an expression', () => {
    expect(uniqueIndexes(catalog(indexes))).toEqual([
      { name: 'items_category_seq', columns: ['category', 'seq'], primary: false },
      { name: 'items_code', columns: ['code'], primary: false },
      { name: 'items_tenant_ref', columns: ['tenant', 'ref'], primary: false },
      { name: 'items_ref', columns: ['ref'], primary: false },
      { name: 'items_pkey', columns: ['id'], primary: true },
    ]);
    // mysql2 answers MySQL's JSON parsed, the primary key flag as 1.
    expect(uniqueIndexes(catalog([['PRIMARY', 'id', 1]]))).toEqual([
      { name: 'PRIMARY', columns: ['id'], primary: true },
    ]);
    expect(uniqueIndexes(catalog('[]'))).toEqual([]);
  });

  it("marks an index whose NULLs are not distinct (Postgres 15+: the catalog row's fourth element)", () => {
    const listed = JSON.stringify([
      ['items_code_nnd', 'code', false, true],
      ['items_code', 'code', false, false],
    ]);
    expect(uniqueIndexes(catalog(listed))).toEqual([
      { name: 'items_code_nnd', columns: ['code'], primary: false, nullsNotDistinct: true },
      { name: 'items_code', columns: ['code'], primary: false },
    ]);
  });

  it('answers undefined where the catalog does not say (a view, a custom catalog query)', () => {
    expect(uniqueIndexes(catalog(null))).toBeUndefined();
    expect(uniqueIndexes(catalog(undefined))).toBeUndefined();
    expect(uniqueIndexes(new Map())).toBeUndefined();
  });
});

describe('uniqueKeyRefusal', () => {
  it('passes an order whose columns hold all the NOT NULL columns of a unique index', () => {
    expect(refusal(['created', 'id'])).toBeUndefined();
    expect(refusal(['category', 'seq'])).toBeUndefined();
    expect(refusal(['seq', 'created', 'CATEGORY'])).toBeUndefined();
    // A column the WHERE fixes is shared by every row: (tenant, seq) covers seq where tenant = ?.
    expect(refusal(['seq'], ['category'])).toBeUndefined();
    // A column the catalog does not list (SQLite's rowid) is not the catalog's to judge.
    expect(refusal(['created', 'rowid'])).toBeUndefined();
  });

  it('refuses any other, saying why and how to fix it', () => {
    const message = refusal(['created', 'category']);
    expect(message).toContain('uniqueKey "category" does not make the cursor order unique');
    expect(message).toContain(
      'no primary key or unique index of "items" has all its columns among "created" and "category"',
    );
    expect(message).toContain("fromKysely(query, { uniqueKey: 'id' })");
    expect(message).toContain('uniqueKey: null');
    expect(refusal(['seq'])).toContain('"seq"');
    expect(refusal(['seq'], ['id_of_nothing'])).toContain('and the columns its WHERE fixes');
  });

  it('a unique index over a nullable column does not count, and the message says why', () => {
    expect(refusal(['created', 'code'])).toContain(
      'unique index "items_code" does not count: "code" may be NULL',
    );
  });

  it('a unique index over a nullable column whose NULLs are not distinct counts: it holds one NULL', () => {
    expect(
      refusal(['created', 'code'], [], JSON.stringify([['items_code', 'code', false, true]])),
    ).toBeUndefined();
    expect(refusal(['code'], [], JSON.stringify([['items_code', 'code', false, true]]))).toBeUndefined();
  });

  it('suggests the primary key before other unique columns, and a placeholder without any', () => {
    expect(refusal(['created', 'seq'])).toContain("uniqueKey: 'id'");
    const noPrimary = JSON.stringify([['items_ref', 'ref', false]]);
    expect(refusal(['created', 'seq'], [], noPrimary)).toContain("uniqueKey: 'ref'");
    expect(refusal(['created', 'id'], [], '[]')).toContain("uniqueKey: 'pk_column'");
  });
});

describe('uniqueKeyRefusal over a composite key', () => {
  function composite(columns: string[], uniqueKey: string[], listed: CatalogRow['uniques'] = indexes) {
    const rows = catalog(listed);
    return uniqueKeyRefusal({
      adapter: { name: 'kysely', factory: 'fromKysely' },
      uniqueKey,
      table: 'items',
      columns,
      fixed: [],
      catalog: rows,
      indexes: uniqueIndexes(rows) ?? [],
    });
  }

  it('passes a key a composite unique index covers, in any order of its columns', () => {
    expect(composite(['created', 'tenant', 'ref'], ['tenant', 'ref'])).toBeUndefined();
    expect(composite(['created', 'ref', 'tenant'], ['ref', 'tenant'])).toBeUndefined();
    const primary = JSON.stringify([
      ['items_pkey', 'tenant', true],
      ['items_pkey', 'id', true],
    ]);
    expect(composite(['created', 'tenant', 'id'], ['tenant', 'id'], primary)).toBeUndefined();
  });

  it('refuses a key no index covers, naming its columns, and suggests a composite primary key', () => {
    const primary = JSON.stringify([
      ['items_pkey', 'tenant', true],
      ['items_pkey', 'id', true],
    ]);
    const message = composite(['created', 'tenant', 'seq'], ['tenant', 'seq'], primary);
    expect(message).toContain('uniqueKey ["tenant", "seq"] does not make the cursor order unique');
    expect(message).toContain(`"created" and "tenant" and "seq"`);
    expect(message).toContain("fromKysely(query, { uniqueKey: ['tenant', 'id'] })");
  });
});
