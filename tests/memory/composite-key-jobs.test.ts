import { type Connection, connectionFromQuery, streamRows } from '@pagewise/core';
import { fromArray } from '@pagewise/memory-adapter';
import { describe, expect, it } from 'vitest';

// streamRows and connectionFromQuery need a unique key; a composite one is one (issue 38 §3).

const rows = Array.from({ length: 30 }, (_, k) => ({
  tenant_id: (k % 3) + 1,
  id: Math.floor(k / 3) + 1,
  name: `n${k % 4}`,
}));
const pair = (row: { tenant_id: number; id: number }) => `${row.tenant_id}/${row.id}`;

describe('jobs over a composite unique key', () => {
  it('streamRows walks every row once, in the key order', async () => {
    const query = fromArray(rows, { uniqueKey: ['tenant_id', 'id'] });
    const seen: string[] = [];
    for await (const row of streamRows(query, { batchSize: 4, ordering: 'name' })) seen.push(pair(row));
    expect(new Set(seen).size).toBe(rows.length);
    const expected = [...rows]
      .sort((a, b) => a.name.localeCompare(b.name) || a.tenant_id - b.tenant_id || a.id - b.id)
      .map(pair);
    expect(seen).toEqual(expected);
  });

  it('connectionFromQuery pages forward by its edge cursors, every row once', async () => {
    const query = fromArray(rows, { uniqueKey: ['tenant_id', 'id'] });
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i += 1) {
      const page: Connection<(typeof rows)[number]> = await connectionFromQuery(
        query,
        { first: 7, after },
        { ordering: '-name' },
      );
      seen.push(...page.edges.map((edge) => pair(edge.node)));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(rows.length);
    expect(new Set(seen).size).toBe(rows.length);
  });

  it('a query with no key at all is still refused', async () => {
    const keyless = { ...fromArray(rows), uniqueKey: null, uniqueKeys: undefined };
    await expect(connectionFromQuery(keyless as never, { first: 2 })).rejects.toThrow(/has no unique key/);
  });
});
