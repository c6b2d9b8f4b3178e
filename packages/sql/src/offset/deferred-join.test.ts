import { ConfigurationError } from '@pagewise/core';
import { describe, expect, it } from 'vitest';
import { identifier, node } from '../fragment/fragment.js';
import { RENDER_STYLES, renderSql } from '../fragment/render.js';
import { Slot } from '../fragment/slot.js';
import { isPrivateColumn } from '../keyset/private-columns.js';
import { deferredJoinStatement, KEYS_TABLE, keyColumn, keyFields } from './deferred-join.js';
import { refuseDeferredJoin, selectionTextComputes } from './deferred-join-refusal.js';

const KYSELY = { name: 'kysely', factory: 'fromKysely' } as const;
const column = (name: string) => node(name);
const render = (part: Parameters<typeof renderSql>[0]) =>
  renderSql(part, RENDER_STYLES.mysql, (n) => `\`${String(n)}\``).sql;
const NONE = {
  distinct: false,
  distinctOn: false,
  groupBy: false,
  having: false,
  setOperations: false,
  windowFunction: false,
  aggregate: false,
};

describe('deferredJoinStatement', () => {
  it('joins on every key column and appends those the ordering lacks, in its last direction', () => {
    const statement = deferredJoinStatement(
      [
        { field: 'tenant_id', expr: column('tenant_id') },
        { field: 'id', expr: column('id') },
      ],
      {
        items: [{ expr: column('created'), direction: 'desc' }],
        fields: ['created', 'tenant_id'],
        direction: 'desc',
      },
      { limit: true, offset: true },
    );
    expect(render(statement.on)).toBe(
      '`tenant_id` = `pagewisekeys`.`pagewisek0` and `id` = `pagewisekeys`.`pagewisek1`',
    );
    expect(statement.keys.map((k) => k.alias)).toEqual(['pagewisek0', 'pagewisek1']);
    expect(statement.tiebreak).toEqual([{ expr: column('id'), direction: 'desc' }]);
    expect([statement.limit, statement.offset]).toEqual([new Slot(0), new Slot(1)]);
  });

  it('orders an unordered query by its key, ascending; no LIMIT for every row', () => {
    const statement = deferredJoinStatement(
      [{ field: 'id', expr: column('id') }],
      { items: null, fields: [] },
      {
        limit: false,
        offset: false,
      },
    );
    expect(statement.orderBy).toBeNull();
    expect(statement.tiebreak).toEqual([{ expr: column('id'), direction: 'asc' }]);
    expect([statement.limit, statement.offset]).toEqual([null, null]);
    expect(render(identifier(KEYS_TABLE, keyColumn(0)))).toBe('`pagewisekeys`.`pagewisek0`');
  });

  it('key columns are private (stripped from `select *` rows); keyFields reads both spellings of a key', () => {
    expect(isPrivateColumn(keyColumn(3))).toBe(true);
    expect(isPrivateColumn('pagewisekeys')).toBe(false);
    expect([keyFields('id'), keyFields(['tenant_id', 'id']), keyFields(null)]).toEqual([
      ['id'],
      ['tenant_id', 'id'],
      [],
    ]);
  });
});

describe('refuseDeferredJoin', () => {
  it('names every clause it cannot serve, and a missing key', () => {
    expect(() => refuseDeferredJoin(KYSELY, 'q', NONE, 'id')).not.toThrow();
    expect(() => refuseDeferredJoin(KYSELY, 'q', { ...NONE, groupBy: true, distinct: true }, 'id')).toThrow(
      /deferredJoin cannot page q: it has GROUP BY, DISTINCT,/,
    );
    expect(() => refuseDeferredJoin(KYSELY, 'q', { ...NONE, setOperations: true }, 'id')).toThrow(/UNION/);
    expect(() => refuseDeferredJoin(KYSELY, 'q', { ...NONE, windowFunction: true }, 'id')).toThrow(
      /window function/,
    );
    expect(() => refuseDeferredJoin(KYSELY, 'q', NONE, null)).toThrow(ConfigurationError);
    expect(() => refuseDeferredJoin(KYSELY, 'q', NONE, null)).toThrow(/uniqueKey is null/);
  });

  it('reads window functions and aggregates from SQL text, a subquery excepted', () => {
    expect(selectionTextComputes('rank() over (order by score)')).toEqual({
      windowFunction: true,
      aggregate: false,
    });
    expect(selectionTextComputes('sum(x) OVER(partition by y)')).toEqual({
      windowFunction: true,
      aggregate: true,
    });
    expect(selectionTextComputes('count(*)')).toEqual({ windowFunction: false, aggregate: true });
    expect(selectionTextComputes('(select count(*) from c where c.post = p.id)')).toEqual({
      windowFunction: false,
      aggregate: false,
    });
    expect(selectionTextComputes('lower(title) || discount(price)')).toEqual({
      windowFunction: false,
      aggregate: false,
    });
  });
});
