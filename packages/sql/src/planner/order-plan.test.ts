import { ConfigurationError, type KeyTerm } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { CatalogCache, type SqlSession } from '../catalog/session.js';
import type { CatalogRow } from '../dialect/catalog-rows.js';
import { identifier, type SqlFragment } from '../fragment/fragment.js';
import { RENDER_STYLES, renderSql } from '../fragment/render.js';
import { sqliteCapabilities } from '../sqlite/capabilities.js';
import { type PlanSource, planOrder } from './order-plan.js';

// The ORM-free planning over a session and a source an adapter would give: a SQLite catalog of
// `items` (id the primary key, title nullable), read through `read` once per cache.

const UNIQUES = JSON.stringify([['PRIMARY KEY', 'id', true]]);
const CATALOG: CatalogRow[] = [
  { name: 'id', type: 'integer', nullable: 0, uniques: UNIQUES },
  { name: 'created', type: 'datetime', nullable: 0, uniques: UNIQUES },
  { name: 'title', type: 'text', nullable: 1, uniques: UNIQUES },
];

function session(uniqueKey: string | null, reads: string[], integersExact = true): SqlSession {
  return {
    adapter: { name: 'drizzle', factory: 'fromDrizzle' },
    capabilities: sqliteCapabilities,
    cache: new CatalogCache(),
    uniqueKey,
    columns: {},
    planKey: 'k',
    lasting: true,
    read: async (statement: SqlFragment) => {
      const text = renderSql(statement, RENDER_STYLES.sqlite).sql;
      reads.push(text);
      if (text.includes('pragma_table_info')) return CATALOG.map((row) => ({ ...row }));
      if (text.includes('9007199254740993'))
        return [{ v: integersExact ? 9007199254740993n : 9007199254740992 }];
      return [];
    },
  };
}

function source(renamed = false): PlanSource {
  return {
    tables: () => ({ tables: [{ name: 'items', schema: undefined, alias: 'items' }], complete: true }),
    clauses: () => ({
      distinct: false,
      distinctOn: false,
      joins: false,
      groupBy: false,
      having: false,
      setOperations: false,
      equalityColumns: [],
      fixedColumns: [],
    }),
    field: (field) => ({ expr: identifier(field), selected: true, column: field, qualifier: undefined }),
    rowKey: (field) => field,
    renamed,
  };
}

const created: KeyTerm = { field: 'created', direction: 'desc', nulls: 'first' };
const id: KeyTerm = { field: 'id', direction: 'desc', nulls: 'last', unique: true };

describe('planOrder', () => {
  it("reads each field's column from the catalog once per cache, and the rows' own values as positions", async () => {
    const reads: string[] = [];
    const s = session('id', reads);
    const plan = await planOrder(s, source(), [created, id]);
    expect(plan.fields.map((f) => [f.info.kind, f.info.nullable, f.readKey, f.select])).toEqual([
      ['date', false, 'created', null],
      ['integer', false, 'id', null],
    ]);
    expect([plan.ties, plan.notUnique, plan.refused, plan.merged, plan.added]).toEqual([
      false,
      null,
      -1,
      true,
      false,
    ]);
    await planOrder(s, source(), [created, id]);
    expect(reads.filter((r) => r.includes('pragma_table_info'))).toHaveLength(1);
  });

  it("selects a private column where the ORM renames the rows' columns, and integers' exact text where the driver rounds them", async () => {
    const plan = await planOrder(session('id', [], false), source(true), [created, id]);
    expect(plan.fields.map((f) => f.readKey)).toEqual(['pagewise0', 'pagewise1']);
    expect(plan.exactFields).toEqual(['pagewise1']);
    expect(plan.fields[1]!.exact?.key).toBe('pagewisex1');
  });

  it('names the adapter it was given when a key order is not unique or a field names no column', async () => {
    const plan = await planOrder(session('title', []), source(), [created, { ...id, field: 'title' }]);
    expect(plan.notUnique).toMatch(
      /^drizzle adapter: uniqueKey "title" does not make the cursor order unique/,
    );
    expect(plan.notUnique).toContain("fromDrizzle(query, { uniqueKey: 'id' })");
    const missing = planOrder(session('id', []), source(), [{ ...created, field: 'craeted' }, id]);
    await expect(missing).rejects.toThrow(ConfigurationError);
    await expect(missing).rejects.toThrow(
      /^drizzle adapter: ordering field "craeted" is not a column of "items" \(did you mean "created"\?\)/,
    );
  });
});
